/** forge-check — the conformance gate (spec §7): inputs → logic → outputs and summary. */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { readCheckInputs, type CheckInputs } from './inputs.js';
import { runCheck } from './logic.js';
import { checkOutputs, markdownReport } from './render.js';

export const forgeCheck: ActionDefinition<CheckInputs> = {
  name: 'forge-check',
  secrets: ['github-token'],
  readInputs: readCheckInputs,
  async execute(inputs, _event, log) {
    const result = await runCheck(createClient(inputs.token, { log }), inputs);
    const failing = !result.conforming;
    return {
      outputs: checkOutputs(result),
      summary: markdownReport(result),
      failure: failing && inputs.failOnViolation ? `FORGE conformance failed: ${result.problems.join('; ')}` : null,
      warnings: [...result.notes, ...(failing && !inputs.failOnViolation ? result.problems : [])],
    };
  },
};
