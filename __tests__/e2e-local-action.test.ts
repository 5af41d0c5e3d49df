/**
 * @github/local-action, the ecosystem's way to run an action on a laptop: it
 * runs an action's TypeScript entry (`src/<action>/main.ts`, which exports
 * run()) with its own stand-in for @actions/core, and prints the outputs the
 * action set. Every action here reaches the runner only through @actions/core,
 * so local-action shows its outputs. Run against the loopback GitHub.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from './support/github-server.js';
import { ROOT } from './support/run-action.js';
import { builder, investigator, trajectory } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

function localAction(action: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'forge-local-action-'));
  const file = join(dir, '.env');
  writeFileSync(
    file,
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js'),
        'run',
        join(ROOT, 'actions', action),
        `../../src/${action}/main.ts`,
        file,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
    );
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    child.on('close', (status) => done({ status, stdout }));
  });
}

/** The outputs local-action prints after the run: its table's rows, name and value. */
function outputsOf(stdout: string): Record<string, string> {
  const after = stdout.slice(stdout.lastIndexOf('Action Outputs'));
  const out: Record<string, string> = {};
  for (const m of after.matchAll(/│\s*\d+\s*│\s*'([a-z-]+)'\s*│\s*'([^']*)'/g)) out[m[1]] = m[2];
  return out;
}

test('every action runs under local-action, which shows its outputs (forge-emit as a dry run: nothing written)', async () => {
  const repo = 'octo/local-action';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const issue = gh.issue(repo, { state: 'closed' });
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  gh.comment(repo, issue.number, 'maintainer', trajectory(3));
  const env = {
    'INPUT_GITHUB-TOKEN': 'ghs_actions',
    'INPUT_ISSUE-NUMBER': String(issue.number),
    GITHUB_REPOSITORY: repo,
    GITHUB_API_URL: gh.url,
    'INPUT_OUTPUT-FILE': '',
  };
  const [check, context, report, emit, audit] = await Promise.all([
    localAction('forge-check', { ...env, INPUT_REQUIRED: 'INVESTIGATOR, BUILDER' }),
    localAction('forge-context', env),
    localAction('forge-trajectory-report', env),
    localAction('forge-emit', {
      ...env,
      INPUT_TYPE: 'CONTEXT',
      INPUT_SECTIONS: 'Known Pitfalls for This Area: none',
      'INPUT_DRY-RUN': 'true',
    }),
    localAction('gist-visibility-audit', env),
  ]);
  expect(outputsOf(check.stdout)).toMatchObject({ conforming: 'true', missing: '' });
  expect(outputsOf(context.stdout)).toMatchObject({ 'next-phase': expect.any(String), state: expect.any(String) });
  expect(outputsOf(report.stdout)).toMatchObject({ found: 'true' });
  expect(outputsOf(emit.stdout)).toMatchObject({ result: expect.stringMatching(/./) });
  expect(outputsOf(audit.stdout)).toMatchObject({ checked: '0', public: '0' });
  expect(gh.writes().filter((q) => q.path.includes(repo))).toEqual([]);
}, 180_000);
