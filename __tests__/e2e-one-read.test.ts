/**
 * One read per evaluation (issue 28): the gate reads GitHub once, decides
 * over what it read, and writes only what changed. Request and point counts
 * from the forge-check bundle against the loopback GitHub, whose GraphQL
 * answers are executed against GitHub's published SDL and priced by GitHub's
 * formula (rateLimit { cost }).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeGitHub, RequestRecord } from './support/github-server.js';
import { ROOT, runBundle } from './support/run-action.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

/** What the runs below measured, for the README's figures (checked in the last test). */
const measured: Record<string, { requests: number; points: number }> = {};

let repoCount = 0;
function setupRepo(): string {
  const full = `octo/oneread${++repoCount}`;
  gh.repo(full, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  return full;
}

type Event = { name: string; payload: unknown };
const RUN = { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '77', FORGE_LINK_RETRY_MS: '0,0,0', FORGE_QUEUE_RETRY_MS: '0,0' };

const check = (repo: string, event: Event, inputs: Record<string, string> = {}) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', required: 'INVESTIGATOR, BUILDER, REVIEWER', status: 'true', ...inputs },
    event,
    env: { ...RUN, GITHUB_REPOSITORY: repo },
  });

const pullEvent = (number: number) => ({ name: 'pull_request_target', payload: { number, pull_request: { number } } });

/** An issue with INVESTIGATOR and BUILDER, 50 more comments, and a PR by a member closing it, with `reviewed` a REVIEWER. */
function pipeline(repo: string, head: string, reviewed = true) {
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  for (let i = 0; i < 50; i++) gh.comment(repo, issue.number, 'drive-by', `thoughts ${i}`);
  gh.comment(repo, issue.number, 'maintainer', builder(head));
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head } });
  // The REVIEWER as forge-emit writes it: naming the commit it reviewed, so no record of when the head arrived is asked.
  if (reviewed)
    gh.comment(
      repo,
      pr.number,
      'maintainer',
      reviewer().replace('**Verdict**: APPROVED', `**Verdict**: APPROVED\n**Commit**: ${pr.pull?.sha}`),
    );
  return { issue, pr, sha: pr.pull?.sha ?? '' };
}

/** A request as something that could be asked twice: method, path, query string and body. */
const identity = (q: RequestRecord) => `${q.method} ${q.path}${q.query} ${JSON.stringify(q.body ?? null)}`;

function measure(before: number, points: number) {
  const made = gh.requests.slice(before);
  return {
    made,
    requests: made.length,
    points: gh.points - points,
    reads: made.filter((q) => q.method === 'GET' || q.path === '/graphql').map(identity),
    writes: made.filter((q) => q.method !== 'GET' && q.path !== '/graphql'),
  };
}

describe("a PR's evaluations", () => {
  test('first: one read, the status (asked again before it is written) and the comment (5 requests at most, 1 point); then nothing changed: 1 request, no write', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo, 'fix/a');
    let before = gh.requests.length;
    let points = gh.points;
    const first = await check(repo, pullEvent(pr.number), { comment: 'true' });
    expect(first.code).toBe(0);
    expect(first.outputs.conforming).toBe('true');
    let m = measure(before, points);
    measured.first = m;
    expect(m.requests).toBeLessThanOrEqual(5);
    expect(m.points).toBeLessThanOrEqual(2);
    expect(gh.operations(before)).toEqual(['ForgeGate']);
    expect(m.writes.map((q) => `${q.method} ${q.path.replace(/\d+/g, 'N')}`)).toEqual([
      `POST /repos/octo/onereadN/statuses/${sha.replace(/\d+/g, 'N')}`,
      'POST /repos/octo/onereadN/issues/N/comments',
    ]);
    // Nothing is read twice in a run.
    expect(new Set(m.reads).size).toBe(m.reads.length);
    expect(first.stdout).toMatch(/read GitHub in 1 GraphQL request\(s\), 1 point\(s\)/);
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'success' }]);

    before = gh.requests.length;
    points = gh.points;
    const again = await check(repo, pullEvent(pr.number), { comment: 'true' });
    expect(again.outputs.conforming).toBe('true');
    m = measure(before, points);
    measured.unchanged = m;
    expect(m.requests).toBeLessThanOrEqual(2);
    expect(m.writes).toEqual([]);
    expect(m.points).toBe(1);
    expect(gh.statusesOn(repo, sha)).toHaveLength(1);
  });

  test('a failing PR: the same bound (the open PRs it shares its head with come with the read), and a change is written once', async () => {
    const repo = setupRepo();
    const { pr, sha } = pipeline(repo, 'fix/b', false);
    const before = gh.requests.length;
    const r = await check(repo, pullEvent(pr.number), { comment: 'true', 'fail-on-violation': 'false' });
    expect(r.outputs.conforming).toBe('false');
    const m = measure(before, gh.points);
    expect(m.requests).toBeLessThanOrEqual(5);
    expect(gh.operations(before)).toEqual(['ForgeGate']);
    expect(gh.statusesOn(repo, sha)).toMatchObject([{ state: 'failure', description: 'Missing REVIEWER' }]);
    // The review arrives: the status and the comment change, each written once.
    gh.comment(repo, pr.number, 'maintainer', reviewer());
    const after = gh.requests.length;
    const fixed = await check(repo, pullEvent(pr.number), { comment: 'true' });
    expect(fixed.outputs.conforming).toBe('true');
    const w = measure(after, gh.points).writes.map((q) => `${q.method} ${q.path.split('/').slice(-2, -1)[0]}`);
    expect(w).toEqual([`POST statuses`, 'PATCH comments']);
  });

  test('a PR whose thread has 250 comments pages only past the first 100 (one request per further 100), still 1 point each', async () => {
    const repo = setupRepo();
    const { pr } = pipeline(repo, 'fix/c');
    for (let i = 0; i < 250; i++) gh.comment(repo, pr.number, 'drive-by', `+1 (${i})`);
    const before = gh.requests.length;
    const points = gh.points;
    const r = await check(repo, pullEvent(pr.number));
    expect(r.outputs.conforming).toBe('true');
    expect(gh.operations(before)).toEqual(['ForgeGate', 'ForgeContextPage', 'ForgeContextPage']);
    expect(gh.points - points).toBe(3);
  });
});

test('an issue comment that re-gates 3 PRs: 6 requests at most (which PRs, their one read, the three commits asked again at once before the writes, three statuses)', async () => {
  const repo = setupRepo();
  const { issue, pr } = pipeline(repo, 'fix/d');
  const pulls = [
    pr,
    ...['fix/d1', 'fix/d2'].map((head) => gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head } })),
  ];
  for (const p of pulls.slice(1))
    gh.comment(
      repo,
      p.number,
      'maintainer',
      reviewer().replace('**Verdict**: APPROVED', `**Verdict**: APPROVED\n**Commit**: ${p.pull?.sha}`),
    );
  const event = { name: 'issue_comment', payload: { action: 'created', issue: { number: issue.number }, comment: { id: 1 } } };
  const before = gh.requests.length;
  const points = gh.points;
  const r = await check(repo, event, { required: 'INVESTIGATOR, REVIEWER' });
  expect(r.code).toBe(0);
  const m = measure(before, points);
  measured.threePulls = m;
  expect(m.requests).toBeLessThanOrEqual(6);
  // The second ForgeGate asks the three heads' statuses again, in one query, before any is written.
  expect(gh.operations(before)).toEqual(['IssuePulls', 'ForgeGate', 'ForgeGate']);
  expect(gh.requests.slice(before).filter((q) => q.method === 'GET' && /\/commits\/[0-9a-f]+\/status$/.test(q.path))).toEqual([]);
  expect(gh.pullsRead(before).sort()).toEqual(pulls.map((p) => p.number).sort());
  expect(m.writes).toHaveLength(3);
  expect(m.points).toBeLessThanOrEqual(4);
  // Again, nothing changed: the two reads and no write.
  const again = gh.requests.length;
  await check(repo, event, { required: 'INVESTIGATOR, REVIEWER' });
  expect(measure(again, gh.points).requests).toBe(2);
});

test('a merge group of 3 PRs: 4 requests at most (the queue, one read of the PRs and the group commit, one status)', async () => {
  const repo = setupRepo();
  const queued = ['q1', 'q2', 'q3'].map((head) => pipeline(repo, head).pr.number);
  const group = 'c7'.repeat(20);
  gh.repo(repo).mergeQueue.set(
    'main',
    queued.map((pull, i) => ({ pull, head: i === queued.length - 1 ? group : `${i + 1}`.repeat(40) })),
  );
  const event = {
    name: 'merge_group',
    payload: {
      action: 'checks_requested',
      merge_group: { head_sha: group, head_ref: `refs/heads/gh-readonly-queue/main/pr-${queued[2]}-x`, base_ref: 'refs/heads/main' },
    },
  };
  const before = gh.requests.length;
  const r = await check(repo, event);
  expect(r.code).toBe(0);
  const m = measure(before, gh.points);
  expect(m.requests).toBeLessThanOrEqual(4);
  expect(gh.operations(before)).toEqual(['MergeQueue', 'ForgeGate']);
  expect(gh.statusesOn(repo, group)).toMatchObject([{ state: 'success' }]);
  // The same group again: its commit's status came with the read, and says the same.
  const again = gh.requests.length;
  await check(repo, event);
  expect(measure(again, gh.points).writes).toEqual([]);
});

test('an issue on its own: one query with the token login, then one comment', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  const before = gh.requests.length;
  const r = await runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', required: 'INVESTIGATOR', 'issue-number': String(issue.number), comment: 'true' },
    env: { ...RUN, GITHUB_REPOSITORY: repo },
  });
  expect(r.outputs.conforming).toBe('true');
  // Which PRs close it (none), the open PRs for one GitHub has not linked yet, its one read; the comment and its check.
  expect(gh.operations(before)).toEqual(['IssuePulls', 'ForgeGateIssue']);
  expect(gh.requests.slice(before).filter((q) => q.path === '/user')).toEqual([]);
  expect(gh.requests.length - before).toBeLessThanOrEqual(5);
});

test("a comment the snapshot's partial answer leaves out is read again by REST, and one GitHub still cannot vouch for never counts", async () => {
  const repo = setupRepo();
  const { pr } = pipeline(repo, 'fix/p', false);
  const rv = gh.comment(repo, pr.number, 'maintainer', reviewer());
  gh.droppedNodes.add(`IC_${rv.id}`);
  const before = gh.requests.length;
  const r = await check(repo, pullEvent(pr.number), { 'fail-on-violation': 'false' });
  gh.droppedNodes.clear();
  expect(r.outputs.conforming).toBe('false');
  expect(r.outputs.missing).toBe('REVIEWER');
  // The PR's thread again by REST, then its annotations' facts asked for: the comment is left out again.
  expect(gh.operations(before)).toEqual(['ForgeGate', 'Evidence']);
  expect(gh.requests.slice(before).some((q) => q.path === `/repos/${repo}/issues/${pr.number}/comments`)).toBe(true);
  expect(r.stdout).toContain("GitHub's answer left out 1 of the");
  // Once GitHub answers for it, it counts.
  expect((await check(repo, pullEvent(pr.number))).outputs.conforming).toBe('true');
});

test("the README's figures are the ones measured here (no drift between what it promises and what a run costs)", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('## What a gate run costs');
  const section = readme.slice(at, readme.indexOf('\n## ', at + 5)).replace(/\s+/g, ' ');
  const figures =
    /a PR's first evaluation makes (\d+) requests for (\d+) point.*?nothing changed (\d+) request.*?re-gating 3 PRs (\d+) requests for (\d+) points/.exec(
      section,
    );
  expect(figures).not.toBeNull();
  expect(figures?.slice(1).map(Number)).toEqual([
    measured.first.requests,
    measured.first.points,
    measured.unchanged.requests,
    measured.threePulls.requests,
    measured.threePulls.points,
  ]);
});
