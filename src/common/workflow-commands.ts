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

/** An input as the runner passes it: `INPUT_` and the name in upper case, spaces as `_`; trimmed. */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** A command's message: `%`, CR and LF are escaped, so a message can never start a command line of its own. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function command(name: string, message: string): void {
  process.stdout.write(`::${name}::${escapeData(message)}\n`);
}

export function info(message: string): void {
  process.stdout.write(`${message}\n`);
}

export const debug = (message: string): void => command('debug', message);
export const notice = (message: string): void => command('notice', message);
export const warning = (message: string): void => command('warning', message);
export const error = (message: string): void => command('error', message);

/** The value is masked in every later log line. */
export const setSecret = (value: string): void => command('add-mask', value);

/**
 * One output, appended to GITHUB_OUTPUT as a heredoc whose delimiter is random
 * (so no value can end it early). Without the file, the older stdout command.
 */
export function setOutput(name: string, value: string): void {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) {
    process.stdout.write(`::set-output name=${name}::${escapeData(value)}\n`);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || value.includes(delimiter)) throw new Error('an output holds its own delimiter');
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`, 'utf8');
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
