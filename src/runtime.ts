/**
 * The shared runtime bundle (dist/runtime): every action's code, built once.
 * dist/<action>/index.js imports it and calls runAction with its own name.
 */
import { runDefinition } from './common/runner.js';
import { forgeCheck } from './forge-check/action.js';
import { forgeEmit } from './forge-emit/action.js';
import { forgeTrajectoryReport } from './forge-trajectory-report/action.js';
import { gistVisibilityAudit } from './gist-visibility-audit/action.js';

/** Each action, ready to run: a closure keeps each definition's own input type. */
export const ACTIONS: Readonly<Record<string, () => Promise<void>>> = {
  'forge-check': () => runDefinition(forgeCheck),
  'forge-emit': () => runDefinition(forgeEmit),
  'forge-trajectory-report': () => runDefinition(forgeTrajectoryReport),
  'gist-visibility-audit': () => runDefinition(gistVisibilityAudit),
};

export async function runAction(name: string): Promise<void> {
  const run = ACTIONS[name];
  if (!run) {
    process.stderr.write(`::error::unknown FORGE action "${name}"\n`);
    process.exitCode = 1;
    return;
  }
  await run();
}
