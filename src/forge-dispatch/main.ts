/**
 * The forge-dispatch action's entry, in the actions/typescript-action shape:
 * `run()` reads inputs, runs the action and reports. The dist bundle calls it.
 */
import { runDefinition } from '../common/runner.js';
import { forgeDispatch } from './action.js';

export async function run(): Promise<void> {
  await runDefinition(forgeDispatch);
}
