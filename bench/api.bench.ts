/**
 * API cost of each action, from its dist bundle, against the loopback GitHub
 * server: requests made and wall time (median of a few runs). Figures only.
 */
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
    `\nAPI benchmark (loopback server, dist bundles; median of 3 runs)\n${'scenario'.padEnd(58)}requests   ms\n${rows.join('\n')}\n`,
  );
});

async function measure(name: string, run: () => Promise<unknown>, runs = 3): Promise<void> {
  const times: number[] = [];
  let requests = 0;
  for (let i = 0; i < runs; i++) {
    const before = gh.requests.length;
    const t = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    requests = gh.requests.length - before;
  }
  times.sort((a, b) => a - b);
  rows.push(`${name.padEnd(58)}${String(requests).padStart(8)}${times[Math.floor(times.length / 2)].toFixed(0).padStart(7)}`);
}

test('api figures', async () => {
  const repo = 'octo/bench';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const big = gh.issue(repo);
  for (let i = 1; i <= 1000; i++)
    gh.comment(
      repo,
      big.number,
      'maintainer',
      i === 3 ? investigator() : i === 950 ? builder() : i === 990 ? trajectory() : `comment ${i}`,
    );
  const small = gh.issue(repo);
  gh.comment(repo, small.number, 'maintainer', investigator());
  gh.comment(repo, small.number, 'maintainer', builder());
  const env = (inputs: Record<string, string>) => ({
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', ...inputs },
  });

  await measure('forge-check, 2-comment issue', () => runBundle('forge-check', env({ 'issue-number': String(small.number) })));
  await measure('forge-check, 1,000-comment issue', () => runBundle('forge-check', env({ 'issue-number': String(big.number) })));
  await measure('forge-emit, skip (annotation already there)', () =>
    runBundle(
      'forge-emit',
      env({ 'issue-number': String(small.number), type: 'BUILDER', fields: 'Branch: x\nCommits: a\nFiles changed: 1' }),
    ),
  );
  const fresh = gh.issue(repo, { labels: ['workflow:building'] });
  await measure(
    'forge-emit, create + label move (first run; then skips)',
    () =>
      runBundle(
        'forge-emit',
        env({
          'issue-number': String(fresh.number),
          type: 'CONTEXT',
          sections: 'Known Pitfalls for This Area: none',
          label: 'workflow:in-review',
        }),
      ),
    1,
  );
  await measure('forge-trajectory-report, 1,000-comment issue', () =>
    runBundle('forge-trajectory-report', env({ 'issue-number': String(big.number) })),
  );
  const audited = gh.issue(repo);
  for (let i = 0; i < 50; i++)
    gh.comment(
      repo,
      audited.number,
      'maintainer',
      emit('KNOWLEDGE_GIST', { value: `https://gist.github.com/octo-owner/${gh.gist('octo-owner').id}` }),
    );
  await measure('gist-visibility-audit, 50 gists on one issue', () =>
    runBundle('gist-visibility-audit', env({ 'issue-number': String(audited.number), 'gist-token': 'ghp_user' })),
  );
  expect(rows.length).toBe(6);
});
