/**
 * The runner's side of a JavaScript action, through @actions/core — the
 * toolkit every action and reviewer already trusts, and the module
 * @github/local-action stands in for when an action is run locally: inputs
 * (`INPUT_<NAME>`), outputs and the job summary (the GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files), masks, annotations, debug lines, and a failed
 * step. Only a raw log line (info) is folded: text from GitHub printed as a
 * plain line is the one place the runner could read it as a command.
 */
import * as core from '@actions/core';

/** An input as the runner passes it: `INPUT_` and the name in upper case, spaces as `_`; trimmed. */
export function getInput(name: string): string {
  return core.getInput(name);
}

/**
 * Text from GitHub (titles, file names, bodies, logins) reaches the log inside
 * plain lines: the runner reads `::command::` at a line's start and `##[` in
 * a line. A zero-width space between the marks folds both, so no text read
 * from GitHub becomes a runner command in a plain line. The text still reads
 * the same. Annotations need none: @actions/core escapes their line breaks,
 * so their text can never start a line of its own.
 */
export function fold(text: string): string {
  return text.replace(/##\[/g, '#\u200b#[').replace(/^(\s*):(?=:)/gm, '$1:\u200b');
}

export function info(message: string): void {
  core.info(fold(message));
}

export const debug = (message: string): void => core.debug(message);
export const notice = (message: string): void => core.notice(message);
export const warning = (message: string): void => core.warning(message);
export const error = (message: string): void => core.error(message);

/** The value is masked in every later log line. */
export const setSecret = (value: string): void => core.setSecret(value);

/** An output's name as GitHub accepts one: letters, digits, `-` and `_`, starting with a letter or `_`. */
const OUTPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** One output (GITHUB_OUTPUT, as a heredoc with a random delimiter: no value can end it early). */
export function setOutput(name: string, value: string): void {
  if (!OUTPUT_NAME.test(name)) throw new Error(`${JSON.stringify(name)} is not an output name`);
  core.setOutput(name, value);
}

/** Markdown appended to the job summary, when the runner gives a summary file. */
export async function appendSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  await core.summary.addRaw(`${markdown}\n`).write();
}

/** The step fails with this message (exit code 1), after everything else is written. */
export function setFailed(message: string): void {
  core.setFailed(message);
}
