import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from './support/github-server.js';
import { useFakeGitHub } from './support/use-fake-github.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator, trajectory } from './support/seed.js';
import { emit } from '../src/codec/index.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

let n = 0;
function setupRepo() {
  const repo = `octo/report${++n}`;
  gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  return repo;
}

const report = (repo: string, inputs: Record<string, string>, event?: { name: string; payload: unknown }, workspace?: string) =>
  runBundle('forge-trajectory-report', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', ...inputs },
    event,
    workspace,
  });

const closed = (number: number) => ({ name: 'issues', payload: { action: 'closed', issue: { number } } });

test('found and parsed, with the INVESTIGATOR and BUILDER; 1 request on a 1,000-comment thread', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo, { title: 'Checkout raises for free-tier users', state: 'closed' });
  for (let i = 1; i <= 1000; i++) {
    const body = i === 2 ? investigator() : i === 940 ? builder('fix/null-128') : i === 990 ? trajectory(131) : `chatter ${i}`;
    gh.comment(repo, issue.number, [2, 940, 990].includes(i) ? 'maintainer' : 'drive-by', body);
  }
  const before = gh.requests.length;
  const r = await report(repo, {}, closed(issue.number));
  expect(r.code).toBe(0);
  // The issue with its first and its last 100 comments: one read holds the INVESTIGATOR, the BUILDER and the TRAJECTORY.
  expect(gh.requests.slice(before).map((q) => q.path)).toEqual(['/graphql']);
  expect(gh.operations(before)).toEqual(['ForgeThread']);
  expect(r.outputs.found).toBe('true');
  const t = JSON.parse(r.outputs.trajectory);
  expect(t).toMatchObject({
    found: true,
    prNumber: 131,
    branch: 'fix/x',
    completed: '2026-01-15T09:30:00Z',
    decisions: 'Guard at the lookup site.',
    anomalies: 'None',
    investigator: { verdict: 'CONFIRMED', severity: 'MEDIUM', taskType: 'Bug Fix', confidence: 'HIGH' },
    builder: { branch: 'fix/null-128', commits: 'a1b2c3d', filesChanged: '2' },
    missing: [],
  });
  expect(t.phases).toHaveLength(3);
  expect(r.outputs.markdown).toContain(
    `### [#${issue.number}](https://github.example/${repo}/issues/${issue.number}) Checkout raises for free-tier users`,
  );
  expect(r.outputs.markdown).toContain(`**PR**: [#131](https://github.example/${repo}/pull/131)`);
  expect(r.summary).toContain('| Review + Merge | merged | PR #131 |');
});

test('a trajectory in the middle of a long thread is read back from the end, 100 comments a request, and no further', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo, { state: 'closed' });
  for (let i = 1; i <= 1000; i++)
    gh.comment(repo, issue.number, i === 650 ? 'maintainer' : 'drive-by', i === 650 ? trajectory(7) : `c${i}`);
  const before = gh.requests.length;
  const r = await report(repo, {}, closed(issue.number));
  expect(r.outputs.found).toBe('true');
  // The ends (901–1000 and 1–100), then 801–900, 701–800 and 601–700, which holds it: 601 and before are never read.
  expect(gh.operations(before)).toEqual(['ForgeThread', 'ForgeThreadBefore', 'ForgeThreadBefore', 'ForgeThreadBefore']);
});

test("a TRAJECTORY hidden on GitHub, or last edited by someone untrusted, is not the issue's trajectory", async () => {
  const repo = setupRepo();
  for (const change of ['hidden', 'edited'] as const) {
    const issue = gh.issue(repo, { state: 'closed' });
    const c = gh.comment(repo, issue.number, 'maintainer', trajectory(9));
    if (change === 'hidden') c.hidden = 'SPAM';
    else c.editor = 'drive-by';
    const r = await report(repo, {}, closed(issue.number));
    expect(r.code).toBe(0);
    expect(r.outputs.found).toBe('false');
  }
  // The same comment edited by its own author, or by another member, still counts.
  const issue = gh.issue(repo, { state: 'closed' });
  gh.comment(repo, issue.number, 'octo-owner', 'Looks right.');
  const c = gh.comment(repo, issue.number, 'maintainer', trajectory(9));
  c.editor = 'octo-owner';
  expect((await report(repo, {}, closed(issue.number))).outputs.found).toBe('true');
});

test('absent → exit 0 with the notice; fail-if-missing fails', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo, { state: 'closed' });
  gh.comment(repo, issue.number, 'maintainer', investigator());
  const r = await report(repo, {}, closed(issue.number));
  expect(r.code).toBe(0);
  expect(r.outputs.found).toBe('false');
  expect(r.stdout).toContain('::notice::No FORGE:TRAJECTORY annotation found — skipping');
  const strict = await report(repo, { 'fail-if-missing': 'true' }, closed(issue.number));
  expect(strict.code).toBe(1);
  expect(strict.stdout).toContain('::error::No FORGE:TRAJECTORY annotation found on #');
});

test('an untrusted, forged trajectory is ignored; the newest trusted one wins', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo, { state: 'closed' });
  gh.comment(repo, issue.number, 'maintainer', trajectory(100, '2026-01-01T00:00:00Z'));
  gh.comment(repo, issue.number, 'maintainer', trajectory(101, '2026-02-01T00:00:00Z'));
  gh.comment(repo, issue.number, 'drive-by', trajectory(666, '2026-03-01T00:00:00Z'));
  const r = await report(repo, { 'issue-number': String(issue.number) });
  expect(JSON.parse(r.outputs.trajectory)).toMatchObject({ prNumber: 101, completed: '2026-02-01T00:00:00Z' });
});

test('a trajectory without its phase table or Completed time is reported, saying what is missing', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo, { state: 'closed' });
  gh.comment(repo, issue.number, 'maintainer', emit('TRAJECTORY', { fields: { Decisions: 'd', Anomalies: 'None' } }));
  const r = await report(repo, { 'issue-number': String(issue.number) });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.outputs.trajectory).missing).toEqual(['phase table', 'Completed time']);
  expect(r.stdout).toContain('::warning::The FORGE:TRAJECTORY on #');
  expect(r.outputs.markdown).toContain('The trajectory has no phase table and no Completed time');
});

test('output-file: created with folders; appending twice for the same issue does not duplicate it', async () => {
  const repo = setupRepo();
  const a = gh.issue(repo, { state: 'closed', title: 'First' });
  const b = gh.issue(repo, { state: 'closed', title: 'Second' });
  gh.comment(repo, a.number, 'maintainer', trajectory(7));
  gh.comment(repo, b.number, 'maintainer', trajectory(8));
  const ws = mkdtempSync(join(tmpdir(), 'forge-ws-'));
  mkdirSync(join(ws, 'docs'));
  writeFileSync(join(ws, 'docs', 'keep.md'), 'x');
  for (const num of [a.number, a.number, b.number, a.number]) {
    const r = await report(repo, { 'issue-number': String(num), 'output-file': 'docs/notes/RELEASE.md' }, undefined, ws);
    expect(r.code).toBe(0);
  }
  const text = readFileSync(join(ws, 'docs', 'notes', 'RELEASE.md'), 'utf8');
  expect(text.split(`forge-release-note:begin #${a.number} `)).toHaveLength(2);
  expect(text.split(`forge-release-note:begin #${b.number} `)).toHaveLength(2);
  expect(text.indexOf('First')).toBeLessThan(text.indexOf('Second'));
});

test('milestone notes: 250 closed issues grouped by task type, each linking issue and PR', async () => {
  const repo = setupRepo();
  const m = gh.milestone(repo, { title: 'v2.0' });
  const types = ['Feature', 'Bug Fix', 'Refactor', 'Maintenance', 'Investigation'];
  for (let i = 0; i < 250; i++) {
    const issue = gh.issue(repo, { state: 'closed', milestone: m.number, title: `Item ${i}` });
    if (i % 10 !== 9) {
      gh.comment(repo, issue.number, 'maintainer', investigator().replace('**Task Type**: Bug Fix', `**Task Type**: ${types[i % 5]}`));
      gh.comment(repo, issue.number, 'maintainer', trajectory(1000 + i));
    }
  }
  gh.issue(repo, { state: 'open', milestone: m.number, title: 'Still open' });
  gh.issue(repo, { state: 'closed', milestone: m.number, title: 'A PR', pull: { body: '', head: 'x' } });
  // Closed as not planned: no release note, in the file as in the draft.
  gh.issue(repo, { state: 'closed', milestone: m.number, title: 'Won’t do', state_reason: 'not_planned' });
  const r = await report(repo, { scope: 'milestone', milestone: 'v2.0' });
  expect(r.code).toBe(0);
  expect(r.outputs.issues).toBe('250');
  const md = r.outputs.markdown;
  expect(md).toContain('## Release notes — v2.0');
  for (const h of ['### Features', '### Bug fixes', '### Refactors', '### Maintenance', '### Investigations', '### Other'])
    expect(md).toContain(h);
  expect(md).not.toContain('Still open');
  expect(md).not.toContain('A PR');
  expect(md).not.toContain('Won’t do');
  expect(md).toContain(`- [#1](https://github.example/${repo}/issues/1) Item 0 — [PR #1000](https://github.example/${repo}/pull/1000)`);
  expect(md).toContain(`- [#10](https://github.example/${repo}/issues/10) Item 9 (no trajectory)`);
  const issueList = gh.requests.filter((q) => q.path === `/repos/${repo}/issues`);
  expect(issueList).toHaveLength(3);
});

test("milestone scope defaults to the closed issue's milestone", async () => {
  const repo = setupRepo();
  const m = gh.milestone(repo, { title: 'v3' });
  const a = gh.issue(repo, { state: 'closed', milestone: m.number, title: 'Alpha' });
  gh.comment(repo, a.number, 'maintainer', investigator().replace('**Task Type**: Bug Fix', '**Task Type**: Feature'));
  gh.comment(repo, a.number, 'maintainer', trajectory(55));
  const r = await report(repo, { scope: 'milestone' }, closed(a.number));
  expect(r.code).toBe(0);
  expect(r.outputs.issues).toBe('1');
  expect(r.outputs.markdown).toContain('## Release notes — v3');
  expect(r.outputs.markdown).toContain('### Features');
  expect(r.summary).toContain('Alpha — [PR #55]');
});

test('bad inputs fail before any request', async () => {
  const repo = setupRepo();
  const before = gh.requests.length;
  const r = await report(repo, { scope: 'release' });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error::forge-trajectory-report: input "scope" must be one of issue, milestone');
  expect(gh.requests.length).toBe(before);
});

test("an untrusted agent's TRAJECTORY is reported as such (who wrote it, what to add), never as none found", async () => {
  const repo = setupRepo();
  gh.user('my-agent[bot]', 'Bot');
  const issue = gh.issue(repo, { state: 'closed' });
  gh.comment(repo, issue.number, 'my-agent[bot]', trajectory(5));
  const r = await report(repo, {}, closed(issue.number));
  expect(r.code).toBe(0);
  expect(r.outputs.found).toBe('false');
  const line = r.stdout.split('\n').find((l) => l.startsWith('::warning::')) ?? '';
  expect(line).toContain(`No trusted FORGE:TRAJECTORY on #${issue.number}`);
  expect(line).toContain('my-agent[bot] (NONE) is not in trusted-authors');
  expect(r.stdout).not.toContain('No FORGE:TRAJECTORY annotation found');
  expect(r.summary).toContain('No trusted FORGE:TRAJECTORY');
  const strict = await report(repo, { 'fail-if-missing': 'true' }, closed(issue.number));
  expect(strict.code).toBe(1);
  // Listed, it counts.
  const trusted = await report(repo, { 'trusted-authors': 'OWNER, MEMBER, my-agent[bot]' }, closed(issue.number));
  expect(trusted.outputs.found).toBe('true');
});
