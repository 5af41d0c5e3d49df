/** forge-emit — the conforming producer (spec §7.1, §11): inputs → logic → outputs and summary. */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { readEmitInputs, type EmitStepInputs } from './inputs.js';
import { runEmit } from './logic.js';
import { emitOutputs, emitSummary } from './render.js';

export const forgeEmit: ActionDefinition<EmitStepInputs> = {
  name: 'forge-emit',
  secrets: ['github-token'],
  readInputs: readEmitInputs,
  async execute(inputs, _event, log) {
    const outcome = await runEmit(createClient(inputs.token, { log }), inputs);
    for (const step of outcome.steps) log(`${inputs.dryRun ? '[dry-run] ' : ''}${step}`);
    return { outputs: emitOutputs(inputs, outcome), summary: emitSummary(inputs, outcome), failure: null, warnings: inputs.warnings };
  },
};
