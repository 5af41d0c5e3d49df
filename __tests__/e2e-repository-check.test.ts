/**
 * forge-check with `scope: repository`, run from the bundle against the
 * loopback GitHub: the whole repository at ceil(issues/100) + ceil(comments/100)
 * requests, filters, incremental runs from a checkpoint, the report file, and
 * `forge report merge` over several runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from './support/github-server.js';
import { ROOT, runBundle } from './support/run-action.js';
import { builder, investigator } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

const check = (repo: string, inputs: Record<string, string>, workspace?: string) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    workspace,
    inputs: { 'github-token': 'ghs_actions', scope: 'repository', ...inputs },
  });

function freshWorkspace(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'forge-repo-')), 'workspace');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Requests made during `run`, and what they were — less the one read of the
 * pipeline file every audit makes first (asserted here: exactly one).
 */
async function counted<T>(run: () => Promise<T>): Promise<{ result: T; requests: Array<{ method: string; path: string; query: string }> }> {
  const before = gh.requests.length;
  const result = await run();
  const made = gh.requests.slice(before);
  const pipeline = made.filter((q) => decodeURIComponent(q.path).endsWith('/contents/.github/forge.yml'));
  expect(pipeline).toHaveLength(1);
  return { result, requests: made.filter((q) => !pipeline.includes(q)) };
}

interface Entry {
  number: number;
  status: string;
  types: Record<string, string>;
  problems: string[];
}

/**
 * `issues` issues with `perIssue` comments each: every third issue lacks its
 * BUILDER (failing), one is labelled workflow:invalid (exempt), plus two PRs.
 */
function seedRepository(name: string, issues: number, perIssue: number) {
  const repo = `octo/${name}`;
  gh.repo(repo, { maintainer: 'MEMBER', stranger: 'NONE' });
  const numbers: number[] = [];
  for (let i = 0; i < issues; i++) {
    const issue = gh.issue(repo, { labels: i === 1 ? ['workflow:invalid'] : ['area:core'], state: i % 2 === 0 ? 'open' : 'closed' });
    numbers.push(issue.number);
    for (let c = 0; c < perIssue; c++) {
      const body = c === 0 ? investigator() : c === 1 && i % 3 !== 0 ? builder() : `comment ${c}`;
      gh.comment(repo, issue.number, 'maintainer', body);
    }
  }
  for (let p = 0; p < 2; p++) {
    const pr = gh.issue(repo, { pull: { body: `Fixes #${numbers[0]}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', 'a PR comment');
  }
  return { repo, numbers };
}

test('a whole repository: every issue checked, failing first, at ceil(issues/100) + ceil(comments/100) requests', async () => {
  const { repo, numbers } = seedRepository('whole', 250, 4);
  const { result: r, requests } = await counted(() => check(repo, {}));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(1);
  // 252 issues and PRs listed (3 pages) + 1,002 comments (11 pages).
  expect(requests.map((q) => q.path).filter((p) => p.endsWith('/issues'))).toHaveLength(3);
  expect(requests.map((q) => q.path).filter((p) => p.endsWith('/issues/comments'))).toHaveLength(11);
  expect(requests).toHaveLength(14);
  expect(requests.every((q) => q.method === 'GET')).toBe(true);
  const failingNumbers = numbers.filter((_, i) => i % 3 === 0 && i !== 1);
  expect(r.outputs).toMatchObject({
    conforming: 'false',
    checked: '250',
    rechecked: '250',
    failing: String(failingNumbers.length),
    missing: 'BUILDER',
    state: 'none',
    terminal: 'false',
  });
  // The report output carries 64 KiB: its issues list keeps the failing ones first and says how many it left out;
  // the whole report is in the file the warning names.
  const cut = JSON.parse(r.outputs.report) as { issues: Entry[]; omitted: { field: string; count: number } };
  expect(Buffer.byteLength(r.outputs.report)).toBeLessThanOrEqual(65_536);
  expect(cut.omitted.field).toBe('issues');
  expect(cut.issues.length + cut.omitted.count).toBe(250);
  expect(cut.issues.slice(0, failingNumbers.length).map((e) => e.number)).toEqual(failingNumbers);
  const file = /output report is cut to 64 KiB .*; the whole is in (\S+)/.exec(r.stdout)?.[1] ?? '';
  const { readFileSync } = await import('node:fs');
  const report = JSON.parse(readFileSync(file, 'utf8')) as { repository: string; counts: Record<string, number>; issues: Entry[] };
  expect(report.repository).toBe(repo);
  expect(report.counts).toEqual({ failing: failingNumbers.length, conforming: 250 - failingNumbers.length - 1, exempt: 1 });
  // Failing issues first, in number order; PRs are not in a repository audit.
  expect(report.issues.slice(0, failingNumbers.length).map((e) => e.number)).toEqual(failingNumbers);
  expect(report.issues.find((e) => e.number === numbers[1])?.status).toBe('exempt');
  expect(report.issues.find((e) => e.number === numbers[0])).toMatchObject({
    status: 'failing',
    types: { INVESTIGATOR: 'ok', BUILDER: 'missing' },
    problems: [`issue #${numbers[0]}: BUILDER is missing`],
  });
  expect(report.issues).toHaveLength(250);
  // The summary: counts by status, then the failing issues.
  expect(r.summary).toContain(`## FORGE conformance of ${repo}: ❌ ${failingNumbers.length} failing`);
  expect(r.summary).toContain(`| ❌ failing | ${failingNumbers.length} |`);
  expect(r.summary.indexOf('### Failing issues')).toBeLessThan(r.summary.indexOf('conforming or exempt issue(s)'));
  // Progress lines carry the request and retry counts.
  expect(r.stdout).toMatch(/^audited 100\/250 issues, 15 requests, 0 retries$/m);
  expect(r.stdout).toMatch(/^audited 250\/250 issues, 15 requests, 0 retries$/m);
  const failure = r.stdout.split('\n').find((l) => l.startsWith('::error::'));
  expect(failure).toContain(`${failingNumbers.length} of 250 issues do not conform: #${numbers[0]}`);
});

test('filters: state, labels and a milestone by title are applied by GitHub, and only those threads are read', async () => {
  const repo = 'octo/filtered';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const m = gh.milestone(repo, { title: 'v2.0' });
  const inside = gh.issue(repo, { labels: ['area:core', 'pipeline'], milestone: m.number });
  gh.comment(repo, inside.number, 'maintainer', investigator());
  gh.comment(repo, inside.number, 'maintainer', builder());
  const wrongLabel = gh.issue(repo, { labels: ['area:core'], milestone: m.number });
  gh.comment(repo, wrongLabel.number, 'maintainer', 'x');
  const closed = gh.issue(repo, { labels: ['area:core', 'pipeline'], milestone: m.number, state: 'closed' });
  gh.comment(repo, closed.number, 'maintainer', 'x');
  gh.issue(repo, { labels: ['area:core', 'pipeline'] });
  const { result: r, requests } = await counted(() =>
    check(repo, { state: 'open', labels: 'area:core, pipeline', milestone: 'v2.0', required: 'minimal' }),
  );
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ conforming: 'true', checked: '1', rechecked: '1', failing: '0' });
  expect(JSON.parse(r.outputs.report).issues.map((e: Entry) => e.number)).toEqual([inside.number]);
  const listing = requests.find((q) => q.path.endsWith('/issues'));
  expect(new URLSearchParams(listing?.query).get('labels')).toBe('area:core,pipeline');
  expect(new URLSearchParams(listing?.query).get('milestone')).toBe(String(m.number));
  // milestones lookup (1) + issue listing (1) + the one matching thread (1).
  expect(requests.map((q) => q.path)).toEqual([
    `/repos/${repo}/milestones`,
    `/repos/${repo}/issues`,
    `/repos/${repo}/issues/${inside.number}/comments`,
  ]);
});

test('since: last-run reads only what changed and still reports the whole repository', async () => {
  const { repo, numbers } = seedRepository('nightly', 120, 3);
  const workspace = freshWorkspace();
  const first = await check(repo, { since: 'last-run', 'fail-on-violation': 'false' }, workspace);
  expect(first.code).toBe(0);
  expect(first.stdout).toContain('since: last-run — no checkpoint yet, so every issue was read');
  // A first run is information, not a problem: a notice, never a warning.
  expect(first.stdout).toContain('::notice::since: last-run — no checkpoint yet');
  expect(first.stdout).not.toContain('::warning::since: last-run — no checkpoint yet');
  expect(first.outputs).toMatchObject({ checked: '120', rechecked: '120' });
  const checkpoint = join(workspace, '.forge', 'check-checkpoint.json');
  expect(existsSync(checkpoint)).toBe(true);
  const failingBefore = Number(first.outputs.failing);

  // Ten changed issues: three failing ones get their BUILDER, three others a plain comment,
  // one is closed, three new ones arrive (one with a comment).
  const fixed = [numbers[0], numbers[3], numbers[6]];
  for (const n of fixed) gh.comment(repo, n, 'maintainer', builder());
  for (const n of [numbers[10], numbers[11], numbers[12]]) gh.comment(repo, n, 'maintainer', 'still fine');
  const closing = gh.repos.get(repo)?.issues.get(numbers[20]);
  if (!closing) throw new Error('no issue');
  closing.state = 'closed';
  gh.touch(gh.repos.get(repo) as NonNullable<ReturnType<typeof gh.repos.get>>, closing.number);
  const fresh = [gh.issue(repo), gh.issue(repo), gh.issue(repo)];
  gh.comment(repo, fresh[0].number, 'maintainer', investigator());

  const { result: second, requests } = await counted(() => check(repo, { since: 'last-run', 'fail-on-violation': 'false' }, workspace));
  expect(second.stderr).toBe('');
  // GitHub's own filtered listing decides which issues are in the report, on every run (123 issues: 2 pages)…
  const listings = requests.filter((q) => q.path.endsWith('/issues'));
  expect(listings).toHaveLength(2);
  expect(listings.every((q) => new URLSearchParams(q.query).get('since') === null)).toBe(true);
  // 11 threads to read again (7 changed with comments, 3 new — one with a comment — and the issue whose stamp is the
  // last run's own second): one page each would be 9 requests, the repository-wide comment listing is 4 pages (373
  // comments). The cheaper plan reads every thread, so the listing of changed comments is not needed either.
  expect(requests.filter((q) => q.path.endsWith('/issues/comments'))).toHaveLength(4);
  expect(requests.some((q) => new URLSearchParams(q.query).has('since'))).toBe(false);
  expect(requests).toHaveLength(2 + 4);
  expect(second.stdout).toContain('read through the repository-wide comment listing (4 page(s)), cheaper than one listing per issue');
  expect(second.stdout).not.toMatch(/::warning::.*repository-wide comment listing/);
  expect(second.outputs).toMatchObject({ checked: '123', rechecked: '123' });
  const report = JSON.parse(second.outputs.report) as { incremental: boolean; issues: Entry[] };
  expect(report.incremental).toBe(true);
  for (const n of fixed) expect(report.issues.find((e) => e.number === n)?.status).toBe('conforming');
  expect(report.issues.find((e) => e.number === fresh[1].number)?.types).toEqual({ INVESTIGATOR: 'missing', BUILDER: 'missing' });
  // 3 fixed, 3 new ones fail.
  expect(Number(second.outputs.failing)).toBe(failingBefore - 3 + 3);
  expect(second.summary).toContain('123 read this run (changed since the last run)');

  // Nothing changed: the listing (2), the changed comments (1), and the issue at the boundary second (1 page).
  const { result: third, requests: quiet } = await counted(() =>
    check(repo, { since: 'last-run', 'fail-on-violation': 'false' }, workspace),
  );
  expect(quiet).toHaveLength(2 + 1 + 1);
  expect(third.outputs).toMatchObject({ checked: '123', rechecked: '1', failing: second.outputs.failing });
});

test('an incremental run drops an issue that left the filter, and a checkpoint made with other settings means a full audit', async () => {
  const repo = 'octo/moving';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const a = gh.issue(repo, { labels: ['pipeline'] });
  const b = gh.issue(repo, { labels: ['pipeline'] });
  const workspace = freshWorkspace();
  const first = await check(repo, { since: 'last-run', labels: 'pipeline', 'fail-on-violation': 'false' }, workspace);
  expect(first.outputs.checked).toBe('2');
  // b loses its label: GitHub moves its updated_at, the run sees it and drops it.
  const r = gh.repos.get(repo);
  if (!r) throw new Error('no repo');
  const issueB = r.issues.get(b.number);
  if (!issueB) throw new Error('no issue');
  issueB.labels = [];
  gh.touch(r, b.number);
  const second = await check(repo, { since: 'last-run', labels: 'pipeline', 'fail-on-violation': 'false' }, workspace);
  expect(JSON.parse(second.outputs.report).issues.map((e: Entry) => e.number)).toEqual([a.number]);
  expect(second.outputs).toMatchObject({ checked: '1', rechecked: '0' });

  const other = await check(
    repo,
    { since: 'last-run', labels: 'pipeline', required: 'INVESTIGATOR', 'fail-on-violation': 'false' },
    workspace,
  );
  expect(other.stdout).toContain('the checkpoint was made with other settings (required), so every issue was read');
  expect(other.outputs).toMatchObject({ checked: '1', rechecked: '1' });

  writeFileSync(join(workspace, '.forge', 'check-checkpoint.json'), '{"version": 1, "issues": "nope"');
  const corrupt = await check(repo, { since: 'last-run', labels: 'pipeline', 'fail-on-violation': 'false' }, workspace);
  expect(corrupt.code).toBe(0);
  expect(corrupt.stdout).toMatch(/::warning::since: last-run — the checkpoint could not be read/);
  expect(JSON.parse(readFileSync(join(workspace, '.forge', 'check-checkpoint.json'), 'utf8')).version).toBe(2);
});

test.each([
  [{ scope: 'item', 'issue-number': '1', state: 'open' }, 'state: only with scope: repository (scope is item)'],
  [{ scope: 'item', 'issue-number': '1', since: 'last-run', labels: 'x' }, 'labels, since: only with scope: repository'],
  [{ 'issue-number': '3' }, 'issue-number does not apply to scope: repository'],
  [{ state: 'merged' }, 'input "state" must be one of all, open, closed, got "merged"'],
  [{ since: 'yesterday' }, 'input "since" must be one of last-run, got "yesterday"'],
  [{ since: 'last-run', checkpoint: '../../etc/checkpoint.json' }, 'checkpoint: "../../etc/checkpoint.json" is outside the workspace'],
  [{ 'report-file': '/tmp/elsewhere.json' }, 'report-file: "/tmp/elsewhere.json" is outside the workspace'],
  [{ comment: 'true' }, 'comment: true needs scope: item'],
])('bad input %j is refused before any request', async (inputs, message) => {
  const before = gh.requests.length;
  const r = await check('octo/whole', inputs);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain(message);
  expect(r.stderr).toBe('');
  expect(gh.requests.length).toBe(before);
});

test('report-file, then forge report merge across repositories (the org matrix)', async () => {
  const one = 'octo/merge-a';
  gh.repo(one, { maintainer: 'MEMBER' });
  const good = gh.issue(one, { title: 'All there' });
  gh.comment(one, good.number, 'maintainer', investigator());
  gh.comment(one, good.number, 'maintainer', builder());
  const two = 'octo/merge-b';
  gh.repo(two, { maintainer: 'MEMBER' });
  const bad = gh.issue(two, { title: 'Half done <script>' });
  gh.comment(two, bad.number, 'maintainer', investigator());
  const workspace = freshWorkspace();
  const a = await check(one, { 'report-file': 'reports/a.json' }, workspace);
  const b = await check(two, { 'report-file': 'reports/b.json', 'fail-on-violation': 'false' }, workspace);
  expect([a.code, b.code]).toEqual([0, 0]);
  expect(readFileSync(join(workspace, 'reports', 'b.json'), 'utf8').trim()).toBe(b.outputs.report);

  const cli = (args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), ...args], { encoding: 'utf8', cwd: workspace });
  const md = cli(['report', 'merge', 'reports/a.json', 'reports/b.json']);
  expect(md.status).toBe(0);
  expect(md.stdout).toContain('## FORGE conformance across 2 repositories: ❌ 1 failing');
  expect(md.stdout).toContain('| ❌ failing | 1 |');
  expect(md.stdout).toContain('| ✅ conforming | 1 |');
  // The failing repository's row comes first; the title is inert.
  expect(md.stdout.indexOf(`| ${two} | 1 | 0 | 0 |`)).toBeLessThan(md.stdout.indexOf(`| ${one} | 0 | 1 | 0 |`));
  expect(md.stdout).toContain(
    `[${two}#${bad.number}](https://github.example/${two}/issues/${bad.number}) Half done &lt;script&gt; | \`none\` | BUILDER is missing |`,
  );
  const text = cli(['report', 'merge', '--format', 'text', '--fail-on-violation', 'reports/a.json', 'reports/b.json']);
  expect(text.status).toBe(1);
  expect(text.stdout).toContain('total: 1 failing, 1 conforming, 0 exempt in 2 repositories');
  const json = JSON.parse(cli(['report', 'merge', '--format', 'json', 'reports/a.json', 'reports/b.json']).stdout);
  expect(json.counts).toEqual({ failing: 1, conforming: 1, exempt: 0 });
  writeFileSync(join(workspace, 'reports', 'junk.json'), '{"issues": []}');
  const junk = cli(['report', 'merge', 'reports/junk.json']);
  expect(junk.status).toBe(2);
  expect(junk.stderr).toBe(
    'forge: reports/junk.json: not a forge-check report (expected {"version": 1, "repository": …, "issues": […]})\n',
  );
});

test('a server whose Date header runs ahead of its updated_at stamps still has its changes read', async () => {
  const { repo, numbers } = seedRepository('skewed', 30, 2);
  const workspace = freshWorkspace();
  gh.dateSkewMs = 365 * 24 * 3600 * 1000;
  try {
    await check(repo, { since: 'last-run', 'fail-on-violation': 'false' }, workspace);
    gh.comment(repo, numbers[0], 'maintainer', builder());
    const { result, requests } = await counted(() => check(repo, { since: 'last-run', 'fail-on-violation': 'false' }, workspace));
    // The changed issue and the one at the last run's own second: 2 pages one by one, 1 page repository-wide (61
    // comments), so every thread is read through that one page.
    expect(result.outputs).toMatchObject({ checked: '30', rechecked: '30' });
    expect(JSON.parse(result.outputs.report).issues.find((e: Entry) => e.number === numbers[0]).status).toBe('conforming');
    expect(requests).toHaveLength(1 + 1);
    // With nothing changed, only the issue at the boundary second is read again.
    const { result: quiet, requests: none } = await counted(() =>
      check(repo, { since: 'last-run', 'fail-on-violation': 'false' }, workspace),
    );
    expect(quiet.outputs.rechecked).toBe('1');
    expect(none).toHaveLength(1 + 1 + 1);
  } finally {
    gh.dateSkewMs = 0;
  }
});
