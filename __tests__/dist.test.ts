/** What a `uses:` step downloads: action.yml files and the committed bundles. */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT } from './support/run-action.js';

const all = readdirSync(join(ROOT, 'actions'));
const usingOf = (name: string): string => YAML.parse(readFileSync(join(ROOT, 'actions', name, 'action.yml'), 'utf8')).runs.using;
/** JavaScript actions (one bundle each); composites run those bundles. */
const actions = all.filter((name) => usingOf(name) !== 'composite');

test('every composite action runs committed bundles and passes inputs through env:', () => {
  const composites = all.filter((name) => usingOf(name) === 'composite');
  const bundles: Record<string, string[]> = {
    'forge-gate': ['../../dist/forge-check/index.js'],
    'forge-report': ['../../dist/cli/index.js'],
  };
  expect(composites.sort()).toEqual(Object.keys(bundles));
  for (const name of composites) {
    const yml = YAML.parse(readFileSync(join(ROOT, 'actions', name, 'action.yml'), 'utf8'));
    expect(yml.name).toBeTruthy();
    expect(yml.branding).toEqual({ icon: expect.any(String), color: expect.any(String) });
    for (const [k, v] of Object.entries<{ description?: string }>({ ...yml.inputs, ...yml.outputs }))
      expect([k, v.description]).toEqual([k, expect.any(String)]);
    const paths = (yml.runs.steps as Array<{ run: string }>).flatMap((step) =>
      [...step.run.matchAll(/"\$GITHUB_ACTION_PATH\/([^"]+)"/g)].map((m) => m[1]),
    );
    expect(paths).toEqual(bundles[name]);
    for (const p of paths) expect([p, existsSync(join(ROOT, 'actions', name, p))]).toEqual([p, true]);
  }
});

function size(dir: string): number {
  return readdirSync(dir).reduce((n, f) => {
    const p = join(dir, f);
    return n + (statSync(p).isDirectory() ? size(p) : statSync(p).size);
  }, 0);
}

test.each(actions)('%s/action.yml: node24, a committed bundle, every input and output described', (name) => {
  const yml = YAML.parse(readFileSync(join(ROOT, 'actions', name, 'action.yml'), 'utf8'));
  expect(yml.name).toBeTruthy();
  expect(yml.description).toBeTruthy();
  expect(yml.branding).toEqual({ icon: expect.any(String), color: expect.any(String) });
  expect(yml.runs.using).toBe('node24');
  expect(yml.runs.main).toBe(`../../dist/${name}/index.js`);
  expect(existsSync(join(ROOT, 'actions', name, yml.runs.main))).toBe(true);
  for (const [k, v] of Object.entries<{ description?: string }>({ ...yml.inputs, ...yml.outputs }))
    expect([k, v.description]).toEqual([k, expect.any(String)]);
  expect(yml.inputs['github-token'].default).toBe('${{ github.token }}');
});

test('the shared runtime keeps all of dist/ under the 1.5 MB budget', () => {
  expect(size(join(ROOT, 'dist'))).toBeLessThan(1.5 * 1024 * 1024);
});

test('every bundle is ESM and runs with plain node and no node_modules', () => {
  for (const d of ['codec', 'cli', 'runtime', ...actions]) {
    expect(JSON.parse(readFileSync(join(ROOT, 'dist', d, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
  }
  expect(readFileSync(join(ROOT, 'dist', 'cli', 'index.js'), 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
});

test('the bundles load from a copy of dist/ alone, far from node_modules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-dist-'));
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  const cli = spawnSync(process.execPath, [join(dir, 'dist', 'cli', 'index.js'), 'emit', 'GATE_FAILED'], { encoding: 'utf8', cwd: dir });
  expect(cli.stdout).toBe('<!-- FORGE:GATE_FAILED -->\n');
  const lib = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { parse } from ${JSON.stringify(join(dir, 'dist', 'codec', 'index.js'))}; console.log(parse('<!-- FORGE:GATE_FAILED -->')[0].type)`,
    ],
    { encoding: 'utf8', cwd: dir },
  );
  expect(lib.stdout).toBe('GATE_FAILED\n');
  const action = spawnSync(process.execPath, [join(dir, 'dist', 'forge-check', 'index.js')], {
    encoding: 'utf8',
    cwd: dir,
    env: { PATH: process.env.PATH },
  });
  expect(action.stdout).toContain('::error::forge-check: input "github-token" is required');
  expect(action.status).toBe(1);
});

test('the package entry: import { parse, validate, emit } from "forge-actions"', () => {
  const code = `import { parse, validate, emit } from 'forge-actions'; const [a] = parse(emit('GATE_FAILED')); console.log(a.type, validate(a).valid)`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', cwd: ROOT });
  expect(r.stdout).toBe('GATE_FAILED true\n');
  expect(existsSync(join(ROOT, 'dist', 'codec', 'types', 'index.d.ts'))).toBe(true);
});
