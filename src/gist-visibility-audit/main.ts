/**
 * The gist-visibility-audit action's entry, in the actions/typescript-action shape: `run()`
 * reads inputs, runs the action and reports. The dist bundle calls it; so does
 * `npx @github/local-action run actions/gist-visibility-audit ../../src/gist-visibility-audit/main.ts .env`.
 */
import { runDefinition } from '../common/runner.js';
import { gistVisibilityAudit } from './action.js';

export async function run(): Promise<void> {
  await runDefinition(gistVisibilityAudit);
}
