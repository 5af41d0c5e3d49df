/**
 * The npm package as a user gets it: `npm pack`, installed into an empty
 * project — `import { parse, validate, emit } from 'forge-actions'` and
 * `npx forge` work, nothing else comes along.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/run-action.js';

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });

test('the package has no runtime dependencies and holds only what a user needs', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  expect(pkg.dependencies ?? {}).toEqual({});
  const [packed] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT));
  const paths: string[] = packed.files.map((f: { path: string }) => f.path);
  expect(paths).toEqual(
    expect.arrayContaining(['dist/codec/index.js', 'dist/cli/index.js', 'dist/codec/types/index.d.ts', 'README.md', 'LICENSE']),
  );
  expect(paths.filter((p) => !/^(dist\/codec\/|dist\/cli\/|docs\/|README\.md|CHANGELOG\.md|LICENSE|package\.json)/.test(p))).toEqual([]);
});

test('installed from the tarball: the library imports and npx forge runs, with no other package installed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-pkg-'));
  const tarball = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT))[0].filename;
  writeFileSync(join(dir, 'package.json'), '{"name":"user","version":"1.0.0","type":"module","private":true}\n');
  npm(['install', '--offline', '--no-package-lock', join(dir, tarball)], dir);
  expect(readFileSync(join(dir, 'node_modules', 'forge-actions', 'package.json'), 'utf8')).toContain('"forge-actions"');
  const installed = execFileSync('ls', [join(dir, 'node_modules')], { encoding: 'utf8' })
    .trim()
    .split('\n');
  expect(installed.filter((n) => !n.startsWith('.'))).toEqual(['forge-actions']);
  writeFileSync(
    join(dir, 'use.mjs'),
    "import { emit, parse, validate, getField } from 'forge-actions';\nconst [a] = parse(emit('BUILDER', { fields: { Branch: 'b', Commits: 'c', 'Files changed': '1' } }));\nconsole.log(a.type, a.sentinelState, validate(a).valid, getField(a.fields, 'branch'));\n",
  );
  expect(execFileSync(process.execPath, ['use.mjs'], { cwd: dir, encoding: 'utf8' }).trim()).toBe('BUILDER complete true `b`');
  const out = execFileSync('npx', ['--no-install', 'forge', 'emit', 'GATE_FAILED'], { cwd: dir, encoding: 'utf8' });
  expect(out).toBe('<!-- FORGE:GATE_FAILED -->\n');
  // The package-named command, for machines where another tool owns `forge`.
  const named = execFileSync('npx', ['--no-install', 'forge-actions', 'emit', 'GATE_FAILED'], { cwd: dir, encoding: 'utf8' });
  expect(named).toBe('<!-- FORGE:GATE_FAILED -->\n');
}, 120_000);

describe('the release notes come from CHANGELOG.md', () => {
  const script = join(ROOT, 'scripts', 'changelog-section.mjs');
  const run = (version: string, text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'forge-changelog-')), 'CHANGELOG.md');
    writeFileSync(file, text);
    return spawnSync(process.execPath, [script, version, file], { encoding: 'utf8' });
  };
  const log = '# Changelog\n\n## Unreleased\n\n- next\n\n## 1.0.1\n\n- fixed\n\n## 1.0.0\n\n- first\n';

  test("a version's section, up to the next heading; not a longer version's", () => {
    expect(run('1.0.0', log).stdout).toBe('- first\n');
    expect(run('v1.0.1', log).stdout).toBe('- fixed\n');
    expect(run('1.0', log).status).toBe(1);
  });

  test('no section, or an empty one, fails naming it: a release never goes out with empty notes', () => {
    expect(run('2.0.0', log).stderr).toContain('has no "## 2.0.0" section');
    expect(run('1.0.0', '## 1.0.0\n\n## 0.9.0\n- x\n').stderr).toContain('"## 1.0.0" section is empty');
  });

  test("this repository's CHANGELOG.md has a section for package.json's version, undated until its tag", () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    const r = spawnSync(process.execPath, [script, version, join(ROOT, 'CHANGELOG.md')], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## ${version.replace(/\./g, '\\.')}$`, 'm'));
  });
});

test("a library error thrown at a caller prints the library's own line, never a line of a minified bundle", () => {
  const script = `import { emit } from ${JSON.stringify(join(ROOT, 'dist', 'codec', 'index.js'))};\nemit('NOT A TYPE!!', {});\n`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('EmitError: "NOT A TYPE!!" is not a type name');
  const longest = Math.max(...r.stderr.split('\n').map((l) => l.length));
  expect(longest).toBeLessThan(300);
});
