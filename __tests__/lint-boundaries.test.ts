/**
 * The layer rule is enforced by `npm run lint` (biome.json, noRestrictedImports):
 * each probe file below is linted with the project's own configuration in a
 * scratch tree, and an upward, sideways or file-touching import must fail it
 * while the same floor's ordinary imports pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(new URL('.', import.meta.url).pathname, '..');
const biome = join(root, 'node_modules', '.bin', 'biome');

/** [file, import specifier, imported name, must the lint fail?] */
const PROBES: Array<[string, string, string, boolean]> = [
  ['src/codec/probe.ts', '../common/errors.js', 'UsageError', true],
  ['src/codec/probe.ts', './quote.js', 'quote', false],
  ['src/common/probe.ts', '../github/client.js', 'createClient', true],
  ['src/common/probe.ts', '../decision/evaluate.js', 'evaluate', true],
  ['src/common/probe.ts', '../forge-check/render.js', 'itemResult', true],
  ['src/common/probe.ts', './errors.js', 'UsageError', false],
  ['src/common/probe.ts', '../codec/index.js', 'parse', false],
  ['src/github/probe.ts', '../decision/evaluate.js', 'evaluate', true],
  ['src/github/probe.ts', '../common/repo.js', 'repoName', false],
  ['src/decision/probe.ts', '../github/reads.js', 'readThread', true],
  ['src/decision/probe.ts', '../common/trust.js', 'counts', false],
  ['src/forge-check/probe.ts', '../forge-emit/logic.js', 'runEmit', true],
  ['src/forge-check/repository/probe.ts', '../../gist-visibility-audit/logic/audit.js', 'runAudit', true],
  ['src/forge-emit/probe.ts', '../cli/main.js', 'main', true],
  ['src/forge-check/probe.ts', '../decision/evaluate.js', 'evaluate', false],
  ['src/forge-check/logic.ts', 'node:fs', 'readFileSync', true],
  ['src/forge-check/repository/logic.ts', '../../common/paths.js', 'writeWorkspaceFile', true],
  ['src/gist-visibility-audit/logic/probe.ts', '../../common/paths.js', 'workspacePath', true],
  ['src/forge-emit/logic.ts', '@actions/core', 'info', true],
  ['src/common/workflow-commands.ts', '@actions/core', 'info', false],
  ['src/common/probe.ts', '@actions/core', 'info', true],
  ['src/forge-emit/action.ts', '../common/paths.js', 'readWorkspaceFile', false],
  ['src/cli/probe.ts', '../forge-check/render.js', 'itemResult', true],
  ['src/cli/probe.ts', '../decision/report.js', 'readReport', false],
  ['src/decision/probe.ts', './verdicts.js', 'verdictOf', false],
  ['src/common/probe.ts', '../decision/context.js', 'buildContext', true],
  ['src/github/probe.ts', '../decision/context.js', 'buildContext', true],
  ['src/forge-context/probe.ts', '../forge-emit/logic.js', 'runEmit', true],
  ['src/forge-context/logic.ts', 'node:fs', 'writeFileSync', true],
  ['src/forge-context/probe.ts', '../decision/context.js', 'buildContext', false],
  ['src/cli/probe.ts', '../forge-context/logic.js', 'runContext', true],
  // forge-dispatch is an action like the others: no floor below imports it, it imports no other action, its logic touches no file.
  ['src/common/probe.ts', '../forge-dispatch/board.js', 'boardItem', true],
  ['src/decision/probe.ts', '../forge-dispatch/board.js', 'boardItem', true],
  ['src/forge-check/probe.ts', '../forge-dispatch/logic.js', 'runDispatch', true],
  ['src/forge-dispatch/probe.ts', '../forge-emit/logic.js', 'runEmit', true],
  ['src/forge-dispatch/probe.ts', '../cli/main.js', 'main', true],
  ['src/cli/probe.ts', '../forge-dispatch/logic.js', 'runDispatch', true],
  ['src/forge-dispatch/logic.ts', 'node:fs', 'writeFileSync', true],
  ['src/forge-dispatch/probe.ts', '../decision/context.js', 'buildContext', false],
  // @actions/github: the client and the event's context, nowhere else.
  ['src/github/client.ts', '@actions/github', 'getOctokit', false],
  ['src/common/runner.ts', '@actions/github', 'context', false],
  ['src/common/runner.ts', '@actions/core', 'info', true],
  ['src/github/probe.ts', '@actions/github', 'getOctokit', true],
  ['src/common/probe.ts', '@actions/github', 'context', true],
  ['src/forge-check/probe.ts', '@actions/github', 'context', true],
  ['src/cli/probe.ts', '@actions/github', 'getOctokit', true],
];

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'forge-lint-'));
  // The project's configuration as it is, minus the git integration (the scratch tree is no repository).
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
  config.vcs = { enabled: false };
  delete config.$schema;
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function lint(file: string, specifier: string, name: string): { failed: boolean; output: string } {
  const path = join(scratch, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `import { ${name} } from '${specifier}';\n\nexport const probe = ${name};\n`);
  try {
    const r = spawnSync(biome, ['lint', file], { cwd: scratch, encoding: 'utf8' });
    return { failed: r.status !== 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(path);
  }
}

test.each(PROBES)('%s importing %s (%s): fails the lint = %s', (file, specifier, name, mustFail) => {
  const { failed, output } = lint(file, specifier, name);
  expect({ failed, restricted: output.includes('noRestrictedImports') }).toEqual({ failed: mustFail, restricted: mustFail });
});

test('the whole source tree passes the import rules as it is', () => {
  const r = spawnSync(biome, ['lint', 'src'], { cwd: root, encoding: 'utf8' });
  expect(`${r.stdout}${r.stderr}`).not.toContain('noRestrictedImports');
  expect(r.status).toBe(0);
});

test('an import cycle fails the lint, a type-only one too (noImportCycles): the trajectory report once had a four-file circle', () => {
  const dir = join(scratch, 'src', 'forge-trajectory-report');
  mkdirSync(dir, { recursive: true });
  const files = {
    'a-probe.ts': "import type { B } from './b-probe.js';\n\nexport interface A { b: B }\nexport const a = 1;\n",
    'b-probe.ts': "import { a } from './a-probe.js';\n\nexport interface B { n: number }\nexport const b = a;\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  try {
    const r = spawnSync(biome, ['lint', 'src/forge-trajectory-report'], { cwd: scratch, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toContain('noImportCycles');
    expect(r.status).not.toBe(0);
  } finally {
    for (const name of Object.keys(files)) rmSync(join(dir, name));
  }
});
