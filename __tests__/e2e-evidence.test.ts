/**
 * Evidence that means what it says, run from the bundle against the loopback
 * GitHub: verdicts decide (CHANGES_REQUESTED, INVALID), a review belongs to
 * the PR and to its head, hidden and re-edited comments lose their author's
 * trust, another repository's associations trust nobody here, and GraphQL
 * answers are used for what they hold.
 */
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
  gh.user('review-bot[bot]', 'Bot');
});

let repoCount = 0;
function setupRepo(): string {
  const full = `octo/evidence${++repoCount}`;
  gh.repo(full, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE', writer: 'COLLABORATOR' });
  return full;
}

const RUN = { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '4242', FORGE_LINK_RETRY_MS: '0,0,0' };

const check = (repo: string, pr: number, inputs: Record<string, string> = {}) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: {
      'github-token': 'ghs_actions',
      required: 'INVESTIGATOR, BUILDER, REVIEWER',
      status: 'true',
      'fail-on-violation': 'false',
      'trusted-authors': 'OWNER, MEMBER, COLLABORATOR, github-actions[bot], review-bot[bot]',
      ...inputs,
    },
    event: { name: 'pull_request_target', payload: { number: pr, pull_request: { number: pr } } },
    env: { ...RUN, GITHUB_REPOSITORY: repo },
  });

function pipeline(repo: string, head = 'fix/x') {
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder(head));
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head } });
  return { issue, pr, sha: pr.pull?.sha ?? '' };
}

type Report = Array<{
  number: number;
  types: Array<{ type: string; status: string }>;
  ignored: Array<{ kind: string; type: string; reason: string }>;
}>;
const report = (r: { outputs: Record<string, string> }) => JSON.parse(r.outputs.report) as Report;
const ignoredOf = (r: { outputs: Record<string, string> }, kind: string) =>
  report(r).flatMap((i) => i.ignored.filter((x) => x.kind === kind));

describe('1. verdicts', () => {
  test('CHANGES_REQUESTED by a trusted REVIEWER blocks: the status, summary, outputs and comment say which domain', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo);
    gh.comment(repo, pr.number, 'review-bot[bot]', reviewer('APPROVED', 'LOGIC'));
    gh.comment(repo, pr.number, 'review-bot[bot]', reviewer('CHANGES_REQUESTED', 'SECURITY'));
    const r = await check(repo, pr.number, { comment: 'true' });
    expect(r.outputs.conforming).toBe('false');
    expect(r.outputs.blocked).toBe('REVIEWER (SECURITY) requests changes');
    expect(r.outputs.missing).toBe('');
    expect(gh.statusesOn(repo, sha).at(-1)).toMatchObject({
      state: 'failure',
      description: 'Blocked: REVIEWER (SECURITY) requests changes',
    });
    expect(r.summary).toContain('⛔ blocked');
    expect(r.stdout).toMatch(/REVIEWER \(SECURITY\) by review-bot\[bot\] requests changes \(CHANGES_REQUESTED\)/);
    const comment = gh.repo(repo).comments.find((c) => c.body.startsWith('<!-- forge-check status comment'));
    expect(comment?.body).toContain('⛔ blocked');
    expect(comment?.body).toMatch(/REVIEWER\["FORGE:REVIEWER \(on the PR\)<br\/>blocked"\]:::blocked/);
  });

  test('the newest REVIEWER of a domain decides: a later APPROVED clears it; verdicts: ignore counts presence only', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.comment(repo, pr.number, 'review-bot[bot]', reviewer('CHANGES_REQUESTED', 'SECURITY'));
    expect((await check(repo, pr.number, { verdicts: 'ignore' })).outputs.conforming).toBe('true');
    gh.comment(repo, pr.number, 'review-bot[bot]', reviewer('APPROVED', 'SECURITY'));
    const r = await check(repo, pr.number);
    expect(r.outputs).toMatchObject({ conforming: 'true', blocked: '' });
    // COMMENTED counts as present.
    gh.comment(repo, pr.number, 'review-bot[bot]', reviewer('COMMENTED', 'DATABASE'));
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
    // A stranger's CHANGES_REQUESTED decides nothing.
    gh.comment(repo, pr.number, 'drive-by', reviewer('CHANGES_REQUESTED', 'DATABASE'));
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
  });

  test('an INVESTIGATOR that found the issue INVALID blocks a PR that closes it', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator('INVALID'));
    gh.comment(repo, issue.number, 'maintainer', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const r = await check(repo, pr.number);
    expect(r.outputs.conforming).toBe('false');
    expect(r.outputs.blocked).toBe(`INVESTIGATOR found #${issue.number} INVALID`);
    expect(gh.statusesOn(repo, pr.pull?.sha ?? '').at(-1)?.description).toBe(`Blocked: INVESTIGATOR found #${issue.number} INVALID`);
  });
});

describe('2. a review belongs to the PR and to its head', () => {
  test('a REVIEWER on the linked issue is passed over, never counted', async () => {
    const repo = setupRepo();
    const { issue, pr } = pipeline(repo);
    gh.comment(repo, issue.number, 'maintainer', reviewer());
    const r = await check(repo, pr.number);
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'REVIEWER' });
    expect(ignoredOf(r, 'wrong-place')[0].reason).toContain('REVIEWER is written on the pull request (§4)');
  });

  test('a pending review and a review whose commit GitHub no longer knows are passed over, with the reason', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.review(repo, pr.number, 'maintainer', reviewer(), 'PENDING');
    const ghost = gh.review(repo, pr.number, 'maintainer', reviewer());
    ghost.commit = null;
    const r = await check(repo, pr.number);
    expect(r.outputs.missing).toBe('REVIEWER');
    const reasons = ignoredOf(r, 'stale-review').map((i) => i.reason);
    expect(reasons.some((x) => x.includes('the review is pending'))).toBe(true);
    expect(reasons.some((x) => x.includes('GitHub no longer knows the commit'))).toBe(true);
  });

  test('stale-reviews: one rule for both channels — dismiss passes over a review of an older commit and a comment before a force push; keep counts both', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.comment(repo, pr.number, 'maintainer', reviewer('APPROVED', 'LOGIC'));
    gh.review(repo, pr.number, 'maintainer', reviewer('APPROVED', 'SECURITY'));
    gh.forcePush(repo, pr.number, 'f'.repeat(40));
    const dismissed = await check(repo, pr.number);
    expect(dismissed.outputs.missing).toBe('REVIEWER');
    const reasons = ignoredOf(dismissed, 'stale-review').map((i) => i.reason);
    expect(reasons.some((x) => x.includes("posted before the PR's head ffffffffffff reached it"))).toBe(true);
    expect(reasons.some((x) => x.includes('the review is of commit'))).toBe(true);
    const kept = await check(repo, pr.number, { 'stale-reviews': 'keep' });
    expect(kept.outputs.conforming).toBe('true');
    // A REVIEWER after the push counts under dismiss.
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
  });

  test('when GitHub keeps no record of when the head arrived, a REVIEWER comment that names no commit does not count; the notice says how to review again', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    const stored = gh.repo(repo).issues.get(pr.number);
    if (stored?.pull) stored.pull.commits = 3;
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const r = await check(repo, pr.number);
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'REVIEWER' });
    expect(r.stdout).toContain('::notice::GitHub keeps no record of when commit');
    expect(r.stdout).toContain('review the head again with forge-emit (it records the commit reviewed) or as a PR review');
    // A REVIEWER that names the head commit counts exactly for it, records or not.
    gh.comment(
      repo,
      pr.number,
      'maintainer',
      reviewer().replace('**Verdict**: APPROVED', `**Verdict**: APPROVED\n**Commit**: ${pr.pull?.sha}`),
    );
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
  });
});

describe('2b. evidence bound to the code it reviewed, in both channels', () => {
  test('an ordinary push (dated by the repository activity) leaves a REVIEWER comment about the older commit; one after the push counts', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
    gh.push(repo, pr.number, '1'.repeat(40));
    const after = await check(repo, pr.number);
    expect(after.outputs).toMatchObject({ conforming: 'false', missing: 'REVIEWER' });
    expect(ignoredOf(after, 'stale-review').map((i) => i.reason)).toEqual([
      expect.stringContaining("posted before the PR's head 111111111111 reached it"),
    ]);
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
  });

  test('a one-commit PR is dated by the activity record before its opening: after a stacked merge, an old REVIEWER comment does not count for code pushed later', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
    // The base took the PR's first commit (a stacked merge); a new commit was pushed: still one commit not in the base.
    gh.push(repo, pr.number, '3'.repeat(40));
    const stored = gh.repo(repo).issues.get(pr.number);
    if (stored?.pull) stored.pull.commits = 1;
    const after = await check(repo, pr.number);
    expect(after.outputs).toMatchObject({ conforming: 'false', missing: 'REVIEWER' });
    expect(ignoredOf(after, 'stale-review').map((i) => i.reason)).toEqual([
      expect.stringContaining("posted before the PR's head 333333333333 reached it"),
    ]);
  });

  test('a REVIEWER naming an older commit is passed over; keep counts it', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.comment(
      repo,
      pr.number,
      'maintainer',
      reviewer().replace('**Verdict**: APPROVED', `**Verdict**: APPROVED\n**Commit**: \`${'abcdef1234567'.padEnd(40, '0')}\``),
    );
    const r = await check(repo, pr.number);
    expect(r.outputs.missing).toBe('REVIEWER');
    expect(ignoredOf(r, 'stale-review')[0].reason).toContain('it reviewed commit abcdef123456');
    expect((await check(repo, pr.number, { 'stale-reviews': 'keep' })).outputs.conforming).toBe('true');
  });

  test('a push alone never lifts a block: CHANGES_REQUESTED on the older commit blocks until the head is reviewed', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    gh.comment(repo, pr.number, 'maintainer', reviewer('APPROVED', 'SECURITY'));
    gh.review(repo, pr.number, 'maintainer', reviewer('CHANGES_REQUESTED — the null guard is missing', 'SECURITY'), 'CHANGES_REQUESTED');
    expect((await check(repo, pr.number)).outputs.blocked).toBe('REVIEWER (SECURITY) requests changes');
    gh.push(repo, pr.number, '2'.repeat(40));
    const pushed = await check(repo, pr.number);
    expect(pushed.outputs.conforming).toBe('false');
    expect(pushed.outputs.blocked).toBe('REVIEWER (SECURITY) requests changes');
    expect(pushed.stdout).toContain('requested changes on an older commit, and nobody has reviewed the head since');
    // A REVIEWER of the head in the same domain lifts it.
    gh.comment(repo, pr.number, 'maintainer', reviewer('APPROVED', 'SECURITY'));
    expect((await check(repo, pr.number)).outputs).toMatchObject({ conforming: 'true', blocked: '' });
  });

  test("a fork's push is dated by the fork's activity; a fork whose activity cannot be read fails closed", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const pr = gh.issue(repo, {
      user: 'maintainer',
      pull: { body: `Closes #${issue.number}`, head: 'feature', headRepository: 'maintainer/fork' },
    });
    gh.comment(repo, pr.number, 'maintainer', builder('feature'));
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    gh.push(repo, pr.number, '3'.repeat(40));
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const dated = await check(repo, pr.number, { 'trusted-authors': 'OWNER, MEMBER, maintainer' });
    expect(dated.outputs.conforming).toBe('true');
    expect(ignoredOf(dated, 'stale-review')).toHaveLength(1);
    gh.repo('maintainer/fork').activityRefused = true;
    const refused = await check(repo, pr.number, { 'trusted-authors': 'OWNER, MEMBER, maintainer' });
    expect(refused.outputs.missing).toBe('REVIEWER');
    expect(refused.stdout).toContain('this token cannot read the activity of maintainer/fork (403)');
  });

  test("this run's own synchronize push dates the head", async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    const stored = gh.repo(repo).issues.get(pr.number);
    if (stored?.pull) stored.pull.commits = 2;
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const sha = '4'.repeat(40);
    if (stored?.pull) stored.pull.sha = sha;
    const r = await runBundle('forge-check', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', required: 'INVESTIGATOR, BUILDER, REVIEWER', 'fail-on-violation': 'false' },
      event: {
        name: 'pull_request',
        payload: {
          action: 'synchronize',
          before: '0'.repeat(40),
          after: sha,
          number: pr.number,
          pull_request: { number: pr.number, updated_at: '2030-01-01T00:00:00Z' },
        },
      },
      env: { ...RUN, GITHUB_REPOSITORY: repo },
    });
    expect(r.outputs.missing).toBe('REVIEWER');
    expect(ignoredOf(r, 'stale-review')[0].reason).toContain('(2030-01-01T00:00:00Z; stale-reviews: dismiss)');
  });

  test('forge-emit writing a REVIEWER on the PR event records the head the run was started for', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    const r = await runBundle('forge-emit', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', type: 'REVIEWER', fields: 'Verdict: APPROVED' },
      event: { name: 'pull_request', payload: { number: pr.number, pull_request: { number: pr.number, head: { sha: pr.pull?.sha } } } },
    });
    expect(r.code).toBe(0);
    expect(r.outputs.annotation).toContain(`**Commit**: ${pr.pull?.sha}`);
  });
});

describe('3. who really wrote it', () => {
  test("a trusted bot's BUILDER edited by someone untrusted does not count; the summary names the editor; a trusted editor keeps it", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const built = gh.comment(repo, issue.number, 'review-bot[bot]', builder('fix/x'));
    built.editor = 'drive-by';
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const r = await check(repo, pr.number);
    expect(r.outputs.missing).toBe('BUILDER');
    expect(ignoredOf(r, 'edited')[0].reason).toContain('last edited by drive-by, who is not in trusted-authors');
    expect(r.summary).toContain('drive-by');
    built.editor = 'maintainer';
    expect((await check(repo, pr.number)).outputs.conforming).toBe('true');
  });

  test('a hidden (minimized) comment never counts, and the reason is reported', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo);
    const review = gh.comment(repo, pr.number, 'maintainer', reviewer());
    review.hidden = 'OUTDATED';
    const r = await check(repo, pr.number);
    expect(r.outputs.missing).toBe('REVIEWER');
    expect(ignoredOf(r, 'hidden')[0].reason).toContain('hidden on GitHub (outdated)');
  });

  test("on another repository's issue, associations trust nobody: mallory's OWNER annotations do not count, a listed login does", async () => {
    const repo = setupRepo();
    const foreign = 'mallory/tools';
    gh.repo(foreign, { mallory: 'OWNER' });
    const theirs = gh.issue(foreign);
    gh.comment(foreign, theirs.number, 'mallory', investigator());
    gh.comment(foreign, theirs.number, 'mallory', builder('fix/m'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: 'Closes mallory/tools#1', head: 'fix/m' } });
    gh.link(repo, pr.number, `${foreign}#${theirs.number}`);
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const r = await check(repo, pr.number);
    expect(r.outputs.missing).toBe('INVESTIGATOR,BUILDER');
    expect(ignoredOf(r, 'untrusted').map((i) => i.reason)).toContain(
      'author mallory (OWNER) is not in trusted-authors (on mallory/tools an association counts for nobody here)',
    );
    const listed = await check(repo, pr.number, { 'trusted-authors': 'OWNER, MEMBER, mallory' });
    expect(listed.outputs.conforming).toBe('true');
  });

  test("another repository's issue with the PR's number is not the PR: its BUILDER must name the PR's branch", async () => {
    const repo = setupRepo();
    const foreign = 'octo/neighbour';
    gh.repo(foreign, { maintainer: 'MEMBER' });
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: null, head: 'fix/real' } });
    const same = gh.issue(foreign, { number: pr.number });
    gh.comment(foreign, same.number, 'maintainer', investigator());
    gh.comment(foreign, same.number, 'maintainer', builder('other/branch'));
    gh.link(repo, pr.number, `${foreign}#${same.number}`);
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const r = await check(repo, pr.number, { 'trusted-authors': 'maintainer' });
    expect(r.outputs.missing).toBe('BUILDER');
    expect(ignoredOf(r, 'foreign-build')[0].reason).toContain('is for `other/branch`');
  });

  test("a fork branch named like the pipeline's does not borrow the issue's BUILDER", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder('fix/x'));
    const fork = gh.issue(repo, { user: 'drive-by', pull: { body: null, head: 'fix/x', headRepository: 'drive-by/fork' } });
    gh.link(repo, fork.number, issue.number);
    gh.comment(repo, fork.number, 'maintainer', reviewer());
    const r = await check(repo, fork.number);
    expect(r.outputs.missing).toBe('BUILDER');
    expect(ignoredOf(r, 'foreign-build')[0].reason).toContain('is in `drive-by/fork`');
  });

  test('GraphQL data with one error: the links that came are used, the error is a notice', async () => {
    const repo = setupRepo();
    const { issue, pr } = pipeline(repo);
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    gh.repo('secret/vault');
    gh.unreadableRepos.add('secret/vault');
    gh.link(repo, pr.number, issue.number);
    gh.link(repo, pr.number, 'secret/vault#1');
    const r = await check(repo, pr.number);
    expect(r.outputs.conforming).toBe('true');
    expect(report(r).map((i) => i.number)).toEqual([issue.number]);
    expect(r.stdout).toMatch(/::notice::GitHub could not read every issue PR #\d+ closes: Resource not accessible: secret\/vault/);
    expect(r.stdout).not.toContain('were read instead');
  });
});

describe('4. hardening from the bundle', () => {
  test('text read from GitHub never becomes a runner command, in notices or log lines', async () => {
    const repo = setupRepo();
    const r = await runBundle('forge-check', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions' },
      event: {
        name: 'issues',
        payload: {
          action: 'transferred',
          issue: { number: 5 },
          changes: { new_issue: { html_url: 'https://x.example/##[error]forged\n::error::again' } },
        },
      },
      env: { ...RUN, GITHUB_REPOSITORY: repo },
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    // Every line is a command @actions/core wrote (the runner parses it as that command, whole), or a plain line with
    // no command in it: the text's line break is escaped, so it starts no line, and no `::error::` comes of it.
    for (const l of lines) expect(l.startsWith('::add-mask::') || l.startsWith('::notice::') || !/##\[|^\s*::/.test(l)).toBe(true);
    expect(lines.filter((l) => l.startsWith('::error::'))).toEqual([]);
    expect(lines.find((l) => l.startsWith('::notice::'))).toContain(
      'was transferred to https://x.example/##[error]forged%0A::error::again',
    );
  });
});
