/**
 * A workflow file run as GitHub's runner runs it, far enough for the docs'
 * pipeline: each job's `if:`, then its steps in order — `if:` (with the
 * status functions success(), failure(), always(), cancelled()), `with:` and
 * `env:` evaluated by GitHub's own expression engine (@actions/expressions)
 * over the github, inputs, vars, secrets, env and steps contexts. Our actions
 * run from their bundles (forge-gate, a composite, through its steps);
 * actions/checkout gives the job a workspace; create-github-app-token gives
 * the agent App's token; a `run:` step is handed to the test's scripted agent.
 * Anything else fails the run: an unknown step is never skipped silently.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { data, Evaluator, Lexer, Parser } from '@actions/expressions';
import { truthy } from '@actions/expressions/result';
import YAML from 'yaml';
import { runBundle, runComposite, type RunResult } from './run-action.js';

type Json = Record<string, unknown>;

export interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

export interface Workflow {
  name: string;
  on: unknown;
  jobs: Record<string, { if?: string; steps: Step[] }>;
}

/** What a `run:` step (the agent) did: its exit code and the outputs it wrote. */
export interface RunStepResult {
  code: number;
  outputs?: Record<string, string>;
}

export interface RunContext {
  apiUrl: string;
  repository: string;
  /** The workflow token (github.token). */
  token: string;
  /** What create-github-app-token gives. */
  appToken: string;
  event: { name: string; payload: Json };
  inputs?: Record<string, string>;
  vars?: Record<string, string>;
  runId: string;
  /** A `run:` step: the agent, scripted by the test. */
  run: (step: Step, env: Record<string, string>, workspace: string) => Promise<RunStepResult>;
  /** What actions/checkout leaves: the workspace folder (default: an empty one). */
  checkout?: () => string;
}

export interface StepRecord {
  job: string;
  step: string;
  /** success, failure, or skipped. */
  outcome: string;
  result?: RunResult;
}

const STATUS = ['success', 'failure', 'always', 'cancelled'];

function evaluate(expr: string, context: Json, failed: boolean): data.ExpressionData {
  const lexed = new Lexer(expr).lex();
  const parsed = new Parser(
    lexed.tokens,
    Object.keys(context),
    STATUS.map((name) => ({ name, minArgs: 0, maxArgs: 0 })),
  ).parse();
  const fns = new Map(
    STATUS.map((name) => [
      name,
      {
        name,
        minArgs: 0,
        maxArgs: 0,
        call: () => new data.BooleanData(name === 'always' ? true : name === 'failure' ? failed : name === 'success' ? !failed : false),
      },
    ]),
  );
  const root = JSON.parse(JSON.stringify(context), data.reviver) as data.Dictionary;
  return new Evaluator(parsed, root, fns).evaluate();
}

/** `${{ … }}` inside a string, each replaced by its value as a string. */
function interpolate(text: string, context: Json, failed: boolean): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => evaluate(expr.trim(), context, failed).coerceString());
}

/** An `if:` — a bare expression or one wrapped in `${{ }}`; with no status function, success() && it. */
function condition(text: string | undefined, context: Json, failed: boolean): boolean {
  const expr = (text ?? 'success()').trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  const withStatus = STATUS.some((f) => new RegExp(`\\b${f}\\(`).test(expr)) ? expr : `success() && (${expr})`;
  return truthy(evaluate(withStatus, context, failed));
}

const OURS = /^OWNER\/forge-actions\/actions\/([a-z0-9-]+)@v1$/;

export function parseWorkflow(text: string): Workflow {
  return YAML.parse(text) as Workflow;
}

/** Runs every job of the workflow whose `if:` holds; the steps, in order, with what each did. */
export async function runWorkflow(workflow: Workflow, ctx: RunContext): Promise<StepRecord[]> {
  const records: StepRecord[] = [];
  for (const [jobName, job] of Object.entries(workflow.jobs)) {
    const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
    const context: Json = {
      github: {
        event_name: ctx.event.name,
        event: ctx.event.payload,
        token: ctx.token,
        repository: ctx.repository,
        run_id: ctx.runId,
        server_url: 'https://github.example',
      },
      inputs: ctx.inputs ?? {},
      vars: ctx.vars ?? {},
      secrets: { FORGE_AGENT_PRIVATE_KEY: 'a key' },
      env: {},
      steps,
    };
    if (!condition(job.if, context, false)) continue;
    let failed = false;
    let workspace = '';
    const env = {
      GITHUB_RUN_ID: ctx.runId,
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SERVER_URL: 'https://github.example',
    };
    for (const [i, step] of job.steps.entries()) {
      const name = step.id ?? step.name ?? step.uses ?? `step ${i + 1}`;
      context.steps = steps;
      if (!condition(step.if, context, failed)) {
        if (step.id) steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
        records.push({ job: jobName, step: name, outcome: 'skipped' });
        continue;
      }
      const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v), context, failed)]));
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(String(v), context, failed)]));
      let outputs: Record<string, string> = {};
      let code = 0;
      let result: RunResult | undefined;
      const ours = step.uses ? OURS.exec(step.uses)?.[1] : undefined;
      if (step.uses?.startsWith('actions/checkout@')) workspace = ctx.checkout ? ctx.checkout() : mkdtempSync(join(tmpdir(), 'forge-job-'));
      else if (step.uses?.startsWith('actions/create-github-app-token@')) outputs = { token: ctx.appToken };
      else if (ours === 'forge-gate') {
        result = await runComposite('forge-gate', {
          apiUrl: ctx.apiUrl,
          repository: ctx.repository,
          githubToken: ctx.token,
          inputs: withs,
          env: { ...env, ...stepEnv },
          event: ctx.event,
        });
      } else if (ours) {
        result = await runBundle(ours, {
          apiUrl: ctx.apiUrl,
          repository: ctx.repository,
          workspace: workspace || undefined,
          event: ctx.event,
          env: { ...env, ...stepEnv },
          inputs: { 'github-token': ctx.token, ...withs },
        });
      } else if (step.run !== undefined) {
        const ran = await ctx.run(step, stepEnv, workspace);
        code = ran.code;
        outputs = ran.outputs ?? {};
      } else throw new Error(`${workflow.name}: step ${name} (${step.uses}) is not one this runner knows`);
      if (result) {
        code = result.code;
        outputs = result.outputs;
      }
      const outcome = code === 0 ? 'success' : 'failure';
      if (step.id) steps[step.id] = { outputs, outcome, conclusion: outcome };
      records.push({ job: jobName, step: name, outcome, result });
      if (code !== 0) failed = true;
    }
  }
  return records;
}
