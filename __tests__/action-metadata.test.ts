/**
 * Each action.yml and the code agree: input names are the schema's, every
 * default written in action.yml parses to what the code uses when the input is
 * empty (so defaults live in one place), and output names are the ones the
 * action writes. The runtime knows exactly the actions under actions/.
 */
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import type { Parser } from '../src/common/inputs.js';
import * as check from '../src/forge-check/inputs.js';
import * as checkRender from '../src/forge-check/render.js';
import * as dispatch from '../src/forge-dispatch/inputs.js';
import * as dispatchRender from '../src/forge-dispatch/render.js';
import * as emit from '../src/forge-emit/inputs.js';
import * as emitRender from '../src/forge-emit/render.js';
import * as report from '../src/forge-trajectory-report/inputs.js';
import * as reportRender from '../src/forge-trajectory-report/render.js';
import * as audit from '../src/gist-visibility-audit/inputs.js';
import * as auditRender from '../src/gist-visibility-audit/render.js';
import { ACTIONS } from '../src/runtime.js';

const ROOT = join(new URL('.', import.meta.url).pathname, '..');

interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, unknown>;
  runs: { using: string; main?: string };
}

const read = (name: string): ActionYml => YAML.parse(readFileSync(join(ROOT, 'actions', name, 'action.yml'), 'utf8'));

const CASES: Array<[string, Record<string, { input: string; parse: Parser<unknown> }>, readonly string[]]> = [
  ['forge-check', check.SCHEMA, checkRender.OUTPUTS],
  ['forge-dispatch', dispatch.SCHEMA, dispatchRender.OUTPUTS],
  ['forge-emit', emit.SCHEMA, emitRender.OUTPUTS],
  ['forge-trajectory-report', report.SCHEMA, reportRender.OUTPUTS],
  ['gist-visibility-audit', audit.SCHEMA, auditRender.OUTPUTS],
];

describe.each(CASES)('%s', (name, schema, outputs) => {
  const yml = read(name);
  const entries = Object.values(schema);

  test("action.yml declares exactly the schema's inputs", () => {
    expect(Object.keys(yml.inputs).sort()).toEqual(entries.map((e) => e.input).sort());
  });

  test('every action.yml default means what the code does with an empty input', () => {
    for (const { input, parse } of entries) {
      const declared = yml.inputs[input];
      if (declared.required) {
        expect(() => parse('', input)).toThrow(`input "${input}" is required`);
        continue;
      }
      const def = declared.default ?? '';
      // Expression defaults (github-token: ${{ github.token }}) are the runner's to fill in.
      if (def.includes('${{')) continue;
      expect([input, parse(def, input)]).toEqual([input, parse('', input)]);
    }
  });

  test('action.yml declares exactly the outputs the action writes', () => {
    expect(Object.keys(yml.outputs).sort()).toEqual([...outputs].sort());
  });

  test('it runs on node24 from its dist entry', () => {
    expect(yml.runs).toEqual({ using: 'node24', main: `../../dist/${name}/index.js` });
  });
});

test('the runtime runs exactly the JavaScript actions under actions/', () => {
  const js = readdirSync(join(ROOT, 'actions')).filter((n) => read(n).runs.using.startsWith('node'));
  expect(Object.keys(ACTIONS).sort()).toEqual(js.sort());
});

test('local-action resolves `src/<action>/main.ts` from each action folder to the real entry, which exports run()', () => {
  // `npx @github/local-action run actions/<action> src/<action>/main.ts .env` resolves the entry from the action's
  // folder; actions/<action>/src links to the repository's src/ so that the short path works.
  const js = readdirSync(join(ROOT, 'actions')).filter((n) => read(n).runs.using.startsWith('node'));
  for (const name of js) {
    const viaAction = join(ROOT, 'actions', name, 'src', name, 'main.ts');
    expect([name, realpathSync(viaAction)]).toEqual([name, realpathSync(join(ROOT, 'src', name, 'main.ts'))]);
    expect(readFileSync(viaAction, 'utf8')).toMatch(/export async function run\(\): Promise<void>/);
  }
});

test("forge-gate: each input is forge-check's, reaches the bundle through env: only, and each output is forge-check's", () => {
  const gate = YAML.parse(readFileSync(join(ROOT, 'actions', 'forge-gate', 'action.yml'), 'utf8')) as {
    inputs: Record<string, unknown>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: Array<{ run: string; env: Record<string, string> }> };
  };
  const check = read('forge-check');
  expect(gate.runs.using).toBe('composite');
  const [step] = gate.runs.steps;
  for (const name of Object.keys(gate.inputs)) {
    expect([name, name in check.inputs]).toEqual([name, true]);
    const envName = Object.entries(step.env).find(([, v]) => v === `\${{ inputs.${name} }}`)?.[0];
    expect([name, envName !== undefined]).toEqual([name, true]);
    expect(step.run).toContain(`"INPUT_${name.toUpperCase()}=$${envName}"`);
  }
  expect(step.run).toContain('node "$GITHUB_ACTION_PATH/../../dist/forge-check/index.js"');
  for (const [name, spec] of Object.entries(gate.outputs)) {
    expect(spec.value).toBe(`\${{ steps.check.outputs.${name} }}`);
    expect([name, name in check.outputs]).toEqual([name, true]);
  }
});
