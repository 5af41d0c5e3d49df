/**
 * API cost of each action, from its dist bundle, against the loopback GitHub
 * server: requests made beside the lower bound for the scenario, and wall time
 * (median of a few runs). Figures only; nothing here is asserted about speed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeGitHub } from '../__tests__/support/github-server.js';
import { runBundle } from '../__tests__/support/run-action.js';
import { builder, investigator, trajectory } from '../__tests__/support/seed.js';
import { emit } from '../src/codec/index.js';

const rows: string[] = [];
let gh: FakeGitHub;

beforeAll(async () => {
  gh = new FakeGitHub();
  gh.token('ghp_user', 'octo-owner', 'user');
  await gh.start();
});
afterAll(async () => {
  await gh.stop();
  process.stdout.write(
    `\nAPI benchmark (loopback server, dist bundles; median of the runs; points: GraphQL points by GitHub's formula)\n${'scenario'.padEnd(62)}requests  bound     ms  points\n${rows.join('\n')}\n`,
  );
});

const pages = (n: number) => Math.ceil(n / 100);

async function measure(name: string, bound: number | null, run: () => Promise<unknown>, runs = 3): Promise<void> {
  const times: number[] = [];
  let requests = 0;
  let points = 0;
  for (let i = 0; i < runs; i++) {
    const before = gh.requests.length;
    const spent = gh.points;
    const t = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    requests = gh.requests.length - before;
    points = gh.points - spent;
  }
  times.sort((a, b) => a - b);
  rows.push(
    `${name.padEnd(62)}${String(requests).padStart(8)}${String(bound ?? '-').padStart(7)}${times[Math.floor(times.length / 2)].toFixed(0).padStart(7)}${String(points).padStart(8)}`,
  );
}

const env = (repo: string, inputs: Record<string, string>, workspace?: string) => ({
  apiUrl: gh.url,
  repository: repo,
  workspace,
  inputs: { 'github-token': 'ghs_actions', ...inputs },
});

function threadOf(repo: string, comments: number): number {
  const issue = gh.issue(repo);
  for (let i = 1; i <= comments; i++)
    gh.comment(repo, issue.number, 'maintainer', i === 3 ? investigator() : i === comments - 1 ? builder() : `comment ${i}`);
  return issue.number;
}

test('single items', async () => {
  const repo = 'octo/bench';
  gh.repo(repo, { maintainer: 'MEMBER' });
  for (const c of [20, 250, 1000]) {
    const n = threadOf(repo, c);
    // GraphQL: is it an issue, and which open PRs does it gate (1); none, so one listing of the open PRs for one GitHub
    // has not linked yet (1); then its one read: the issue, its comments with who edited or hid them, the token's login.
    await measure(`forge-check, issue with ${c.toLocaleString('en')} comments`, 1 + 1 + pages(c), () =>
      runBundle('forge-check', env(repo, { 'issue-number': String(n) })),
    );
  }
  for (const c of [20, 100, 250, 1000]) {
    const n = threadOf(repo, c);
    // One GraphQL query for the issue, its labels and first 100 comments; one more per further 100.
    await measure(`forge-context, issue with ${c.toLocaleString('en')} comments`, pages(c), () =>
      runBundle('forge-context', env(repo, { 'issue-number': String(n) })),
    );
  }
  const big = gh.issue(repo);
  for (let i = 1; i <= 1000; i++) gh.comment(repo, big.number, 'maintainer', i === 990 ? trajectory() : `comment ${i}`);
  const small = threadOf(repo, 2);
  // The pipeline file (trusted-authors and the label are left to it), the issue, its comments.
  await measure('forge-emit, skip (annotation already there)', 1 + 1 + 1, () =>
    runBundle(
      'forge-emit',
      env(repo, { 'issue-number': String(small), type: 'BUILDER', fields: 'Branch: x\nCommits: a\nFiles changed: 1' }),
    ),
  );
  const fresh = gh.issue(repo, { labels: ['workflow:building'] });
  await measure(
    'forge-emit, create + label move (first run; then skips)',
    null,
    () =>
      runBundle(
        'forge-emit',
        env(repo, {
          'issue-number': String(fresh.number),
          type: 'CONTEXT',
          sections: 'Known Pitfalls for This Area: none',
          label: 'workflow:in-review',
        }),
      ),
    1,
  );
  // It reads the first page and then pages from the end until it finds the TRAJECTORY: no bound to print.
  await measure('forge-trajectory-report, 1,000-comment issue', null, () =>
    runBundle('forge-trajectory-report', env(repo, { 'issue-number': String(big.number) })),
  );
  expect(rows.length).toBe(10);
});

test('an issue comment that touches 3 open PRs: each re-checked, each with a status', async () => {
  const repo = 'octo/bench-gate';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const issue = threadOf(repo, 20);
  for (const head of ['fix/a', 'fix/b', 'fix/c']) gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue}`, head } });
  const event = { name: 'issue_comment', payload: { action: 'created', issue: { number: issue }, comment: { id: 1 } } };
  // GitHub's PRs for the issue (1 GraphQL); one read of the three PRs, their threads, reviews, links, the issue's
  // thread, the newest statuses of their heads and the open PRs' heads (1 GraphQL); what landed on the three heads
  // since the read (1 GraphQL, only because the verdicts change) and a status write per PR (1).
  const bound = 1 + 1 + 1 + 3;
  // The first run writes three statuses; the others find them unchanged (6 fewer requests would be their bound).
  await measure(
    'forge-check status: true, issue comment touching 3 open PRs',
    bound,
    () =>
      runBundle('forge-check', {
        ...env(repo, { status: 'true', required: 'minimal', 'fail-on-violation': 'false' }),
        event,
      }),
    1,
  );
});

test("a PR's evaluations: the first (status and comment), then one where nothing changed", async () => {
  const repo = 'octo/bench-pr';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const issue = threadOf(repo, 50);
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue}`, head: 'fix/a' } });
  const run = () =>
    runBundle('forge-check', {
      ...env(repo, { status: 'true', comment: 'true', required: 'INVESTIGATOR, BUILDER', 'fail-on-violation': 'false' }),
      event: { name: 'pull_request_target', payload: { number: pr.number, pull_request: { number: pr.number } } },
    });
  // Its one read (GraphQL: the PR, its thread, reviews, links, the issue's thread, its head's statuses, the token's login);
  // what landed since the read, then the status; the status comment and the look for a concurrent one.
  await measure("a PR's first evaluation (status + comment)", 5, run, 1);
  // Nothing changed: the one read; the status and the comment already say it.
  await measure('  the same PR again, nothing changed', 1, run);
});

test('the required gate: strangers naming an issue, a merge group, an exempt PR, a dispatch fan-out', async () => {
  const repo = 'octo/bench-required';
  gh.repo(repo, { maintainer: 'MEMBER', 'drive-by': 'NONE' });
  gh.user('dependabot[bot]', 'Bot');
  const issue = threadOf(repo, 20);
  const trusted = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue}`, head: 'fix/a' } });
  for (let i = 0; i < 30; i++)
    gh.issue(repo, { user: 'drive-by', pull: { body: `Fixes #${issue}`, head: `spam/${i}`, headRepository: 'drive-by/fork' } });
  const gateInputs = { status: 'true', required: 'minimal', 'fail-on-violation': 'false' };
  const comment = { name: 'issue_comment', payload: { action: 'created', issue: { number: issue }, comment: { id: 1 } } };
  // GitHub's PRs for the issue with their authors (1 GraphQL); the one trusted PR's read (1 GraphQL), its status (1).
  // The 30 strangers' PRs cost nothing: named in one notice.
  await measure("issue comment, 1 trusted PR + 30 strangers' PRs naming the issue", 1 + 1 + 1, () =>
    runBundle('forge-check', { ...env(repo, gateInputs), event: comment }),
  );
  // The same fan-out from a dispatch (issue-number) with 3 trusted PRs.
  const other = threadOf(repo, 20);
  for (const head of ['fix/d1', 'fix/d2', 'fix/d3']) gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${other}`, head } });
  await measure(
    'workflow_dispatch issue-number: issue gating 3 PRs',
    1 + 1 + 1 + 3,
    () =>
      runBundle('forge-check', {
        ...env(repo, { ...gateInputs, 'issue-number': String(other) }),
        event: { name: 'workflow_dispatch', payload: {} },
      }),
    1,
  );
  // A merge group of 3 PRs: the queue (1 GraphQL); one read of the PRs, their issues and the group commit's newest
  // status (1 GraphQL); what landed since (1) and the write (1).
  const queued = [
    trusted.number,
    ...[...gh.repo(repo).issues.values()]
      .filter((i) => i.pull?.head.startsWith('fix/d'))
      .map((i) => i.number)
      .slice(0, 2),
  ];
  const group = 'e5'.repeat(20);
  gh.repo(repo).mergeQueue.set(
    'main',
    queued.map((pull, i) => ({ pull, head: i === queued.length - 1 ? group : `${i}`.repeat(40) })),
  );
  const groupEvent = {
    name: 'merge_group',
    payload: {
      action: 'checks_requested',
      merge_group: { head_sha: group, head_ref: `refs/heads/gh-readonly-queue/main/pr-${queued[2]}-x`, base_ref: 'refs/heads/main' },
    },
  };
  await measure('merge_group of 3 PRs', 1 + 1 + 2, () => runBundle('forge-check', { ...env(repo, gateInputs), event: groupEvent }), 1);
  // 30 fork PRs by one stranger on one head commit, and a member's failing PR on it too. The stranger's run: its one
  // read (the open PRs' heads with it) and the write (2); its 29 twins are not asked. The member's run: the same 2,
  // plus the first sibling alone and then 4 more in one query (2).
  const twinSha = 'f7'.repeat(20);
  const twins = Array.from({ length: 30 }, (_, i) =>
    gh.issue(repo, { user: 'drive-by', pull: { body: 'x', head: `twin/${i}`, sha: twinSha, headRepository: 'drive-by/fork' } }),
  );
  const pullEvent = (n: number) => ({ name: 'pull_request', payload: { pull_request: { number: n } } });
  await measure("30 siblings on one head: the stranger's own PR fails", 1 + 1, () =>
    runBundle('forge-check', { ...env(repo, gateInputs), event: pullEvent(twins[0].number) }),
  );
  const member = gh.issue(repo, { user: 'maintainer', pull: { body: 'Guards it.', head: 'fix/twin', sha: twinSha } });
  await measure("30 siblings on one head: a member's failing PR", 1 + 2 + 1, () =>
    runBundle('forge-check', { ...env(repo, gateInputs), event: pullEvent(member.number) }),
  );
  // An exempt PR: its one read (the newest status with it), what landed since, and the write.
  const bump = gh.issue(repo, { user: 'dependabot[bot]', pull: { body: 'Bumps x.', head: 'dependabot/x' } });
  await measure(
    'exempt PR (exempt-authors: dependabot[bot])',
    1 + 1 + 1,
    () =>
      runBundle('forge-check', {
        ...env(repo, { ...gateInputs, 'exempt-authors': 'dependabot[bot]' }),
        event: { name: 'pull_request_target', payload: { number: bump.number, pull_request: { number: bump.number } } },
      }),
    1,
  );
});

/** Runs a bundle the runner's way with only the environment a step needs; resolves with the exit code. */
function runPlain(script: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, script === '-e' ? ['-e', '0'] : [script], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

test('cold start of one step: forge-check against a find-comment-like step on the same 2-comment issue', async () => {
  const repo = 'octo/bench-cold';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const n = threadOf(repo, 2);
  const dir = mkdtempSync(join(tmpdir(), 'forge-baseline-'));
  execFileSync(
    process.execPath,
    [join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js'), 'build', 'bench/find-comment-like.ts', '-o', dir, '-m', '-q'],
    {
      stdio: 'ignore',
    },
  );
  const output = join(dir, 'output');
  writeFileSync(output, '');
  const common = { GITHUB_API_URL: gh.url, GITHUB_REPOSITORY: repo, GITHUB_OUTPUT: output, GITHUB_EVENT_PATH: join(dir, 'none.json') };
  writeFileSync(common.GITHUB_EVENT_PATH, '{}');
  const baseline = () =>
    runPlain(join(dir, 'index.js'), {
      ...common,
      INPUT_TOKEN: 'ghs_actions',
      'INPUT_ISSUE-NUMBER': String(n),
      'INPUT_BODY-INCLUDES': 'FORGE:BUILDER',
    });
  const ours = () =>
    runPlain(join('dist', 'forge-check', 'index.js'), {
      ...common,
      'INPUT_GITHUB-TOKEN': 'ghs_actions',
      'INPUT_ISSUE-NUMBER': String(n),
      INPUT_REQUIRED: 'minimal',
    });
  // The floor every step pays: starting node and exiting.
  const bare = () => runPlain('-e', { ...common });
  const times = { ours: [] as number[], baseline: [] as number[], bare: [] as number[] };
  for (let i = 0; i < 11; i++) {
    for (const [name, run] of [
      ['ours', ours],
      ['baseline', baseline],
      ['bare', bare],
    ] as const) {
      const t = process.hrtime.bigint();
      await run();
      times[name].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  rows.push(
    `${'cold start: forge-check, 2-comment issue'.padEnd(62)}${'2'.padStart(8)}${'2'.padStart(7)}${median(times.ours).toFixed(0).padStart(7)}`,
  );
  rows.push(
    `${'cold start: find-comment-like step, same issue'.padEnd(62)}${'1'.padStart(8)}${'1'.padStart(7)}${median(times.baseline).toFixed(0).padStart(7)}`,
  );
  rows.push(`${'cold start: bare `node -e 0`'.padEnd(62)}${'0'.padStart(8)}${'0'.padStart(7)}${median(times.bare).toFixed(0).padStart(7)}`);
  rows.push(`  ratio (forge-check / find-comment-like): ${(median(times.ours) / median(times.baseline)).toFixed(2)}`);
  rows.push(`  ratio (forge-check / bare node -e 0): ${(median(times.ours) / median(times.bare)).toFixed(2)}`);
});

test('a repository of 1,000 issues with 20 comments each, then 10 changes', async () => {
  const repo = 'octo/bench-repo';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const numbers: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const issue = gh.issue(repo);
    numbers.push(issue.number);
    for (let c = 0; c < 20; c++) gh.comment(repo, issue.number, 'maintainer', c === 0 ? investigator() : c === 1 ? builder() : `c${c}`);
  }
  const workspace = join(mkdtempSync(join(tmpdir(), 'forge-bench-')), 'workspace');
  mkdirSync(workspace);
  const inputs = { scope: 'repository', since: 'last-run', 'fail-on-violation': 'false' };
  // Every audit reads the pipeline file first (FILE: one request), then lists.
  const FILE = 1;
  await measure(
    'forge-check scope: repository, 1,000 issues × 20 comments',
    FILE + pages(1000) + pages(20000),
    () => runBundle('forge-check', env(repo, inputs, workspace)),
    1,
  );
  // Every incremental run lists the matching issues (GitHub decides membership: 10 pages) and the comments changed
  // since the last run (1 page here), then reads what changed — plus the issue whose stamp is the last run's second.
  for (const n of numbers.slice(0, 10)) gh.comment(repo, n, 'maintainer', 'one more');
  await measure(
    '  incremental (since: last-run) after 10 changed issues',
    FILE + pages(1000) + 1 + 10 * pages(21) + 1,
    () => runBundle('forge-check', env(repo, inputs, workspace)),
    1,
  );
  await measure(
    '  incremental, nothing changed',
    FILE + pages(1000) + 1 + 1,
    () => runBundle('forge-check', env(repo, inputs, workspace)),
    1,
  );
  // Ten comments edited in place: the issues' updated_at does not move; the changed-comments listing names them.
  const state = gh.repos.get(repo);
  for (const n of numbers.slice(20, 30)) {
    const c = state?.comments.find((x) => x.issue === n);
    if (c) {
      c.body = `${c.body}\nedited`;
      c.updated_at = gh.now();
    }
  }
  await measure(
    '  incremental, 10 comments edited (issues not touched)',
    FILE + pages(1000) + 1 + 10 * pages(20) + 1,
    () => runBundle('forge-check', env(repo, inputs, workspace)),
    1,
  );
  // A stranger comments everywhere: reading 1,000 threads one by one would cost 1,000 requests; the repository-wide
  // listing is 210 pages. Bound: the full audit's cost, 1.5 times at most.
  for (const n of numbers) gh.comment(repo, n, 'maintainer', '+1');
  await measure(
    '  incremental, every issue touched (a comment on each)',
    Math.ceil(1.5 * (pages(1000) + pages(21000))),
    () => runBundle('forge-check', env(repo, inputs, workspace)),
    1,
  );
});

test('the gist audit of 50 and 500 gists of the gist-token user', async () => {
  const repo = 'octo/bench-gists';
  gh.repo(repo, { maintainer: 'MEMBER' });
  for (const count of [50, 500]) {
    const issue = gh.issue(repo);
    for (let i = 0; i < count; i++)
      gh.comment(
        repo,
        issue.number,
        'maintainer',
        emit('KNOWLEDGE_GIST', { value: `https://gist.github.com/octo-owner/${gh.gist('octo-owner').id}` }),
      );
    const owned = [...gh.gists.values()].filter((g) => g.owner === 'octo-owner').length;
    // The issue and its comments read from both ends (the first and the last 100 in one request, then 100 a request),
    // then the gist-token user's own gists listed, 100 a page.
    await measure(
      `gist-visibility-audit, ${count} gists on one issue (user owns ${owned})`,
      Math.max(1, pages(count) - 1) + pages(owned),
      () => runBundle('gist-visibility-audit', env(repo, { 'issue-number': String(issue.number), 'gist-token': 'ghp_user' })),
    );
  }
});

test('forge-dispatch sweeps of 50, 250 and 1,000 open issues: the first writes the board, the next writes nothing', async () => {
  for (const count of [50, 250, 1000]) {
    const repo = `octo/bench-dispatch-${count}`;
    const r = gh.repo(repo, { maintainer: 'MEMBER' });
    // Every item waits on an unmapped INVESTIGATOR: the figures are the sweep's reads, not the paced writes of dispatches.
    r.files.set('.github/forge.yml', 'chain:\n  - INVESTIGATOR\n  - BUILDER\n  - REVIEWER\n');
    for (let i = 0; i < count; i++) threadOf(repo, 5);
    // Bound: one GraphQL page per 100 open issues (the open PRs and the pipeline file ride along), then the board's creation.
    await measure(
      `forge-dispatch, repository of ${count.toLocaleString('en')} open issues, first sweep`,
      pages(count) + 1,
      () => runBundle('forge-dispatch', env(repo, { scope: 'repository' })),
      1,
    );
    await measure(`  the next sweep, nothing changed (no write)`, pages(count + 1), () =>
      runBundle('forge-dispatch', env(repo, { scope: 'repository' })),
    );
  }
});
