/**
 * The one place an action meets the Actions runtime: read inputs, run the
 * logic, write outputs and the job summary, and own the single setFailed.
 * User mistakes and API failures become one line; nothing prints a token.
 */
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

export async function runDefinition<I>(def: ActionDefinition<I>): Promise<void> {
  try {
    for (const s of def.secrets ?? []) {
      const v = core.getInput(s);
      if (v) core.setSecret(v);
    }
    const event = eventInfo();
    const inputs = def.readInputs((name) => core.getInput(name), event);
    const result = await def.execute(inputs, event, (s) => core.info(s));
    for (const [k, v] of Object.entries(result.outputs)) core.setOutput(k, String(v));
    for (const n of result.notices ?? []) core.notice(n);
    for (const w of result.warnings ?? []) core.warning(w);
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
