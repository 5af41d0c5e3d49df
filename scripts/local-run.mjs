#!/usr/bin/env node
// Runs an action's committed bundle on this machine the way the runner does —
// inputs from a .env file (INPUT_* and the context), the action.yml defaults,
// an event payload file, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY — and shows the
// results as a person reads them: notices, warnings and errors as plain lines,
// every output as name=value, where the summary is, and a failure as its one
// line. No terminal needed (nothing prompts). forge-gate, a composite, runs as
// its step does: its inputs on forge-check with scope: pull-requests.
//
// It runs against the repository the .env names, with the token it gives: before
// a run that can write there (statuses, comments, labels, releases, gists) it
// says what, on stderr; --dry-run turns every write off (or refuses, where an
// action has no way to run without writing).
//
//   node scripts/local-run.mjs forge-check [.env] [--dry-run]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const ACTIONS = [
  'forge-check',
  'forge-context',
  'forge-dispatch',
  'forge-emit',
  'forge-gate',
  'forge-trajectory-report',
  'gist-visibility-audit',
];

const on = (v) => /^true$/i.test(String(v ?? '').trim());
const set = (v) => String(v ?? '').trim() !== '';

/**
 * What each action writes to GitHub with these inputs, and the inputs that
 * make it read only (null: it cannot run without writing).
 */
const WRITES = {
  'forge-check': (i) => ({
    writes: [on(i.INPUT_STATUS) && 'commit statuses', on(i.INPUT_COMMENT) && 'a status comment'].filter(Boolean),
    dry: { INPUT_STATUS: 'false', INPUT_COMMENT: 'false' },
  }),
  'forge-gate': (i) => ({
    writes: [on(i.INPUT_STATUS) && 'commit statuses', on(i.INPUT_COMMENT) && 'a status comment'].filter(Boolean),
    dry: { INPUT_STATUS: 'false', INPUT_COMMENT: 'false' },
  }),
  'forge-context': () => ({ writes: [], dry: {} }),
  'forge-dispatch': (i) => ({
    writes: on(i['INPUT_DRY-RUN']) ? [] : ['claim comments, workflow_dispatch events, labels'],
    dry: { 'INPUT_DRY-RUN': 'true' },
  }),
  'forge-emit': (i) => ({
    writes: on(i['INPUT_DRY-RUN']) ? [] : ['an annotation comment', set(i.INPUT_LABEL) && 'labels'].filter(Boolean),
    dry: { 'INPUT_DRY-RUN': 'true' },
  }),
  'forge-trajectory-report': (i) => ({
    writes: i.INPUT_RELEASE === 'draft' ? ['a draft release'] : [],
    dry: i.INPUT_RELEASE === 'draft' ? null : {},
  }),
  'gist-visibility-audit': (i) => ({
    writes: on(i['INPUT_DRY-RUN'])
      ? []
      : [set(i['INPUT_LABEL-ON-VIOLATION']) && 'labels', on(i.INPUT_REMEDIATE) && 'gists, comments and milestone descriptions'].filter(
          Boolean,
        ),
    dry: { 'INPUT_DRY-RUN': 'true' },
  }),
};

function fail(message) {
  process.stderr.write(`local-run: ${message}\n`);
  process.exit(2);
}

/** KEY=VALUE lines; # comments; a value may be quoted. */
function readEnvFile(path) {
  if (!existsSync(path)) fail(`${path} does not exist (see the README: Running an action locally)`);
  const out = {};
  for (const raw of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) fail(`${path}: "${line}" is not KEY=VALUE`);
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) value = value.slice(1, -1);
    out[line.slice(0, eq).trim()] = value;
  }
  return out;
}

/** The action.yml defaults, as the runner applies them; `${{ github.token }}` is the GITHUB_TOKEN the .env gives. */
function defaults(action, env) {
  const yml = YAML.parse(readFileSync(join(root, 'actions', action, 'action.yml'), 'utf8'));
  const out = {};
  for (const [name, spec] of Object.entries(yml.inputs ?? {})) {
    const v = spec.default === undefined ? '' : String(spec.default);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the runner's expression, matched as the text it is
    out[`INPUT_${name.toUpperCase()}`] = v.includes('${{ github.token }}') ? (env.GITHUB_TOKEN ?? '') : v;
  }
  return out;
}

/** A workflow command's message as a person reads it. */
const decode = (s) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');

/** name<<delimiter … delimiter and name=value entries of an output file. */
function readOutputs(text) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const value = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]);
      out.push([heredoc[1], value.join('\n')]);
    } else if (/^[^=]+=/.test(lines[i])) out.push([lines[i].slice(0, lines[i].indexOf('=')), lines[i].slice(lines[i].indexOf('=') + 1)]);
  }
  return out;
}

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const [action, envPath = '.env'] = args.filter((a) => a !== '--dry-run');
if (!ACTIONS.includes(action)) fail(`usage: node scripts/local-run.mjs <${ACTIONS.join('|')}> [.env] [--dry-run]`);
const fileEnv = readEnvFile(resolve(envPath));
if (!fileEnv.GITHUB_REPOSITORY) fail(`${envPath} must set GITHUB_REPOSITORY (owner/name)`);

const dir = mkdtempSync(join(tmpdir(), 'forge-local-'));
const output = join(dir, 'output');
const summary = join(dir, 'summary.md');
writeFileSync(output, '');
writeFileSync(summary, '');
let eventPath = fileEnv.GITHUB_EVENT_PATH;
if (!eventPath) {
  eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, '{}');
}
// forge-gate is a composite whose one step runs forge-check with scope: pull-requests.
const bundle = action === 'forge-gate' ? 'forge-check' : action;
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? dir,
  GITHUB_ACTIONS: 'true',
  GITHUB_API_URL: 'https://api.github.com',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_EVENT_NAME: 'workflow_dispatch',
  GITHUB_WORKSPACE: process.cwd(),
  RUNNER_TEMP: dir,
  ...defaults(action, fileEnv),
  ...fileEnv,
  ...(action === 'forge-gate' ? { INPUT_SCOPE: 'pull-requests' } : {}),
  GITHUB_EVENT_PATH: resolve(eventPath),
  GITHUB_OUTPUT: output,
  GITHUB_STEP_SUMMARY: summary,
};
const plan = WRITES[action](env);
if (dryRun) {
  if (plan.dry === null)
    fail(`${action} has no dry run with these inputs (it would write ${plan.writes.join(', ')}): set INPUT_RELEASE=none to see the notes`);
  Object.assign(env, plan.dry);
  process.stderr.write(`local-run: dry run: nothing is written to ${env.GITHUB_REPOSITORY}\n`);
} else if (plan.writes.length > 0)
  process.stderr.write(
    `local-run: this run writes to ${env.GITHUB_REPOSITORY} on ${env.GITHUB_API_URL} (${plan.writes.join(', ')}); pass --dry-run to read only\n`,
  );

const run = spawnSync(process.execPath, [join(root, 'dist', bundle, 'index.js')], { env, encoding: 'utf8' });
const failures = [];
for (const line of (run.stdout ?? '').split('\n')) {
  const cmd = /^::([a-z-]+)(?: [^:]*)?::(.*)$/.exec(line);
  if (!cmd) {
    if (line !== '') process.stdout.write(`${line}\n`);
    continue;
  }
  const [, name, message] = cmd;
  if (name === 'add-mask' || name === 'debug') continue;
  if (name === 'error') failures.push(decode(message));
  else process.stdout.write(`${name}: ${decode(message)}\n`);
}
if (run.stderr) process.stderr.write(run.stderr);
const outputs = readOutputs(readFileSync(output, 'utf8'));
process.stdout.write(`\noutputs (${outputs.length}):\n`);
for (const [name, value] of outputs)
  process.stdout.write(`${name}=${value.includes('\n') ? `\n  ${value.split('\n').join('\n  ')}` : value}\n`);
process.stdout.write(`\nsummary: ${readFileSync(summary, 'utf8').trim() === '' ? '(none)' : summary}\n`);
for (const f of failures) process.stdout.write(`\nfailed: ${f}\n`);
process.exit(run.status ?? 1);
