/**
 * Hardening round 5, from the bundles against the loopback GitHub: a body
 * edited by a stranger, a node GitHub's answer left out, a template's
 * commented-out closing keyword, a stranger's title in the release notes.
 */
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator, reviewer, trajectory } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

let repoCount = 0;
function setupRepo(): string {
  const full = `octo/round5-${++repoCount}`;
  gh.repo(full, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  return full;
}

const check = (
  repo: string,
  inputs: Record<string, string>,
  event?: { name: string; payload: unknown },
  env: Record<string, string> = {},
) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    event,
    inputs: { 'github-token': 'ghs_actions', 'fail-on-violation': 'false', ...inputs },
    env: { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '4242', ...env },
  });

test("an issue body last edited by someone untrusted no longer speaks for its author (GraphQL's editor, as for comments)", async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo, { user: 'maintainer', body: investigator(), bodyEditor: 'drive-by' });
  gh.comment(repo, issue.number, 'maintainer', builder());
  const r = await check(repo, { 'issue-number': String(issue.number), required: 'INVESTIGATOR, BUILDER' });
  expect(r.outputs.conforming).toBe('false');
  expect(r.outputs.missing).toBe('INVESTIGATOR');
  const report = JSON.parse(r.outputs.report);
  expect(report[0].ignored).toMatchObject([{ kind: 'edited', reason: expect.stringContaining('body was last edited by drive-by') }]);
  // The same body, edited by nobody else, counts.
  const clean = gh.issue(repo, { user: 'maintainer', body: investigator() });
  gh.comment(repo, clean.number, 'maintainer', builder());
  expect((await check(repo, { 'issue-number': String(clean.number), required: 'INVESTIGATOR, BUILDER' })).outputs.conforming).toBe('true');
});

test("a comment GitHub's partial answer leaves out is reported, never counted as clean", async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  const inv = gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  gh.droppedNodes.add(`IC_${inv.id}`);
  const r = await check(repo, { 'issue-number': String(issue.number), required: 'INVESTIGATOR, BUILDER' });
  gh.droppedNodes.clear();
  expect(r.outputs.missing).toBe('INVESTIGATOR');
  const report = JSON.parse(r.outputs.report);
  expect(report[0].ignored).toMatchObject([{ kind: 'unverified', type: 'INVESTIGATOR' }]);
  expect(r.stdout).toContain("GitHub's answer left out 1 of the 2 annotated comments and bodies asked about");
});

test("a PR template's commented-out closing keyword links nothing: no waiting for GitHub's links, no issue followed", async () => {
  const repo = setupRepo();
  const template = gh.issue(repo);
  gh.comment(repo, template.number, 'maintainer', investigator('INVALID'));
  const pr = gh.issue(repo, {
    user: 'maintainer',
    pull: {
      body: `## What\n\n<!-- e.g. Fixes #${template.number} -->\n\nGuards the lookup.\n\n\`\`\`\nfixes #${template.number}\n\`\`\``,
      head: 'fix/x',
    },
  });
  gh.comment(repo, pr.number, 'maintainer', investigator());
  gh.comment(repo, pr.number, 'maintainer', builder('fix/x'));
  gh.comment(repo, pr.number, 'maintainer', reviewer());
  // The default waits (2 + 4 + 8 s) apply: a keyword read from the comment would make this run wait and follow the issue.
  const started = gh.requests.length;
  const r = await check(
    repo,
    { required: 'INVESTIGATOR, BUILDER, REVIEWER' },
    { name: 'pull_request', payload: { pull_request: { number: pr.number } } },
  );
  expect(r.outputs.conforming).toBe('true');
  expect(r.stdout).not.toContain(`#${template.number}`);
  // GitHub's links came with the PR's one read: never asked again, never waited for.
  const linkQueries = gh.requests.slice(started).filter((x) => x.path === '/graphql' && JSON.stringify(x.body).includes('PullLinks'));
  expect(linkQueries).toHaveLength(0);
  expect(gh.operations(started).filter((op) => op === 'ForgeGate')).toHaveLength(1);
});

/** forge-check as a dispatch (or the agent's own job) runs it: the PR gate for an issue named by issue-number. */
const dispatch = (repo: string, issue: number, inputs: Record<string, string> = {}) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    event: { name: 'workflow_dispatch', payload: {} },
    inputs: { 'github-token': 'ghs_actions', 'issue-number': String(issue), scope: 'pull-requests', status: 'true', ...inputs },
    env: { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '4242', FORGE_LINK_RETRY_MS: '0,0,0' },
  });

test("a stranger's title holds no live link in the release notes", async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo, {
    user: 'drive-by',
    title: 'Fix login, see https://phish.example/login and www.phish.example',
    state: 'closed',
  });
  gh.comment(repo, issue.number, 'maintainer', trajectory());
  const r = await runBundle('forge-trajectory-report', {
    apiUrl: gh.url,
    repository: repo,
    event: { name: 'issues', payload: { action: 'closed', issue: { number: issue.number } } },
    inputs: { 'github-token': 'ghs_actions' },
  });
  expect(r.code).toBe(0);
  const notes = r.outputs['release-notes'] ?? r.outputs.notes ?? r.summary;
  expect(notes).toContain('phish.example');
  expect(notes).not.toMatch(/https:\/\/phish|\bwww\.phish/);
});

test('status contexts are compared as GitHub compares them, without regard to case', async () => {
  const repo = setupRepo();
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: 'Guards the lookup.', head: 'fix/x' } });
  gh.comment(repo, pr.number, 'maintainer', investigator());
  gh.comment(repo, pr.number, 'maintainer', builder('fix/x'));
  const event = { name: 'pull_request', payload: { pull_request: { number: pr.number } } };
  const first = await check(repo, { required: 'INVESTIGATOR, BUILDER', status: 'true' }, event);
  expect(first.outputs.conforming).toBe('true');
  const statuses = gh.repo(repo).statuses;
  expect(statuses).toHaveLength(1);
  statuses[0].context = 'forge CONFORMANCE';
  await check(repo, { required: 'INVESTIGATOR, BUILDER', status: 'true' }, event);
  expect(statuses).toHaveLength(1);
});

describe('the shared-commit rule at a bounded cost a stranger cannot raise', () => {
  const sha = 'e5'.repeat(20);
  const event = (n: number) => ({ name: 'pull_request', payload: { pull_request: { number: n } } });

  test("the same stranger's PRs on one head are not asked; a member's failing PR asks at most 5 others and names the rest", async () => {
    const repo = setupRepo();
    const spam = Array.from({ length: 8 }, (_, i) =>
      gh.issue(repo, { user: 'drive-by', pull: { body: 'x', head: `spam-${i}`, sha, headRepository: 'drive-by/fork' } }),
    );
    let before = gh.requests.length;
    const stranger = await check(repo, { required: 'INVESTIGATOR, BUILDER', status: 'true' }, event(spam[0].number));
    expect(stranger.outputs.conforming).toBe('false');
    expect(stranger.stdout).toContain('by the same untrusted author as PR');
    // Its own read (the open PRs' heads come with it), and the status: no sibling was gathered.
    expect(gh.pullsRead(before)).toEqual([spam[0].number]);

    const mine = gh.issue(repo, { user: 'maintainer', pull: { body: 'Guards it.', head: 'fix/x', sha } });
    before = gh.requests.length;
    const member = await check(repo, { required: 'INVESTIGATOR, BUILDER', status: 'true' }, event(mine.number));
    expect(member.outputs.conforming).toBe('false');
    expect(gh.pullsRead(before)).toHaveLength(1 + 5);
    // Its own read, the first sibling, then the other four in one query.
    expect(gh.operations(before).filter((op) => op === 'ForgeGate')).toHaveLength(3);
    expect(member.stdout).toMatch(/is the head of 3 more open PR\(s\) than the 5 the gate reads per commit/);
  });

  test('the first sibling that conforms decides: no other is read', async () => {
    const repo = setupRepo();
    const shared = 'f6'.repeat(20);
    const failing = gh.issue(repo, { user: 'maintainer', pull: { body: 'x', head: 'a', sha: shared } });
    const passing = gh.issue(repo, { user: 'maintainer', pull: { body: 'y', head: 'b', sha: shared } });
    gh.comment(repo, passing.number, 'maintainer', investigator());
    gh.comment(repo, passing.number, 'maintainer', builder('b'));
    for (let i = 0; i < 4; i++) gh.issue(repo, { user: 'maintainer', pull: { body: 'z', head: `c${i}`, sha: shared } });
    const before = gh.requests.length;
    const r = await check(repo, { required: 'INVESTIGATOR, BUILDER', status: 'true' }, event(failing.number));
    // Its own read, then the first sibling listed (the passing one): the other four are never read.
    expect(gh.pullsRead(before)).toEqual([failing.number, passing.number]);
    expect(gh.statusesOn(repo, shared).at(-1)).toMatchObject({ state: 'success' });
    expect(r.stdout).toContain(`#${passing.number} (conforming)`);
  });
});

test("a deleted issue re-gates the trusted PRs whose body closed it; a stranger's is left alone", async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'fix/x' } });
  gh.comment(repo, pr.number, 'maintainer', builder('fix/x'));
  const stranger = gh.issue(repo, {
    user: 'drive-by',
    pull: { body: `Fixes #${issue.number}`, head: 'evil', headRepository: 'drive-by/fork' },
  });
  gh.repo(repo).issues.delete(issue.number);
  const r = await check(
    repo,
    { required: 'INVESTIGATOR, BUILDER', status: 'true' },
    { name: 'issues', payload: { action: 'deleted', issue: { number: issue.number } } },
    { FORGE_LINK_RETRY_MS: '0' },
  );
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`#${issue.number} was deleted: re-gating #${pr.number}, whose body closed it`);
  // Judged without the issue: its INVESTIGATOR went with it.
  expect(gh.statusesOn(repo, pr.pull?.sha ?? '')).toMatchObject([{ state: 'failure' }]);
  expect(gh.statusesOn(repo, stranger.pull?.sha ?? '')).toEqual([]);
  expect(r.stdout).toContain('this repository has no such issue');
});

test("the agent's own job names the issue right after opening its PR: GitHub's link lag is waited out, as on the PR path", async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder('fix/x'));
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'fix/x' } });
  gh.comment(repo, pr.number, 'maintainer', reviewer());
  gh.repo(repo).linkDelay.set(pr.number, 1);
  const r = await dispatch(repo, issue.number, { required: 'INVESTIGATOR, BUILDER, REVIEWER' });
  expect(r.code).toBe(0);
  expect(gh.statusesOn(repo, pr.pull?.sha ?? '')).toMatchObject([{ state: 'success' }]);
  // An issue no open PR's body closes is not waited for: one query, one listing.
  const idle = gh.issue(repo);
  const before = gh.requests.length;
  await dispatch(repo, idle.number);
  expect(gh.requests.slice(before).map((x) => `${x.method} ${x.path}`)).toEqual(['POST /graphql', `GET /repos/${repo}/pulls`]);
  // A stranger's PR whose body names the issue is not waited for either.
  gh.issue(repo, { user: 'drive-by', pull: { body: `Fixes #${idle.number}`, head: 'evil', headRepository: 'drive-by/fork' } });
  gh.repo(repo).linkDelay.set(gh.repo(repo).nextNumber - 1, 100);
  const strangerRun = await dispatch(repo, idle.number);
  expect(strangerRun.stdout).toContain('the PR gate has nothing to gate');
});

test('a PR GitHub never links in time is gated through its trusted body, as on the PR path', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder('fix/y'));
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/y' } });
  gh.comment(repo, pr.number, 'maintainer', reviewer());
  gh.repo(repo).linkDelay.set(pr.number, 100);
  const r = await dispatch(repo, issue.number, { required: 'INVESTIGATOR, BUILDER, REVIEWER' });
  expect(r.stdout).toContain(`GitHub listed no PR that closes #${issue.number} after 0 s, though the body of #${pr.number} closes it`);
  expect(gh.statusesOn(repo, pr.pull?.sha ?? '')).toMatchObject([{ state: 'success' }]);
});
