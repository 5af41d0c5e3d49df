/**
 * The shared runtime bundle (dist/runtime): every action's code, built once.
 * dist/<action>/index.js imports it and calls runAction with its own name.
 */
import { runDefinition, type ActionDefinition } from './common/runner.js';
import { forgeCheck } from './forge-check/action.js';
import { forgeEmit } from './forge-emit/action.js';
import { forgeTrajectoryReport } from './forge-trajectory-report/action.js';
import { gistVisibilityAudit } from './gist-visibility-audit/action.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ACTIONS: Record<string, ActionDefinition<any>> = {
  'forge-check': forgeCheck,
  'forge-emit': forgeEmit,
  'forge-trajectory-report': forgeTrajectoryReport,
  'gist-visibility-audit': gistVisibilityAudit,
};

export async function runAction(name: string): Promise<void> {
  const def = ACTIONS[name];
  if (!def) {
    process.stderr.write(`::error::unknown FORGE action "${name}"\n`);
    process.exitCode = 1;
    return;
  }
  await runDefinition(def);
}
