/**
 * The gate follows the work: every event that can change a verdict re-checks
 * the PRs it touches, and each verdict lands as a commit status on the PR's
 * current head commit. Run from the bundle against the loopback GitHub, which
 * answers the two GraphQL link queries (held to GitHub's published schema),
 * the statuses endpoints and the commit→PR lists.
 */
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
  gh.token('ghs_readonly', 'github-actions[bot]', 'app', true);
});

let repoCount = 0;
function setupRepo(): string {
  const full = `octo/events${++repoCount}`;
  gh.repo(full, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  return full;
}

const RUN = { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '4242' };

const check = (repo: string, event: { name: string; payload: unknown }, inputs: Record<string, string> = {}, token = 'ghs_actions') =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': token, required: 'INVESTIGATOR, BUILDER, REVIEWER', status: 'true', ...inputs },
    event,
    env: { ...RUN, GITHUB_REPOSITORY: repo },
  });

const pullEvent = (number: number, name = 'pull_request') => ({ name, payload: { number, pull_request: { number } } });
const issueComment = (number: number, pull: boolean) => ({
  name: 'issue_comment',
  payload: { action: 'created', issue: { number, ...(pull ? { pull_request: { url: 'x' } } : {}) }, comment: { id: 1 } },
});

/** An issue with INVESTIGATOR and BUILDER (for `head`), and a PR by `author` closing it by keyword. */
function pipeline(repo: string, head = 'fix/x', author = 'maintainer') {
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder(head));
  const pr = gh.issue(repo, { user: author, pull: { body: `Closes #${issue.number}`, head } });
  return { issue, pr, sha: pr.pull?.sha ?? '' };
}

const statusWrites = (from: number) => gh.requests.slice(from).filter((q) => q.method === 'POST' && q.path.includes('/statuses/'));

describe('the commit status', () => {
  test('lands on the PR head: failure naming what is missing, then success once the review arrives, with the run as its link', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    const first = await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false' });
    expect(first.code).toBe(0);
    expect(gh.statusesOn(repo, sha)).toMatchObject([
      {
        state: 'failure',
        context: 'FORGE conformance',
        description: 'Missing REVIEWER',
        target_url: `https://github.example/${repo}/actions/runs/4242`,
      },
    ]);
    // The review is posted later; its event re-checks the PR and the status turns green.
    gh.review(repo, pr.number, 'maintainer', reviewer());
    const second = await check(repo, pullEvent(pr.number, 'pull_request_review'));
    expect(second.code).toBe(0);
    expect(second.outputs.conforming).toBe('true');
    expect(gh.statusesOn(repo, sha).map((s) => [s.state, s.description])).toEqual([
      ['failure', 'Missing REVIEWER'],
      ['success', 'All required FORGE annotations are present, complete and valid'],
    ]);
  });

  test('an unchanged verdict writes nothing; a new head commit gets its own status', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false' });
    const before = gh.requests.length;
    await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false' });
    expect(statusWrites(before)).toEqual([]);
    gh.push(repo, pr.number, 'c'.repeat(40));
    await check(repo, pullEvent(pr.number, 'pull_request'), { 'fail-on-violation': 'false' });
    expect(gh.statusesOn(repo, 'c'.repeat(40))).toHaveLength(1);
    expect(gh.statusesOn(repo, sha)).toHaveLength(1);
  });

  test('the description stays within 140 characters and names what is partial and invalid too', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator('MAYBE'));
    gh.comment(repo, issue.number, 'maintainer', builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    const many = Array.from({ length: 30 }, (_, i) => `CUSTOM_TYPE_NUMBER_${i}`).join(', ');
    await check(repo, pullEvent(pr.number), { required: `INVESTIGATOR, BUILDER, REVIEWER, ${many}`, 'fail-on-violation': 'false' });
    const [status] = gh.statusesOn(repo, pr.pull?.sha ?? '');
    expect(status.state).toBe('failure');
    expect(status.description?.length).toBeLessThanOrEqual(140);
    expect(status.description).toMatch(/^Missing REVIEWER, CUSTOM_TYPE_NUMBER_0/);
    const short = await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false', 'status-context': 'FORGE short' });
    expect(short.code).toBe(0);
    expect(gh.statusesOn(repo, pr.pull?.sha ?? '').find((s) => s.context === 'FORGE short')?.description).toBe(
      'Missing REVIEWER; partial BUILDER; invalid INVESTIGATOR',
    );
  });

  test('a read-only token (a fork PR) is a warning that says how to fix it, never a failed gate', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    gh.review(repo, pr.number, 'maintainer', reviewer());
    const r = await check(repo, pullEvent(pr.number), {}, 'ghs_readonly');
    expect(r.code).toBe(0);
    expect(r.outputs.conforming).toBe('true');
    expect(r.stdout).toContain('::warning::the "FORGE conformance" status on PR #');
    expect(r.stdout).toContain('statuses: write');
    expect(gh.statusesOn(repo, sha)).toEqual([]);
  });

  test("status: false (forge-check's default) writes no status", async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    await check(repo, pullEvent(pr.number), { status: 'false', 'fail-on-violation': 'false' });
    expect(gh.statusesOn(repo, sha)).toEqual([]);
  });

  test('when the run cannot decide, the status says error and the step fails', async () => {
    const repo = setupRepo();
    const { issue, pr, sha } = pipeline(repo);
    // GraphQL cannot read the PR, and REST then cannot read the issue it closes.
    gh.fail('POST', /^\/graphql$/, 500, 10, { operation: /query ForgeGate\b/ });
    gh.fail('GET', new RegExp(`/issues/${issue.number}$`), 500, 10);
    const r = await check(repo, pullEvent(pr.number));
    expect(r.code).toBe(1);
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'error', context: 'FORGE conformance' }]);
    expect(gh.statusesOn(repo, sha)[0].description).toMatch(/^Could not decide: /);
    gh.faults.length = 0;
  });
});

describe('events', () => {
  test('a comment on the PR re-checks that PR', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const r = await check(repo, issueComment(pr.number, true));
    expect(r.outputs.conforming).toBe('true');
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);
  });

  test('a comment on an issue re-checks every open PR that closes it, each with its own status; a closed PR is left alone', async () => {
    const repo = setupRepo();
    const { issue, pr, sha } = pipeline(repo, 'fix/a');
    const second = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'fix/b' } });
    const third = gh.issue(repo, { user: 'maintainer', pull: { body: null, head: 'fix/c' } });
    gh.link(repo, third.number, issue.number);
    const closed = gh.issue(repo, { user: 'maintainer', state: 'closed', pull: { body: `Fixes #${issue.number}`, head: 'fix/d' } });
    for (const p of [pr, second, third]) gh.comment(repo, p.number, 'maintainer', reviewer());
    const r = await check(repo, issueComment(issue.number, false), { 'fail-on-violation': 'false' });
    expect(r.code).toBe(0);
    // Only #pr's BUILDER is for its head (fix/a): the other two PRs fail on BUILDER.
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);
    expect(gh.statusesOn(repo, second.pull?.sha ?? '')).toMatchObject([{ state: 'failure', description: 'Missing BUILDER' }]);
    expect(gh.statusesOn(repo, third.pull?.sha ?? '')).toMatchObject([{ state: 'failure', description: 'Missing BUILDER' }]);
    expect(gh.statusesOn(repo, closed.pull?.sha ?? '')).toEqual([]);
    expect(r.outputs.conforming).toBe('false');
    const report = JSON.parse(r.outputs.report) as Array<{ number: number; pull: number }>;
    expect(report.map((i) => [i.pull, i.number])).toEqual([
      [pr.number, issue.number],
      [second.number, issue.number],
      [third.number, issue.number],
    ]);
    expect(r.summary).toContain('3 PRs checked');
  });

  test('an issue no open PR closes is checked on its own, as before', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo, { labels: ['workflow:building'] });
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const before = gh.requests.length;
    const r = await check(
      repo,
      { name: 'issues', payload: { action: 'labeled', issue: { number: issue.number } } },
      { required: 'minimal' },
    );
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'BUILDER' });
    expect(JSON.parse(r.outputs.report).map((i: { number: number }) => i.number)).toEqual([issue.number]);
    expect(statusWrites(before)).toEqual([]);
  });

  test("workflow_run: the PR is the one whose head is the run's head_sha; a fork's PR is found by its head branch", async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    gh.review(repo, pr.number, 'maintainer', reviewer());
    const run = (headSha: string, extra: Record<string, unknown> = {}) => ({
      name: 'workflow_run',
      payload: { workflow_run: { head_sha: headSha, head_branch: 'fix/x', head_repository: { full_name: repo }, ...extra } },
    });
    const r = await check(repo, run(sha));
    expect(r.outputs.conforming).toBe('true');
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);

    const fork = gh.issue(repo, {
      user: 'maintainer',
      pull: { body: null, head: 'feature', headRepository: 'forker/events', sha: 'f'.repeat(40) },
    });
    const forked = await check(
      repo,
      {
        name: 'workflow_run',
        payload: { workflow_run: { head_sha: 'f'.repeat(40), head_branch: 'feature', head_repository: { full_name: 'forker/events' } } },
      },
      { 'fail-on-violation': 'false' },
    );
    expect(forked.code).toBe(0);
    expect(JSON.parse(forked.outputs.report).map((i: { number: number }) => i.number)).toEqual([fork.number]);
    expect(gh.statusesOn(repo, 'f'.repeat(40))).toMatchObject([{ state: 'failure' }]);
  });

  test('workflow_run: a number the triggering run forged is ignored, and nothing is written on that PR', async () => {
    const repo = setupRepo();
    const victim = pipeline(repo, 'fix/victim');
    const attacker = gh.issue(repo, {
      user: 'drive-by',
      pull: { body: null, head: 'evil', headRepository: 'evil/events', sha: 'e'.repeat(40) },
    });
    const before = gh.requests.length;
    const r = await check(
      repo,
      {
        name: 'workflow_run',
        payload: { workflow_run: { head_sha: 'e'.repeat(40), head_branch: 'evil', head_repository: { full_name: 'evil/events' } } },
      },
      { 'issue-number': String(victim.pr.number), comment: 'true', 'fail-on-violation': 'false' },
    );
    expect(r.stdout).toContain(`::warning::issue-number ${victim.pr.number} is ignored: the workflow_run is for commit eeeeeeeeeeee`);
    const written = gh.writes().filter((w) => gh.requests.indexOf(w) >= before);
    expect(written.every((w) => !w.path.includes(`/issues/${victim.pr.number}/`) && !w.path.includes(victim.sha))).toBe(true);
    expect(gh.statusesOn(repo, victim.sha)).toEqual([]);
    // The run's own commit is gated, under its own number.
    expect(JSON.parse(r.outputs.report).map((i: { number: number }) => i.number)).toEqual([attacker.number]);
  });

  test('a workflow_run for a commit no open PR has touches nothing and exits 0 with a notice', async () => {
    const repo = setupRepo();
    const r = await check(repo, { name: 'workflow_run', payload: { workflow_run: { head_sha: '0'.repeat(40), head_branch: 'main' } } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('::notice::no open PR has commit 000000000000 as its head: nothing to gate');
    expect(gh.writes().filter((w) => w.path.startsWith(`/repos/${repo}/`))).toEqual([]);
  });
});

describe('links as GitHub records them', () => {
  test("a sidebar link counts whoever wrote the PR; a stranger's keyword does not", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder('fix/s'));
    const pr = gh.issue(repo, { user: 'drive-by', pull: { body: null, head: 'fix/s' } });
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    gh.link(repo, pr.number, issue.number);
    const linked = await check(repo, pullEvent(pr.number));
    expect(linked.outputs.conforming).toBe('true');
    expect(JSON.parse(linked.outputs.report).map((i: { number: number }) => i.number)).toEqual([issue.number]);

    const keyword = gh.issue(repo, { user: 'drive-by', pull: { body: `Fixes #${issue.number}`, head: 'fix/s' } });
    const r = await check(repo, pullEvent(keyword.number), { 'fail-on-violation': 'false' });
    expect(r.outputs.conforming).toBe('false');
    expect(JSON.parse(r.outputs.report).map((i: { number: number }) => i.number)).toEqual([keyword.number]);
    expect(r.summary).toContain('its closing references (#');
  });

  test("a trusted author's keyword link counts; keywords on a PR to another branch are no link", async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.review(repo, pr.number, 'maintainer', reviewer());
    expect((await check(repo, pullEvent(pr.number))).outputs.conforming).toBe('true');
    const other = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${pr.number - 1}`, head: 'fix/x', base: 'release' } });
    const r = await check(repo, pullEvent(other.number), { 'fail-on-violation': 'false' });
    expect(JSON.parse(r.outputs.report).map((i: { number: number }) => i.number)).toEqual([other.number]);
  });

  test('a link to an issue the token cannot read is reported, not fatal', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.link(repo, pr.number, 'secret/elsewhere#7');
    const r = await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('secret/elsewhere#7 is linked, but this token cannot read it (404): left out');
  });

  test('when GraphQL fails, the PR body is read instead, and the run says so', async () => {
    const repo = setupRepo();
    const { pr, issue } = pipeline(repo);
    gh.review(repo, pr.number, 'maintainer', reviewer());
    gh.fail('POST', /^\/graphql$/, 502, 20);
    const r = await check(repo, pullEvent(pr.number));
    gh.faults.length = 0;
    expect(r.code).toBe(0);
    expect(r.outputs.conforming).toBe('true');
    expect(JSON.parse(r.outputs.report).map((i: { number: number }) => i.number)).toEqual([issue.number]);
    expect(r.stdout).toContain('the closing keywords in its body were read instead');
  });
});

describe('reviews that no longer speak for the PR', () => {
  test('a dismissed review, or one of an older head commit, does not satisfy REVIEWER, and the report says which and why', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    const rv = gh.review(repo, pr.number, 'maintainer', reviewer());
    expect((await check(repo, pullEvent(pr.number))).outputs.conforming).toBe('true');

    gh.dismiss(repo, rv.id);
    const dismissed = await check(repo, pullEvent(pr.number, 'pull_request_review'), { 'fail-on-violation': 'false' });
    expect(dismissed.outputs).toMatchObject({ conforming: 'false', missing: 'REVIEWER' });
    expect(dismissed.stdout).toContain(`REVIEWER is missing (REVIEWER on PR #${pr.number}: the review was dismissed)`);
    const ignored = (JSON.parse(dismissed.outputs.report) as Array<{ ignored: Array<{ kind: string; type: string; reason: string }> }>)[0]
      .ignored;
    expect(ignored).toEqual([expect.objectContaining({ kind: 'stale-review', type: 'REVIEWER' })]);

    // A fresh review, then a new commit: the review is of the old head.
    gh.review(repo, pr.number, 'maintainer', reviewer());
    expect((await check(repo, pullEvent(pr.number))).outputs.conforming).toBe('true');
    gh.push(repo, pr.number, 'd'.repeat(40));
    const stale = await check(repo, pullEvent(pr.number, 'pull_request'), { 'fail-on-violation': 'false' });
    expect(stale.outputs.missing).toBe('REVIEWER');
    expect(stale.stdout).toContain(`the review is of commit ${sha.slice(0, 12)}, not the PR's head dddddddddddd`);
    expect(gh.statusesOn(repo, 'd'.repeat(40))).toMatchObject([{ state: 'failure', description: 'Missing REVIEWER' }]);
  });
});

test('a near miss of a reserved type in required is a warning in forge-check too', async () => {
  const repo = setupRepo();
  const { pr } = pipeline(repo);
  const r = await check(repo, pullEvent(pr.number), { required: 'INVESTIGATR, BUILDER', status: 'false', 'fail-on-violation': 'false' });
  expect(r.stdout).toContain('::warning::required: INVESTIGATR is not a reserved type — did you mean INVESTIGATOR?');
});
