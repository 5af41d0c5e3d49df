/**
 * An incremental run reports what a full audit with the same inputs would
 * report, costs at most what that audit costs, and says so when it cannot use
 * its checkpoint. Each case: a full run that writes the checkpoint, a change,
 * the incremental run, then a full run on the same final state — the two
 * reports must be equal. From the bundle, against the loopback GitHub.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

let n = 0;
function workspace(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'forge-incr-')), 'workspace');
  mkdirSync(dir, { recursive: true });
  return dir;
}

const run = (repo: string, inputs: Record<string, string>, ws: string) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    workspace: ws,
    inputs: { 'github-token': 'ghs_actions', scope: 'repository', 'fail-on-violation': 'false', ...inputs },
  });

/** A repository of `count` issues, every third one failing (no BUILDER). */
function seed(count: number, labels: string[] = []): { repo: string; numbers: number[] } {
  const repo = `octo/incr${++n}`;
  gh.repo(repo, { maintainer: 'MEMBER', stranger: 'NONE' });
  const numbers: number[] = [];
  for (let i = 0; i < count; i++) {
    const issue = gh.issue(repo, { labels });
    numbers.push(issue.number);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    if (i % 3 !== 0) gh.comment(repo, issue.number, 'maintainer', builder());
  }
  return { repo, numbers };
}

type Report = { incremental: boolean; counts: Record<string, number>; issues: Array<{ number: number; status: string }> };

/** The incremental run after `change`, beside a full run on the same state: equal reports, and what each cost. */
async function incrementalBesideFull(repo: string, inputs: Record<string, string>, change: () => void, ws = workspace()) {
  await run(repo, { ...inputs, since: 'last-run' }, ws);
  change();
  const before = gh.requests.length;
  const incremental = await run(repo, { ...inputs, since: 'last-run' }, ws);
  const incrementalCost = gh.requests.length - before;
  const mid = gh.requests.length;
  const full = await run(repo, inputs, workspace());
  const fullCost = gh.requests.length - mid;
  const a = JSON.parse(incremental.outputs.report) as Report;
  const b = JSON.parse(full.outputs.report) as Report;
  expect(a.incremental).toBe(true);
  expect(a.issues).toEqual(b.issues);
  expect(a.counts).toEqual(b.counts);
  expect(incremental.outputs.conforming).toBe(full.outputs.conforming);
  return { incremental, full, incrementalCost, fullCost, ws };
}

test("1. membership is GitHub's: a stranger's comment on a failing issue keeps it in the report (labels in another letter case)", async () => {
  const { repo, numbers } = seed(9, ['pipeline']);
  const { incremental } = await incrementalBesideFull(repo, { labels: 'Pipeline' }, () => gh.comment(repo, numbers[0], 'stranger', '+1'));
  expect(incremental.outputs).toMatchObject({ conforming: 'false', checked: '9', failing: '3' });
});

test('2. gone issues leave: a deleted issue and one that left the filter are dropped, with a note', async () => {
  const { repo, numbers } = seed(9, ['pipeline']);
  const state = gh.repos.get(repo);
  if (!state) throw new Error('no repo');
  const { incremental } = await incrementalBesideFull(repo, { labels: 'pipeline' }, () => {
    state.issues.delete(numbers[0]);
    const moved = state.issues.get(numbers[3]);
    if (moved) moved.labels = [];
  });
  expect(incremental.outputs.checked).toBe('7');
  expect(incremental.stdout).toContain(
    `2 issue(s) of the last run no longer match (closed, relabelled, deleted, transferred or converted): left the report — #${numbers[0]}, #${numbers[3]}`,
  );
});

test('3. every issue touched: the incremental run costs no more than 1.5 times the full audit', async () => {
  const { repo, numbers } = seed(150);
  const { incrementalCost, fullCost } = await incrementalBesideFull(repo, {}, () => {
    for (const x of numbers) gh.comment(repo, x, 'stranger', '+1');
  });
  expect(incrementalCost).toBeLessThanOrEqual(1.5 * fullCost);
});

test('4 and 5. an edit in the last second, an edited comment and a deleted one are all read again', async () => {
  const { repo, numbers } = seed(6);
  const state = gh.repos.get(repo);
  if (!state) throw new Error('no repo');
  const ws = workspace();
  await incrementalBesideFull(
    repo,
    {},
    () => {
      // forge-emit's in-place replace: the comment changes, the issue's updated_at does not.
      const failing = state.comments.find((c) => c.issue === numbers[0]);
      if (!failing) throw new Error('no comment');
      failing.body = builder();
      failing.updated_at = gh.now();
      // A BUILDER deleted without the issue's stamp moving.
      const built = state.comments.filter((c) => c.issue === numbers[1]);
      state.comments.splice(state.comments.indexOf(built[1]), 1);
    },
    ws,
  );
  // The boundary second: an issue updated in the very second the checkpoint names.
  const checkpoint = JSON.parse(readFileSync(join(ws, '.forge', 'check-checkpoint.json'), 'utf8')) as { lastRun: string };
  const late = state.issues.get(numbers[2]);
  if (!late) throw new Error('no issue');
  late.labels = ['workflow:invalid'];
  late.updated_at = checkpoint.lastRun;
  const r = await run(repo, { since: 'last-run' }, ws);
  expect((JSON.parse(r.outputs.report) as Report).issues.find((e) => e.number === numbers[2])?.status).toBe('exempt');
});

test('6. a checkpoint from the future, from other rules, or older than full-every is not believed, and the run says why', async () => {
  const { repo, numbers } = seed(6);
  const ws = workspace();
  const path = join(ws, '.forge', 'check-checkpoint.json');
  await run(repo, { since: 'last-run' }, ws);
  const saved = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...saved, lastRun: '2099-01-01T00:00:00Z' }));
  gh.comment(repo, numbers[0], 'maintainer', builder());
  const future = await run(repo, { since: 'last-run' }, ws);
  expect(future.stdout).toContain("the checkpoint's last run (2099-01-01T00:00:00Z) is later than GitHub's clock");
  expect(future.outputs.rechecked).toBe('6');
  expect(Date.parse(JSON.parse(readFileSync(path, 'utf8')).lastRun)).toBeLessThanOrEqual(Date.parse(gh.now()));

  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), rules: 'forge-check 0.0.1' }));
  const rules = await run(repo, { since: 'last-run' }, ws);
  expect(rules.stdout).toMatch(
    /the checkpoint was made by forge-check 0\.0\.1, and this is forge-check \d+\.\d+\.\d+ \(its rules may differ\), so every issue was read/,
  );
  expect(rules.outputs.rechecked).toBe('6');

  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), fullAt: '2020-01-01T00:00:00Z' }));
  const due = await run(repo, { since: 'last-run', 'full-every': '7d' }, ws);
  expect(due.stdout).toContain('the last full read (2020-01-01T00:00:00Z) is older than full-every, so every issue was read');
  expect(due.outputs.rechecked).toBe('6');
  expect((await run(repo, { 'full-every': '7d' }, ws)).stdout).toContain('full-every: only with scope: repository and since: last-run');
});

test("6b. a last full read after its last run, or in GitHub's future, forces a full read (full-every could never come due)", async () => {
  const { repo } = seed(3);
  const ws = workspace();
  const path = join(ws, '.forge', 'check-checkpoint.json');
  await run(repo, { since: 'last-run' }, ws);
  const saved = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify({ ...saved, fullAt: '2099-01-01T00:00:00Z' }));
  const future = await run(repo, { since: 'last-run', 'full-every': '7d' }, ws);
  expect(future.stdout).toContain("the checkpoint's last full read (2099-01-01T00:00:00Z) is after its last run");
  expect(future.outputs.rechecked).toBe('3');
  // The next checkpoint starts its full-read clock again from this run.
  expect(Date.parse(JSON.parse(readFileSync(path, 'utf8')).fullAt)).toBeLessThanOrEqual(Date.parse(gh.now()));
});

test('20. report-titles: false leaves every title out of the report and the summary', async () => {
  const { repo, numbers } = seed(3);
  const issue = gh.repos.get(repo)?.issues.get(numbers[0]);
  if (issue) issue.title = 'Acquisition of Initech (confidential)';
  const shown = await run(repo, {}, workspace());
  expect(shown.summary).toContain('Acquisition of Initech');
  const hidden = await run(repo, { 'report-titles': 'false' }, workspace());
  expect(hidden.summary).not.toContain('Initech');
  expect(hidden.outputs.report).not.toContain('Initech');
  expect((JSON.parse(hidden.outputs.report) as { issues: Array<{ title: string }> }).issues.every((e) => e.title === '')).toBe(true);
});
