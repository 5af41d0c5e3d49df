/**
 * A gate a repository can make required: exemptions, re-gating from the
 * agents' own job (issue-number, dispatch), merge queues, quiet where nothing
 * is gated, one verdict per commit, links as GitHub has them, and trust by
 * role. Every case runs the bundles (forge-check, and forge-gate as the
 * runner runs a composite) against the loopback GitHub.
 */
import type { FakeGitHub } from './support/github-server.js';
import { runBundle, runComposite } from './support/run-action.js';
import { emit } from '../src/codec/index.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
  gh.user('dependabot[bot]', 'Bot');
  gh.user('my-agent[bot]', 'Bot');
});

let repoCount = 0;
function setupRepo(): string {
  const full = `octo/required${++repoCount}`;
  gh.repo(full, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE', 'hidden-member': 'CONTRIBUTOR' });
  return full;
}

const RUN = {
  GITHUB_SERVER_URL: 'https://github.example',
  GITHUB_RUN_ID: '4242',
  FORGE_LINK_RETRY_MS: '0,0,0',
  FORGE_QUEUE_RETRY_MS: '0,0',
};

type Event = { name: string; payload: unknown };

const check = (repo: string, event: Event, inputs: Record<string, string> = {}, env: Record<string, string> = {}) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', required: 'INVESTIGATOR, BUILDER, REVIEWER', status: 'true', ...inputs },
    event,
    env: { ...RUN, GITHUB_REPOSITORY: repo, ...env },
  });

const gate = (repo: string, event: Event, inputs: Record<string, string> = {}) =>
  runComposite('forge-gate', {
    apiUrl: gh.url,
    repository: repo,
    event,
    githubToken: 'ghs_actions',
    inputs,
    env: { ...RUN, GITHUB_REPOSITORY: repo },
  });

const pullEvent = (number: number, name = 'pull_request_target') => ({ name, payload: { number, pull_request: { number } } });
const issueComment = (number: number) => ({
  name: 'issue_comment',
  payload: { action: 'created', issue: { number }, comment: { id: 1, body: 'Me too!' } },
});

/** An issue with INVESTIGATOR and BUILDER (for `head`), and a PR by `author` closing it by keyword. */
function pipeline(repo: string, head = 'fix/x', author = 'maintainer', review = false) {
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder(head));
  const pr = gh.issue(repo, { user: author, pull: { body: `Closes #${issue.number}`, head } });
  if (review) gh.comment(repo, pr.number, 'maintainer', reviewer());
  return { issue, pr, sha: pr.pull?.sha ?? '' };
}

const writes = (from: number) => gh.requests.slice(from).filter((q) => q.method !== 'GET' && q.path !== '/graphql');
const errorsOf = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::error::'));
const noticesOf = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::notice::'));

describe('1. exemptions', () => {
  test('a dependency bump by an exempt author gets success naming the author, a one-line summary and a comment that asks for nothing', async () => {
    const repo = setupRepo();
    const pr = gh.issue(repo, {
      user: 'dependabot[bot]',
      pull: { body: 'Bumps lodash from 4.17.20 to 4.17.21.', head: 'dependabot/npm/lodash' },
    });
    const r = await gate(repo, pullEvent(pr.number), { 'exempt-authors': 'dependabot[bot], renovate[bot]' });
    expect(r.code).toBe(0);
    expect(errorsOf(r.stdout)).toEqual([]);
    expect(r.outputs.conforming).toBe('true');
    expect(gh.statusesOn(repo, pr.pull?.sha ?? '')).toMatchObject([
      { state: 'success', context: 'FORGE conformance', description: 'exempt: author dependabot[bot]' },
    ]);
    expect(
      r.summary
        .trim()
        .split('\n')
        .filter((l) => l.trim() !== ''),
    ).toHaveLength(2);
    expect(r.summary).toContain('✅ exempt');
    const comment = gh.repo(repo).comments.find((c) => c.issue === pr.number);
    expect(comment?.body).toContain('exempt: author dependabot&#91;bot&#93;');
    expect(comment?.body).not.toMatch(/Missing|missing|INVESTIGATOR|mermaid/);
  });

  test("Dependabot is exempt by default (the pipeline's built-in exempt-authors); a pipeline file that exempts nobody fails it", async () => {
    const repo = setupRepo();
    const pr = gh.issue(repo, { user: 'dependabot[bot]', pull: { body: 'Bumps x.', head: 'dependabot/npm/x' } });
    const byDefault = await gate(repo, pullEvent(pr.number), { comment: 'false' });
    expect(byDefault.code).toBe(0);
    expect(gh.statusesOn(repo, pr.pull?.sha ?? '')).toMatchObject([{ state: 'success', description: 'exempt: author dependabot[bot]' }]);
    gh.repo(repo).files.set('.github/forge.yml', 'exempt-authors: []\n');
    const r = await gate(repo, pullEvent(pr.number), { comment: 'false' });
    expect(r.code).toBe(1);
    expect(gh.statusesOn(repo, pr.pull?.sha ?? '').at(-1)).toMatchObject({ state: 'failure' });
  });

  test('an exempt label exempts the PR (any letter case); removing it re-gates to failure', async () => {
    const repo = setupRepo();
    const pr = gh.issue(repo, { user: 'maintainer', labels: ['Forge:Exempt'], pull: { body: 'Docs only.', head: 'docs/typo' } });
    const sha = pr.pull?.sha ?? '';
    const labeled = { name: 'pull_request_target', payload: { action: 'labeled', number: pr.number, pull_request: { number: pr.number } } };
    const r = await check(repo, labeled, { 'exempt-labels': 'forge:exempt' });
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, sha).at(-1)).toMatchObject({ state: 'success', description: 'exempt: label Forge:Exempt' });
    gh.repo(repo).issues.get(pr.number)!.labels = [];
    const after = await check(
      repo,
      { ...labeled, payload: { ...labeled.payload, action: 'unlabeled' } },
      { 'exempt-labels': 'forge:exempt' },
    );
    expect(after.code).toBe(1);
    expect(gh.statusesOn(repo, sha).at(-1)).toMatchObject({ state: 'failure', description: 'Missing INVESTIGATOR, BUILDER, REVIEWER' });
  });
});

describe("2. the agents' own token: issue-number and dispatch", () => {
  test('issue-number naming an issue re-gates every open PR that closes it and writes their statuses', async () => {
    const repo = setupRepo();
    const { issue, pr, sha } = pipeline(repo, 'fix/a', 'maintainer', true);
    const second = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'fix/b' } });
    const dispatch = { name: 'workflow_dispatch', payload: { inputs: { issue: String(issue.number) } } };
    const r = await check(repo, dispatch, { 'issue-number': String(issue.number), 'fail-on-violation': 'false' });
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);
    expect(gh.statusesOn(repo, second.pull?.sha ?? '')).toMatchObject([{ state: 'failure' }]);
    expect(JSON.parse(r.outputs.report).map((i: { pull: number }) => i.pull)).toEqual([pr.number, second.number]);
    // The log names each PR it re-gated, with its verdict and what became of its status.
    expect(r.stdout).toContain(
      `PR #${pr.number}: success — All required FORGE annotations are present, complete and valid (status written)`,
    );
    expect(r.stdout).toContain(`PR #${second.number}: failure — Missing BUILDER, REVIEWER (status written)`);
    const again = await check(repo, dispatch, { 'issue-number': String(issue.number), 'fail-on-violation': 'false' });
    expect(again.stdout).toContain(
      `PR #${pr.number}: success — All required FORGE annotations are present, complete and valid (status already says so)`,
    );
  });

  test('forge-gate takes issue-number too (the step at the end of the agent job); naming a PR checks that PR', async () => {
    const repo = setupRepo();
    const { issue, pr, sha } = pipeline(repo, 'fix/x', 'maintainer', true);
    const dispatch = { name: 'repository_dispatch', payload: { action: 'forge', client_payload: { issue: issue.number } } };
    const r = await gate(repo, dispatch, { 'issue-number': String(issue.number) });
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);
    const byPr = await gate(repo, dispatch, { 'issue-number': String(pr.number) });
    expect(byPr.code).toBe(0);
    expect(JSON.parse(byPr.outputs.report).map((i: { number: number }) => i.number)).toEqual([issue.number]);
  });

  test('forge-gate naming an issue no open PR closes writes nothing and exits 0 with a notice', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const before = gh.requests.length;
    const r = await gate(repo, { name: 'workflow_dispatch', payload: {} }, { 'issue-number': String(issue.number) });
    expect(r.code).toBe(0);
    expect(noticesOf(r.stdout).join('\n')).toContain(`no open PR closes #${issue.number}: the PR gate has nothing to gate`);
    expect(writes(before)).toEqual([]);
  });
});

describe('3. merge queues', () => {
  function queued(repo: string) {
    const a = pipeline(repo, 'fix/a', 'maintainer', true);
    const b = pipeline(repo, 'fix/b', 'maintainer', true);
    const c = pipeline(repo, 'fix/c', 'maintainer', false);
    const groupA = 'a1'.repeat(20);
    const groupB = 'b2'.repeat(20);
    const groupC = 'c3'.repeat(20);
    gh.repo(repo).mergeQueue.set('main', [
      { pull: a.pr.number, head: groupA },
      { pull: b.pr.number, head: groupB },
      { pull: c.pr.number, head: groupC },
    ]);
    return { a, b, c, groupA, groupB, groupC };
  }
  const groupEvent = (sha: string, pr: number) => ({
    name: 'merge_group',
    payload: {
      action: 'checks_requested',
      merge_group: {
        head_sha: sha,
        head_ref: `refs/heads/gh-readonly-queue/main/pr-${pr}-${'0'.repeat(40)}`,
        base_ref: 'refs/heads/main',
        base_sha: '0'.repeat(40),
      },
    },
  });

  test("the group's commit gets one success when every PR in it conforms; the PRs' heads get nothing", async () => {
    const repo = setupRepo();
    const { a, b, groupB } = queued(repo);
    const before = gh.requests.length;
    const r = await gate(repo, groupEvent(groupB, b.pr.number));
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, groupB)).toMatchObject([
      { state: 'success', context: 'FORGE conformance', description: 'All 2 PR(s) in the merge group conform' },
    ]);
    expect(gh.statusesOn(repo, a.sha)).toEqual([]);
    expect(gh.statusesOn(repo, b.sha)).toEqual([]);
    // No status comment is posted from the queue.
    expect(writes(before).filter((w) => w.path.includes('/comments'))).toEqual([]);
    expect(r.summary).toContain(`merge group \`${groupB.slice(0, 12)}\` (PR #${a.pr.number}, #${b.pr.number})`);
  });

  test('a group holding a PR that does not conform fails, naming it', async () => {
    const repo = setupRepo();
    const { c, groupC } = queued(repo);
    const r = await gate(repo, groupEvent(groupC, c.pr.number));
    expect(r.code).toBe(1);
    expect(gh.statusesOn(repo, groupC)).toMatchObject([{ state: 'failure', description: `PR #${c.pr.number}: Missing REVIEWER` }]);
  });

  test('a batched group: every entry sharing its commit is judged, the later one that does not conform fails it', async () => {
    const repo = setupRepo();
    const a = pipeline(repo, 'fix/a', 'maintainer', true);
    const b = pipeline(repo, 'fix/b', 'maintainer', true);
    const c = pipeline(repo, 'fix/c', 'maintainer', false);
    const batch = 'e5'.repeat(20);
    // One group for three PRs: GitHub gives every entry of the batch the group's head commit.
    gh.repo(repo).mergeQueue.set('main', [
      { pull: a.pr.number, head: batch },
      { pull: b.pr.number, head: batch },
      { pull: c.pr.number, head: batch },
    ]);
    const r = await gate(repo, groupEvent(batch, c.pr.number));
    expect(r.code).toBe(1);
    expect(gh.statusesOn(repo, batch)).toMatchObject([{ state: 'failure', description: `PR #${c.pr.number}: Missing REVIEWER` }]);
    expect(r.summary).toContain(`(PR #${a.pr.number}, #${b.pr.number}, #${c.pr.number})`);
  });

  test('an exempt PR in the group passes', async () => {
    const repo = setupRepo();
    const bump = gh.issue(repo, { user: 'dependabot[bot]', pull: { body: 'Bumps y.', head: 'dependabot/y' } });
    const sha = 'd4'.repeat(20);
    gh.repo(repo).mergeQueue.set('main', [{ pull: bump.number, head: sha }]);
    const r = await gate(repo, groupEvent(sha, bump.number), { 'exempt-authors': 'dependabot[bot]' });
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);
  });

  test('a queue that cannot say which PRs the group holds: error naming why, never success on the PR the ref names', async () => {
    const repo = setupRepo();
    const bump = gh.issue(repo, { user: 'dependabot[bot]', pull: { body: 'Bumps y.', head: 'dependabot/y' } });
    const sha = 'd5'.repeat(20);
    const r = await gate(repo, groupEvent(sha, bump.number), { 'exempt-authors': 'dependabot[bot]' });
    expect(r.code).toBe(1);
    const [status] = gh.statusesOn(repo, sha);
    expect(status).toMatchObject({ state: 'error' });
    expect(status.description).toContain('holds no entry for commit');
    expect(r.stdout).toContain(`its ref names PR #${bump.number}, but the group's commit also holds every PR ahead of it`);
  });

  test('one failed read of the merge queue is read again, and the group is decided on all of its PRs', async () => {
    const repo = setupRepo();
    const { a, b, groupB } = queued(repo);
    gh.fail('POST', /^\/graphql$/, 502, 1);
    const before = gh.requests.length;
    const r = await gate(repo, groupEvent(groupB, b.pr.number));
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, groupB)).toMatchObject([{ state: 'success', description: 'All 2 PR(s) in the merge group conform' }]);
    expect(r.summary).toContain(`(PR #${a.pr.number}, #${b.pr.number})`);
    expect(gh.requests.slice(before).filter((x) => x.path === '/graphql').length).toBeGreaterThan(1);
  });

  test('a queue that stays unreadable: error naming why', async () => {
    const repo = setupRepo();
    const { b, groupB } = queued(repo);
    // 403 is no failure the client retries by itself: the queue's own retries are what read it again.
    gh.fail('POST', /^\/graphql$/, 403, 3);
    const r = await gate(repo, groupEvent(groupB, b.pr.number));
    gh.faults.splice(0);
    expect(r.code).toBe(1);
    expect(gh.statusesOn(repo, groupB)).toMatchObject([{ state: 'error', description: expect.stringContaining('could not be read') }]);
  });

  test('merge_group is accepted by forge-check item scope too (no usage error)', async () => {
    const repo = setupRepo();
    const { a, groupA } = queued(repo);
    const r = await check(repo, groupEvent(groupA, a.pr.number));
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, groupA)).toMatchObject([{ state: 'success' }]);
  });
});

describe('4. quiet where nothing is gated', () => {
  test.each(['push', 'schedule', 'workflow_dispatch', 'release', 'create', 'delete', 'deployment'])(
    'a %s event with no issue-number exits 0 with one notice and makes no request',
    async (name) => {
      const repo = setupRepo();
      const before = gh.requests.length;
      const r = await check(repo, { name, payload: {} });
      expect(r.code).toBe(0);
      const notices = noticesOf(r.stdout);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(`the "${name}" event names no PR, issue or commit`);
      expect(gh.requests.length).toBe(before);
    },
  );

  test("the PR gate on a stranger's comment on a plain issue: exit 0, a notice, no status and no comment", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo, { user: 'drive-by' });
    const before = gh.requests.length;
    const r = await gate(repo, issueComment(issue.number));
    expect(r.code).toBe(0);
    expect(errorsOf(r.stdout)).toEqual([]);
    expect(r.stdout).not.toContain('::warning::');
    expect(noticesOf(r.stdout).join('\n')).toContain(`no open PR closes #${issue.number}`);
    expect(writes(before)).toEqual([]);
    expect(gh.repo(repo).comments).toEqual([]);
  });

  test('forge-check as an issue gate keeps checking the issue itself', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const r = await check(repo, issueComment(issue.number), { required: 'minimal', status: 'false', 'fail-on-violation': 'false' });
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'BUILDER' });
  });

  test('a deleted issue, a transferred one (naming where to) and a 404 on the event issue are notices, not failures', async () => {
    const repo = setupRepo();
    const before = gh.requests.length;
    const deleted = await gate(repo, { name: 'issues', payload: { action: 'deleted', issue: { number: 77 } } });
    expect(deleted.code).toBe(0);
    expect(noticesOf(deleted.stdout).join('\n')).toContain('#77 was deleted: no open PR closes it: nothing to gate');
    const moved = await gate(repo, {
      name: 'issues',
      payload: {
        action: 'transferred',
        issue: { number: 78 },
        changes: {
          new_issue: { html_url: 'https://github.example/octo/elsewhere/issues/3' },
          new_repository: { full_name: 'octo/elsewhere' },
        },
      },
    });
    expect(moved.code).toBe(0);
    expect(noticesOf(moved.stdout).join('\n')).toContain('#78 was transferred to https://github.example/octo/elsewhere/issues/3');
    // The pipeline file (who is trusted), then one listing of the open PRs each (who closed it?); nothing written.
    const file = `GET /repos/${repo}/contents/.github/forge.yml`;
    expect(gh.requests.slice(before).map((x) => `${x.method} ${decodeURIComponent(x.path)}`)).toEqual([
      file,
      `GET /repos/${repo}/pulls`,
      file,
      `GET /repos/${repo}/pulls`,
    ]);
    const missing = await check(repo, issueComment(999), { status: 'false' });
    expect(missing.code).toBe(0);
    expect(errorsOf(missing.stdout)).toEqual([]);
    expect(noticesOf(missing.stdout).join('\n')).toContain('#999 is not an issue or PR this token can see');
  });

  test("an issue event re-gates only PRs whose verdict depends on it: strangers' keyword PRs are named once, a sidebar link counts", async () => {
    const repo = setupRepo();
    const { issue, pr } = pipeline(repo, 'fix/x', 'maintainer', true);
    const strangers = Array.from({ length: 5 }, (_, i) =>
      gh.issue(repo, { user: 'drive-by', pull: { body: `Fixes #${issue.number}`, head: `spam/${i}`, headRepository: 'drive-by/fork' } }),
    );
    const linked = gh.issue(repo, { user: 'drive-by', pull: { body: null, head: 'fix/x-alt', headRepository: 'drive-by/fork' } });
    gh.link(repo, linked.number, issue.number);
    const r = await gate(repo, issueComment(issue.number), { comment: 'false', 'fail-on-violation': 'false' });
    const gated = JSON.parse(r.outputs.report).map((i: { pull: number }) => i.pull);
    expect(gated).toEqual([pr.number, linked.number]);
    const notices = noticesOf(r.stdout).filter((n) => n.includes('not re-gated'));
    expect(notices).toHaveLength(1);
    for (const s of strangers) expect(notices[0]).toContain(`#${s.number}`);
    for (const s of strangers) expect(gh.statusesOn(repo, s.pull?.sha ?? '')).toEqual([]);
  });
});

describe('5. one verdict per commit, the newest', () => {
  test("a stranger's fork PR with a member's head commit cannot turn it red; the summary names the PRs that share it", async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo, 'fix/x', 'maintainer', true);
    await check(repo, pullEvent(pr.number));
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);
    const copy = gh.issue(repo, { user: 'drive-by', pull: { body: 'same commit', head: 'copy', headRepository: 'drive-by/fork', sha } });
    const r = await check(repo, pullEvent(copy.number), { 'fail-on-violation': 'false' });
    expect(r.outputs.conforming).toBe('false');
    // Still one status, still success: the member's PR with this head conforms.
    expect(gh.statusesOn(repo, sha).map((s) => s.state)).toEqual(['success']);
    expect(r.summary).toContain(`is also the head of open PR #${pr.number} (conforming)`);
    // When no PR with that head conforms, the status is failure.
    gh.repo(repo).comments = gh.repo(repo).comments.filter((c) => c.issue !== pr.number);
    await check(repo, pullEvent(copy.number), { 'fail-on-violation': 'false' });
    expect(gh.statusesOn(repo, sha).at(-1)).toMatchObject({ state: 'failure' });
  });

  test('a status written after this run started reading is left alone; one written before is rewritten, whatever its run id (a re-run writes)', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo, 'fix/x', 'maintainer', true);
    const seed = (id: number, runId: number, at: string) =>
      gh.repo(repo).statuses.push({
        id,
        sha,
        state: 'failure',
        description: 'Missing REVIEWER',
        context: 'FORGE conformance',
        target_url: `https://github.example/${repo}/actions/runs/${runId}`,
        creator: 'github-actions[bot]',
        created_at: at,
      });
    // A run that started later (a higher run id) but read before this attempt: this re-run of run 4242 reads now, and writes.
    seed(1, 5000, gh.now());
    const rerun = await check(repo, pullEvent(pr.number));
    expect(rerun.code).toBe(0);
    expect(gh.statusesOn(repo, sha).at(-1)).toMatchObject({
      state: 'success',
      target_url: `https://github.example/${repo}/actions/runs/4242`,
    });
    // A status GitHub stamped after this run's first answer: a reading newer than ours decided it.
    seed(2, 5001, new Date(Date.parse(gh.now()) + 60_000).toISOString().replace('.000Z', 'Z'));
    const older = await check(repo, pullEvent(pr.number));
    expect(older.code).toBe(0);
    expect(gh.statusesOn(repo, sha).at(-1)).toMatchObject({ id: 2, state: 'failure' });
    expect(older.stdout).toMatch(/was written at \S+, after this run started reading \(\S+\) by run 5001: left as it is/);
  });

  test("the newest status is found in one request however busy the commit; at GitHub's limit the warning says it is frozen", async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo, 'fix/x', 'maintainer', true);
    await check(repo, pullEvent(pr.number));
    // 150 newer statuses of another check: a plain listing (newest 100, every context mixed) would miss ours.
    for (let i = 0; i < 150; i++)
      gh.repo(repo).statuses.push({
        id: 10 + i,
        sha,
        state: 'success',
        description: `ok ${i}`,
        context: 'ci/build',
        target_url: null,
        creator: 'x',
        created_at: gh.now(),
      });
    const before = gh.requests.length;
    const again = await check(repo, pullEvent(pr.number));
    // The newest status of each context came with the PR's one read: no REST status read at all.
    const reads = gh.requests.slice(before).filter((q) => q.path.includes(`/commits/${sha}/status`));
    expect(reads).toHaveLength(0);
    expect(gh.operations(before)).toEqual(['ForgeGate']);
    expect(gh.statusesOn(repo, sha).filter((s) => s.context === 'FORGE conformance')).toHaveLength(1);
    expect(again.code).toBe(0);
    // 1,000 statuses in the context: GitHub refuses the next one.
    const busy = gh.issue(repo, { user: 'maintainer', pull: { body: null, head: 'busy' } });
    const busySha = busy.pull?.sha ?? '';
    for (let i = 0; i < 1000; i++)
      gh.repo(repo).statuses.push({
        id: 2000 + i,
        sha: busySha,
        state: 'success',
        description: 'x',
        context: 'FORGE conformance',
        target_url: null,
        creator: 'x',
        created_at: gh.now(),
      });
    const frozen = await check(repo, pullEvent(busy.number), { 'fail-on-violation': 'false' });
    expect(frozen.code).toBe(0);
    expect(frozen.stdout).toMatch(/::warning::.*at most 1000 statuses per commit and context.*frozen.*a new commit on the PR clears it/);
  });
});

describe('6. links as GitHub has them, when it has them', () => {
  test('links not there yet are asked for again, then found', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo, 'fix/x', 'maintainer', true);
    gh.repo(repo).linkDelay.set(pr.number, 2);
    const r = await check(repo, pullEvent(pr.number));
    expect(r.code).toBe(0);
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);
    expect(r.stdout).not.toContain('were read instead');
  });

  test('links still missing after the waits: the body keywords of a trusted author are read, with a notice', async () => {
    const repo = setupRepo();
    const { issue, pr } = pipeline(repo, 'fix/x', 'maintainer', true);
    gh.repo(repo).linkDelay.set(pr.number, 100);
    const before = gh.requests.length;
    const r = await check(repo, pullEvent(pr.number));
    expect(r.code).toBe(0);
    expect(noticesOf(r.stdout).join('\n')).toContain(`GitHub listed no issue PR #${pr.number} closes`);
    expect(noticesOf(r.stdout).join('\n')).toContain(`#${issue.number}: the closing keywords in its body were read instead`);
    // The first ask (the PR's one read) and three more.
    expect(gh.operations(before).filter((op) => op === 'ForgeGate' || op === 'PullLinks')).toEqual([
      'ForgeGate',
      'PullLinks',
      'PullLinks',
      'PullLinks',
    ]);
  });

  test('a PR closing two issues, GitHub having linked only the first: asked again until the second is linked too', async () => {
    const repo = setupRepo();
    const { issue, pr, sha } = pipeline(repo, 'fix/x', 'maintainer', true);
    const second = gh.issue(repo);
    gh.comment(repo, second.number, 'maintainer', investigator());
    gh.comment(repo, second.number, 'maintainer', emit('GATE_FAILED', { fields: { Gate: 'tests', Reason: 'CI red' } }));
    const body = `Closes #${issue.number}\nCloses #${second.number}`;
    const pull = gh.repo(repo).issues.get(pr.number)?.pull;
    if (pull) pull.body = body;
    gh.repo(repo).lastLinkDelay.set(pr.number, 2);
    const before = gh.requests.length;
    const r = await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false' });
    expect(r.code).toBe(0);
    // The second issue is read, and what it holds (a halt after the build) decides the verdict.
    expect(gh.statusesOn(repo, sha).at(-1)?.state).toBe('failure');
    expect(gh.operations(before).filter((op) => op === 'PullLinks').length).toBeGreaterThanOrEqual(1);

    // Never linked in time: read from the body, with a notice naming it.
    const late = setupRepo();
    const p2 = pipeline(late, 'fix/x', 'maintainer', true);
    const other = gh.issue(late);
    const pull2 = gh.repo(late).issues.get(p2.pr.number)?.pull;
    if (pull2) pull2.body = `Closes #${p2.issue.number}\nCloses #${other.number}`;
    gh.repo(late).lastLinkDelay.set(p2.pr.number, 100);
    const r2 = await check(late, pullEvent(p2.pr.number), { 'fail-on-violation': 'false' });
    expect(noticesOf(r2.stdout).join('\n')).toContain(
      `GitHub had not linked #${other.number} to PR #${p2.pr.number} after 0 s, though its body closes it: read from the body's closing keywords`,
    );
  });

  test("a stranger's PR is never waited for; a PR into another branch gets a notice saying how to link", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const stranger = gh.issue(repo, { user: 'drive-by', pull: { body: `Fixes #${issue.number}`, head: 's' } });
    gh.repo(repo).linkDelay.set(stranger.number, 100);
    const before = gh.requests.length;
    await check(repo, pullEvent(stranger.number), { 'fail-on-violation': 'false' });
    // Its links come with its one read, and are never asked for again.
    expect(gh.operations(before).filter((op) => op === 'ForgeGate' || op === 'PullLinks')).toEqual(['ForgeGate']);
    const release = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'r', base: 'release/1.x' } });
    const r = await check(repo, pullEvent(release.number), { 'fail-on-violation': 'false' });
    expect(noticesOf(r.stdout).join('\n')).toContain(
      `PR #${release.number} targets release/1.x, not the default branch main: GitHub links closing keywords only for PRs into the default branch`,
    );
    expect(r.stdout).toContain('Development sidebar');
  });
});

describe('7. trusting members GitHub hides', () => {
  test('permission:write trusts a private member (CONTRIBUTOR to the token) by role, asking once per login', async () => {
    const repo = setupRepo();
    gh.repo(repo).roles.set('hidden-member', 'write');
    gh.repo(repo).roles.set('drive-by', 'read');
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'hidden-member', investigator());
    gh.comment(repo, issue.number, 'hidden-member', builder('fix/h'));
    gh.comment(repo, issue.number, 'drive-by', investigator());
    const pr = gh.issue(repo, { user: 'hidden-member', pull: { body: `Closes #${issue.number}`, head: 'fix/h' } });
    gh.comment(repo, pr.number, 'hidden-member', reviewer());
    const plain = await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false' });
    expect(plain.outputs.conforming).toBe('false');
    const before = gh.requests.length;
    const r = await check(repo, pullEvent(pr.number), { 'trusted-authors': 'OWNER, MEMBER, permission:write' });
    expect(r.outputs.conforming).toBe('true');
    const asks = gh.requests.slice(before).filter((q) => q.path.includes('/collaborators/'));
    expect(asks.map((q) => q.path).sort()).toEqual([
      `/repos/${repo}/collaborators/drive-by/permission`,
      `/repos/${repo}/collaborators/hidden-member/permission`,
    ]);
    // A role below the entry is not trusted, and the report says which role it found.
    const report = JSON.parse(r.outputs.report) as Array<{ ignored: Array<{ author: string; reason: string }> }>;
    expect(report[0].ignored.find((i) => i.author === 'drive-by')?.reason).toContain('role read here');
  });
});

test('the status landed but its answer was a 502: read back as written, not sent twice', async () => {
  const repo = setupRepo();
  const pr = gh.issue(repo, { user: 'dependabot[bot]', pull: { body: 'Bumps lodash.', head: 'dependabot/npm/lodash' } });
  gh.fail('POST', new RegExp(`^/repos/${repo}/statuses/`), 502, 1, { after: true });
  const r = await gate(repo, pullEvent(pr.number), { 'exempt-authors': 'dependabot[bot]' });
  expect(r.code).toBe(0);
  expect(gh.statusesOn(repo, pr.pull?.sha ?? '')).toMatchObject([{ state: 'success', description: 'exempt: author dependabot[bot]' }]);
});

test('a verdict written by another run after this one read is left standing: the newest verdict wins across runs', async () => {
  const repo = setupRepo();
  const { pr, sha } = pipeline(repo, 'fix/x', 'maintainer', true);
  // An older run's failure, read by this run's snapshot.
  gh.repo(repo).statuses.push({
    id: 90_001,
    sha,
    state: 'failure',
    description: 'Missing REVIEWER',
    context: 'FORGE conformance',
    target_url: null,
    creator: 'github-actions[bot]',
    created_at: '2025-12-31T00:00:00Z',
  });
  // While this run decides on what it read, a run of another group (the REVIEWER deleted) writes its failure.
  gh.mutateNext(
    'POST',
    /^\/graphql$/,
    (d) => {
      gh.repo(repo).statuses.push({
        id: 90_002,
        sha,
        state: 'failure',
        description: 'Missing REVIEWER (deleted)',
        context: 'FORGE conformance',
        target_url: 'https://github.example/x/actions/runs/77',
        creator: 'github-actions[bot]',
        created_at: new Date(Date.parse(gh.now()) + 60_000).toISOString().replace('.000Z', 'Z'),
      });
      return d;
    },
    1,
    /query ForgeGate\b/,
  );
  const r = await gate(repo, pullEvent(pr.number));
  expect(r.code).toBe(0);
  expect(gh.statusesOn(repo, sha).map((s) => s.description)).toEqual(['Missing REVIEWER', 'Missing REVIEWER (deleted)']);
  expect(r.stdout + r.summary).toMatch(/after this run started reading .*: left as it is/);
});
