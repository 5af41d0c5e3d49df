/**
 * forge-report, the composite action that merges forge-check reports with the
 * committed CLI bundle: run as the runner runs composites (inputs through
 * env:, GITHUB_OUTPUT, the job summary), on report files in the workspace.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryReport } from './support/reports.js';
import { runComposite } from './support/run-action.js';

const workspace = join(mkdtempSync(join(tmpdir(), 'forge-report-')), 'workspace');
mkdirSync(join(workspace, 'reports'), { recursive: true });

const report = (repository: string, failing: number) =>
  repositoryReport(
    repository,
    Array.from({ length: failing }, (_, i) => ({
      number: i + 1,
      title: `t${i}`,
      url: `https://github.example/${repository}/issues/${i + 1}`,
      state: 'none',
      status: 'failing',
      types: { BUILDER: 'missing' },
      problems: [`issue #${i + 1}: BUILDER is missing`],
    })),
  );
writeFileSync(join(workspace, 'reports', 'a.json'), JSON.stringify(report('octo/a', 2)));
writeFileSync(join(workspace, 'reports', 'b.json'), JSON.stringify(report('octo/b', 0)));

const merge = (inputs: Record<string, string>) => runComposite('forge-report', { apiUrl: 'http://127.0.0.1:9', workspace, inputs });

test('merges the files a glob names: outputs, the job summary, and no failure by default', async () => {
  const r = await merge({ files: 'reports/*.json' });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ failing: '2', conforming: 'false' });
  expect(r.outputs.report).toContain('## FORGE conformance across 2 repositories: ❌ 2 failing');
  expect(r.summary).toContain('## FORGE conformance across 2 repositories');
});

test("fail-on-violation fails the step; format json is the CLI's json; a clean set conforms", async () => {
  const failed = await merge({ files: 'reports/a.json\nreports/b.json', 'fail-on-violation': 'true' });
  expect(failed.code).toBe(1);
  expect(failed.stdout).toContain('::error::forge-report: 2 failing issue(s) (fail-on-violation is set)');
  const json = await merge({ files: 'reports/b.json', format: 'json', 'fail-on-violation': 'true' });
  expect(json.code).toBe(0);
  expect(JSON.parse(json.outputs.report).counts).toEqual({ failing: 0, conforming: 0, exempt: 0 });
  expect(json.outputs.conforming).toBe('true');
  expect(json.summary).toBe('');
});

test('mistakes are one line: no files, a bad flag, a file that is not a report', async () => {
  expect((await merge({ files: ' ' })).stdout).toContain('::error::forge-report: files names no report file');
  expect((await merge({ files: 'reports/a.json', 'fail-on-violation': 'maybe' })).stdout).toContain(
    '::error::forge-report: fail-on-violation must be true or false',
  );
  writeFileSync(join(workspace, 'reports', 'junk.txt'), 'nope');
  const junk = await merge({ files: 'reports/junk.txt' });
  expect(junk.code).toBe(2);
  expect(junk.stderr).toContain('forge: reports/junk.txt: not JSON');
});

test('expected repositories with no report (their audit job failed) are named, and the merge is not conforming', async () => {
  writeFileSync(join(workspace, 'reports', 'b.json'), JSON.stringify(report('octo/b', 0)));
  const r = await merge({ files: 'reports/b.json', expected: 'octo/b, octo/gone\nOCTO/also-gone' });
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ failing: '0', missing: 'octo/gone,OCTO/also-gone', conforming: 'false' });
  expect(r.summary).toContain('❌ 2 report(s) missing');
  expect(r.summary).toContain('No report from octo/gone, OCTO/also-gone');
  const strict = await merge({ files: 'reports/b.json', expected: 'octo/gone', 'fail-on-violation': 'true' });
  expect(strict.code).toBe(1);
  expect(strict.stdout).toContain('::error::forge-report: 0 failing issue(s), no report from octo/gone (fail-on-violation is set)');
  // Every audit job failed: the glob matches nothing, and the summary still names them all.
  const none = await merge({ files: 'reports/none-*/forge-report.json', expected: 'octo/x octo/y' });
  expect(none.code).toBe(0);
  expect(none.outputs).toMatchObject({ missing: 'octo/x,octo/y', conforming: 'false' });
  const all = await merge({ files: 'reports/b.json', expected: 'octo/b' });
  expect(all.outputs).toMatchObject({ missing: '', conforming: 'true' });
});
