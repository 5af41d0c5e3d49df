/**
 * The shared runtime bundle (dist/runtime): every action's code, built once.
 * dist/<action>/index.js imports it and calls runAction with its own name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { setFailed } from './common/workflow-commands.js';

/**
 * Each action's run(), by the name of its folder under actions/. Each is a
 * chunk of its own (dist/runtime/<id>.index.js, as are the write plugins and
 * the proxy stack): a step reads and compiles only its own action's code and
 * what it shares, not the other three actions'.
 */
export const ACTIONS: Readonly<Record<string, () => Promise<void>>> = {
  'forge-check': async () => (await import('./forge-check/main.js')).run(),
  'forge-context': async () => (await import('./forge-context/main.js')).run(),
  'forge-dispatch': async () => (await import('./forge-dispatch/main.js')).run(),
  'forge-emit': async () => (await import('./forge-emit/main.js')).run(),
  'forge-trajectory-report': async () => (await import('./forge-trajectory-report/main.js')).run(),
  'gist-visibility-audit': async () => (await import('./gist-visibility-audit/main.js')).run(),
};

/**
 * Why the runner's event payload cannot be read, or null. @actions/github's
 * context parses it when the package loads, which is when an action's code
 * loads: checked first, so a payload that is not JSON is one line naming it,
 * not a stack trace.
 */
function payloadProblem(): string | null {
  const path = process.env.GITHUB_EVENT_PATH;
  if (!path || !existsSync(path)) return null;
  try {
    JSON.parse(readFileSync(path, 'utf8'));
    return null;
  } catch (err) {
    return `the event payload ${path} (GITHUB_EVENT_PATH) is not JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
}

export async function runAction(name: string): Promise<void> {
  const run = ACTIONS[name];
  if (!run) {
    process.stderr.write(`::error::unknown FORGE action "${name}"\n`);
    process.exitCode = 1;
    return;
  }
  const problem = payloadProblem();
  if (problem) {
    setFailed(`${name}: ${problem}`);
    return;
  }
  await run();
}
