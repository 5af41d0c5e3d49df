/**
 * The one place an action meets the Actions runtime: read inputs, run the
 * logic, write outputs and the job summary, and own the single setFailed.
 * User mistakes and API failures become one line; nothing prints a token.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { context } from '@actions/github';
import type { EventInfo } from './event.js';
import type { Getter } from './inputs.js';
import { UsageError } from './errors.js';
import * as core from './workflow-commands.js';

export interface ActionResult {
  outputs: Record<string, string | number | boolean>;
  summary: string;
  /** A failure to report after outputs and summary are written; null for success. */
  failure: string | null;
  notices?: string[];
  warnings?: string[];
}

export interface ActionDefinition<I> {
  name: string;
  readInputs: (get: Getter, event: EventInfo) => I;
  execute: (inputs: I, event: EventInfo, log: (s: string) => void) => Promise<ActionResult>;
  /** Inputs that hold secrets: masked in logs. */
  secrets?: string[];
}

/**
 * The event, as @actions/github's context reads it: the webhook payload the
 * runner saved (runtime.ts made sure it is JSON), the event's name.
 */
function eventInfo(): EventInfo {
  const payload: unknown = context.payload;
  return {
    name: context.eventName ?? '',
    payload: typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {},
    repository: process.env.GITHUB_REPOSITORY ?? '',
    workspace: process.env.GITHUB_WORKSPACE ?? process.cwd(),
  };
}

/** The message on one line: line breaks folded, never cut, so it always names what it is about. */
function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ⏎ ');
}

/** GitHub refuses a job summary over 1 MiB; stay well under it, cutting at a line end (the verdict comes first). */
export const MAX_SUMMARY_BYTES = 1_000_000;

export function capSummary(summary: string): string {
  if (Buffer.byteLength(summary, 'utf8') <= MAX_SUMMARY_BYTES) return summary;
  const kept: string[] = [];
  let bytes = 0;
  for (const line of summary.split('\n')) {
    bytes += Buffer.byteLength(line, 'utf8') + 1;
    if (bytes > MAX_SUMMARY_BYTES - 200) break;
    kept.push(line);
  }
  return `${kept.join('\n')}\n\n… the summary was cut here to stay under GitHub's 1 MiB limit; the step's outputs hold everything.\n`;
}

/**
 * The most one output carries: 64 KiB as UTF-8 and as UTF-16 alike. GitHub counts a job's outputs (1 MB in all) in
 * UTF-16, and a value passed through `env:` is one string of the process environment, which Linux caps at 128 KiB.
 */
export const MAX_OUTPUT_BYTES = 65_536;

const outputBytes = (v: string) => Math.max(Buffer.byteLength(v, 'utf8'), v.length * 2);

/**
 * An output cut to what a job output and an `env:` value can carry: a JSON array keeps the entries that fit, in
 * order; other text is cut at a line end. Null when it fits; otherwise the value and what was left out.
 */
export function capOutput(value: string): { value: string; left: string } | null {
  if (outputBytes(value) <= MAX_OUTPUT_BYTES) return null;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = null;
  }
  if (Array.isArray(parsed)) {
    // The longest prefix that fits (binary search: each entry's JSON is re-joined once per probe).
    let lo = 0;
    let hi = parsed.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (outputBytes(JSON.stringify(parsed.slice(0, mid))) <= MAX_OUTPUT_BYTES) lo = mid;
      else hi = mid - 1;
    }
    return { value: JSON.stringify(parsed.slice(0, lo)), left: `${parsed.length - lo} of ${parsed.length} entries` };
  }
  if (parsed !== null && typeof parsed === 'object') {
    // An object (a repository report) keeps its shape: its largest list keeps the entries that fit (failing first),
    // and `omitted` says how many were left out of which list.
    const obj = parsed as Record<string, unknown>;
    const lists = Object.entries(obj).filter((e): e is [string, unknown[]] => Array.isArray(e[1]));
    const [field, list] = lists.sort((a, b) => JSON.stringify(b[1]).length - JSON.stringify(a[1]).length)[0] ?? ['', []];
    const shaped = (n: number) => JSON.stringify({ ...obj, [field]: list.slice(0, n), omitted: { field, count: list.length - n } });
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (outputBytes(shaped(mid)) <= MAX_OUTPUT_BYTES) lo = mid;
      else hi = mid - 1;
    }
    if (field !== '' && outputBytes(shaped(lo)) <= MAX_OUTPUT_BYTES)
      return { value: shaped(lo), left: `${list.length - lo} of ${list.length} entries of ${field}` };
    return { value: JSON.stringify({ omitted: { field: '*', count: 1 } }), left: 'the whole value' };
  }
  const kept: string[] = [];
  let bytes = 0;
  for (const line of value.split('\n')) {
    bytes += outputBytes(line) + 2;
    if (bytes > MAX_OUTPUT_BYTES - 512) break;
    kept.push(line);
  }
  const text = kept.join('\n');
  return { value: text, left: `${value.length - text.length} of ${value.length} characters` };
}

/** Each output within bounds; the whole of one that was cut goes to a file under RUNNER_TEMP, and a warning says so. */
function writeOutputs(action: string, outputs: ActionResult['outputs']): string[] {
  const warnings: string[] = [];
  for (const [k, raw] of Object.entries(outputs)) {
    const v = String(raw);
    const cut = capOutput(v);
    if (cut === null) {
      core.setOutput(k, v);
      continue;
    }
    core.setOutput(k, cut.value);
    let where = '';
    try {
      const dir = join(process.env.RUNNER_TEMP || process.cwd(), 'forge-outputs');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${action}-${k}.txt`);
      writeFileSync(file, v);
      where = `; the whole is in ${file}`;
    } catch {
      where = '; the whole could not be written to a file';
    }
    warnings.push(
      `output ${k} is cut to ${MAX_OUTPUT_BYTES / 1024} KiB (what a job output and an env: value can carry): ${cut.left} left out${where}`,
    );
  }
  return warnings;
}

export async function runDefinition<I>(def: ActionDefinition<I>): Promise<void> {
  try {
    for (const s of def.secrets ?? []) {
      const v = core.getInput(s);
      if (v) core.setSecret(v);
    }
    const event = eventInfo();
    const inputs = def.readInputs((name) => core.getInput(name), event);
    const result = await def.execute(inputs, event, (s) => core.info(s));
    const cut = writeOutputs(def.name, result.outputs);
    for (const n of result.notices ?? []) core.notice(n);
    for (const w of [...(result.warnings ?? []), ...cut]) core.warning(w);
    if (result.summary) await core.appendSummary(capSummary(result.summary));
    if (result.failure) core.setFailed(result.failure);
  } catch (err) {
    if (!(err instanceof UsageError)) core.debug(err instanceof Error && err.stack ? err.stack : String(err));
    const message = `${def.name}: ${oneLine(err)}`;
    try {
      // The summary says why the step stopped, not only the log.
      await core.appendSummary(capSummary(`## ${def.name} failed\n\n${message.replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))}\n`));
    } catch {
      // A summary that cannot be written does not hide the failure.
    }
    core.setFailed(message);
  }
}
