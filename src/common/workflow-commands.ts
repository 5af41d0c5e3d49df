/**
 * The runner's side of a JavaScript action, as GitHub documents it: inputs in
 * `INPUT_<NAME>` variables, outputs and the job summary appended to the files
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY name, and `::command::` lines on
 * stdout for masks, annotations and debug lines. Written here rather than
 * taken from @actions/core, whose OIDC client pulls an HTTP stack (undici)
 * into every step's cold start; the runner (common/runner.ts) is its only user.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';

/** An input as the runner passes it: `INPUT_` and the name in upper case, spaces as `_`; trimmed. */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** A command's message: `%`, CR and LF are escaped, so a message can never start a command line of its own. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Text from GitHub (titles, file names, bodies, logins) reaches the log inside
 * our lines: the runner reads `##[command]` anywhere in a line and `::command::`
 * at a line's start. A zero-width space between the marks folds both, in every
 * line this module writes, so no text read from GitHub becomes a runner
 * command. The text still reads the same.
 */
export function fold(text: string): string {
  return text.replace(/##\[/g, '#\u200b#[').replace(/^(\s*):(?=:)/gm, '$1:\u200b');
}

function command(name: string, message: string): void {
  process.stdout.write(`::${name}::${escapeData(fold(message))}\n`);
}

export function info(message: string): void {
  process.stdout.write(`${fold(message)}\n`);
}

export const debug = (message: string): void => command('debug', message);
export const notice = (message: string): void => command('notice', message);
export const warning = (message: string): void => command('warning', message);
export const error = (message: string): void => command('error', message);

/** The value is masked in every later log line (never folded: the mask must match the secret exactly). */
export const setSecret = (value: string): void => {
  process.stdout.write(`::add-mask::${escapeData(value)}\n`);
};

/** An output's name as GitHub accepts one: letters, digits, `-` and `_`, starting with a letter or `_`. */
const OUTPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * One output, appended to GITHUB_OUTPUT as a heredoc whose delimiter is random
 * (so no value can end it early). Without the file, the older stdout command.
 */
export function setOutput(name: string, value: string): void {
  if (!OUTPUT_NAME.test(name)) throw new Error(`${JSON.stringify(name)} is not an output name`);
  const file = process.env.GITHUB_OUTPUT;
  if (!file) {
    process.stdout.write(`::set-output name=${name}::${escapeData(value)}\n`);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (value.includes(delimiter)) throw new Error('an output holds its own delimiter');
  // The runner splits the file on the platform's line end: framed with it, a value's own trailing CR survives on Windows.
  appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
}

/** Markdown appended to the job summary, when the runner gives a summary file. */
export function appendSummary(markdown: string): void {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, `${markdown}\n`, 'utf8');
}

/** The step fails with this message (exit code 1), after everything else is written. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}
