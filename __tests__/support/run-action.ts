/**
 * Runs an action's dist bundle as a child process the way the runner does:
 * INPUT_* environment, an event payload file, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files. Returns the exit code, streams, outputs and summary.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { assertFreshDist } from './fresh-dist.js';

export interface RunOptions {
  inputs?: Record<string, string>;
  event?: { name: string; payload: unknown };
  apiUrl: string;
  repository?: string;
  env?: Record<string, string>;
  workspace?: string;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
}

/** The runner's environment for one run of a workflow (its id and attempt): what a step records as its Run. */
export const runEnv = (id: string, attempt = '1') => ({
  GITHUB_SERVER_URL: 'https://github.example',
  GITHUB_RUN_ID: id,
  GITHUB_RUN_ATTEMPT: attempt,
});

export const ROOT = resolve(new URL('.', import.meta.url).pathname, '..', '..');

// Every test file that runs a bundle imports this module: check the bundles first.
assertFreshDist(ROOT);

/** Defaults from each action.yml, applied as the runner does before the step starts. */
function defaults(action: string): Record<string, string> {
  const yml = YAML.parse(readFileSync(join(ROOT, 'actions', action, 'action.yml'), 'utf8')) as {
    inputs?: Record<string, { default?: unknown }>;
  };
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(yml.inputs ?? {})) {
    const v = spec.default === undefined ? undefined : String(spec.default);
    // The runner evaluates expressions; the tests supply those inputs explicitly.
    if (v !== undefined && !v.includes('${{')) out[name] = v;
  }
  return out;
}

function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // The runner reads both forms: `name=value` on one line, and `name<<DELIMITER` … `DELIMITER`.
    const single = /^([^<=]+)=(.*)$/.exec(lines[i]);
    if (single) {
      out[single[1]] = single[2];
      continue;
    }
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]);
    out[m[1]] = value.join('\n');
  }
  return out;
}

interface Prepared {
  env: Record<string, string>;
  workspace: string;
  outputPath: string;
  summaryPath: string;
  dir: string;
}

/** The files and environment the runner gives a step. */
function prepare(action: string, opts: RunOptions): Prepared {
  const dir = mkdtempSync(join(tmpdir(), `forge-${action}-`));
  const workspace = opts.workspace ?? join(dir, 'workspace');
  const eventPath = join(dir, 'event.json');
  const outputPath = join(dir, 'output');
  const summaryPath = join(dir, 'summary.md');
  writeFileSync(eventPath, JSON.stringify(opts.event?.payload ?? {}));
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_API_URL: opts.apiUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: opts.repository ?? 'octo/repo',
    GITHUB_EVENT_NAME: opts.event?.name ?? 'workflow_dispatch',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: dir,
    ...opts.env,
  };
  return { env, workspace, outputPath, summaryPath, dir };
}

async function spawnStep(command: string, args: string[], env: Record<string, string>, cwd: string) {
  const child = spawn(command, args, { env, cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number>((res) => child.on('close', (c) => res(c ?? 1)));
  return { code, stdout, stderr };
}

export async function runBundle(action: string, opts: RunOptions): Promise<RunResult> {
  const p = prepare(action, opts);
  const env = { ...p.env };
  const inputs = { ...defaults(action), ...opts.inputs };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.replace(/ /g, '_').toUpperCase()}`] = v;
  const run = await spawnStep(
    process.execPath,
    [join(ROOT, 'dist', action, 'index.js')],
    env,
    existsSync(p.workspace) ? p.workspace : p.dir,
  );
  return {
    ...run,
    outputs: parseOutputs(readFileSync(p.outputPath, 'utf8')),
    summary: readFileSync(p.summaryPath, 'utf8'),
    workspace: p.workspace,
  };
}

interface CompositeYml {
  inputs?: Record<string, { default?: string }>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: Array<{ id?: string; run?: string; shell?: string; env?: Record<string, string>; uses?: string }> };
}

/**
 * Runs a composite action as the runner does: inputs with their defaults
 * (`github.token` from the `github-token` option), each `run:` step in bash
 * with its `env:` evaluated, GITHUB_ACTION_PATH set, and the action's outputs
 * evaluated from its steps' outputs. Only the expressions our composites use
 * are understood (inputs.*, github.token, steps.*.outputs.*); anything else fails.
 */
export async function runComposite(action: string, opts: RunOptions & { githubToken?: string }): Promise<RunResult> {
  const yml = YAML.parse(readFileSync(join(ROOT, 'actions', action, 'action.yml'), 'utf8')) as CompositeYml;
  if (yml.runs.using !== 'composite') throw new Error(`${action} is not a composite action`);
  const p = prepare(action, opts);
  const context = {
    github: { token: opts.githubToken ?? '' },
    inputs: {} as Record<string, string>,
    steps: {} as Record<string, Record<string, string>>,
  };
  const evaluate = (text: string): string =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      const [scope, ...path] = expr.split('.');
      if (scope === 'github' && path.join('.') === 'token') return context.github.token;
      if (scope === 'inputs' && path.length === 1) return context.inputs[path[0]] ?? '';
      if (scope === 'steps' && path.length === 3 && path[1] === 'outputs') return context.steps[path[0]]?.[path[2]] ?? '';
      throw new Error(`unsupported expression: ${expr}`);
    });
  for (const [name, spec] of Object.entries(yml.inputs ?? {})) context.inputs[name] = evaluate(String(spec.default ?? ''));
  Object.assign(context.inputs, opts.inputs);
  let stdout = '';
  let stderr = '';
  let code = 0;
  for (const [i, step] of yml.runs.steps.entries()) {
    if (step.run === undefined || step.shell !== 'bash') throw new Error(`step ${i + 1}: only bash run: steps are supported`);
    const output = join(p.dir, `output-${i}`);
    writeFileSync(output, '');
    const env: Record<string, string> = { ...p.env, GITHUB_OUTPUT: output, GITHUB_ACTION_PATH: join(ROOT, 'actions', action) };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = evaluate(String(v));
    const run = await spawnStep(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run],
      env,
      existsSync(p.workspace) ? p.workspace : p.dir,
    );
    stdout += run.stdout;
    stderr += run.stderr;
    if (step.id) context.steps[step.id] = parseOutputs(readFileSync(output, 'utf8'));
    code = run.code;
    if (code !== 0) break;
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(yml.outputs ?? {})) outputs[name] = evaluate(spec.value);
  return { code, stdout, stderr, outputs, summary: readFileSync(p.summaryPath, 'utf8'), workspace: p.workspace };
}
