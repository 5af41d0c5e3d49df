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
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]);
    out[m[1]] = value.join('\n');
  }
  return out;
}

export async function runBundle(action: string, opts: RunOptions): Promise<RunResult> {
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
  const inputs = { ...defaults(action), ...opts.inputs };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.replace(/ /g, '_').toUpperCase()}`] = v;
  const child = spawn(process.execPath, [join(ROOT, 'dist', action, 'index.js')], { env, cwd: existsSync(workspace) ? workspace : dir });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number>((res) => child.on('close', (c) => res(c ?? 1)));
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(outputPath, 'utf8')),
    summary: readFileSync(summaryPath, 'utf8'),
    workspace,
  };
}
