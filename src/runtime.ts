/**
 * The shared runtime bundle (dist/runtime): every action's code, built once.
 * dist/<action>/index.js imports it and calls runAction with its own name.
 */
import { run as forgeCheck } from './forge-check/main.js';
import { run as forgeEmit } from './forge-emit/main.js';
import { run as forgeTrajectoryReport } from './forge-trajectory-report/main.js';
import { run as gistVisibilityAudit } from './gist-visibility-audit/main.js';

/** Each action's run(), by the name of its folder under actions/. */
export const ACTIONS: Readonly<Record<string, () => Promise<void>>> = {
  'forge-check': forgeCheck,
  'forge-emit': forgeEmit,
  'forge-trajectory-report': forgeTrajectoryReport,
  'gist-visibility-audit': gistVisibilityAudit,
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
