/**
 * The forge-context action's entry, in the actions/typescript-action shape: `run()`
 * reads inputs, runs the action and reports. The dist bundle calls it; so does
 * `npx @github/local-action run actions/forge-context ../../src/forge-context/main.ts .env`.
 */
import { runDefinition } from '../common/runner.js';
import { forgeContext } from './action.js';

export async function run(): Promise<void> {
  await runDefinition(forgeContext);
}
