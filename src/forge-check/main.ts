/**
 * The forge-check action's entry, in the actions/typescript-action shape: `run()`
 * reads inputs, runs the action and reports. The dist bundle calls it; so does
 * `npx @github/local-action run actions/forge-check ../../src/forge-check/main.ts .env`.
 */
import { runDefinition } from '../common/runner.js';
import { forgeCheck } from './action.js';

export async function run(): Promise<void> {
  await runDefinition(forgeCheck);
}
