/** forge-emit — the conforming producer (spec §7.1, §11). */
import { tableCell } from '../common/markdown.js';
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { readEmitInputs, type EmitInputs } from './inputs.js';
import { runEmit, type EmitOutcome } from './logic.js';

function summary(inputs: EmitInputs, outcome: EmitOutcome): string {
  const link = outcome.commentUrl ? `[comment ${outcome.commentId}](${outcome.commentUrl})` : '—';
  return [
    `## forge-emit: \`${inputs.type}\` — ${outcome.result}`,
    '',
    '| Type | Status | Target | Result | Comment | Label |',
    '|---|---|---|---|---|---|',
    `| \`${inputs.type}\` | ${inputs.status} | ${outcome.target} | ${outcome.result} | ${link} | ${outcome.label ? '`' + outcome.label + '`' : '—'} |`,
    '',
    `${inputs.dryRun ? 'Plan (dry run, nothing written)' : 'Steps'}:`,
    '',
    ...outcome.actions.map((a) => `- ${tableCell(a)}`),
    '',
  ].join('\n');
}

export const forgeEmit: ActionDefinition<EmitInputs> = {
  name: 'forge-emit',
  secrets: ['github-token'],
  readInputs: readEmitInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    const outcome = await runEmit(gh, inputs);
    for (const a of outcome.actions) log(`${inputs.dryRun ? '[dry-run] ' : ''}${a}`);
    return {
      outputs: {
        'comment-id': outcome.commentId ?? '',
        'comment-url': outcome.commentUrl,
        annotation: inputs.text,
        result: outcome.result,
        label: outcome.label,
      },
      summary: summary(inputs, outcome),
      failure: null,
      warnings: inputs.warnings,
    };
  },
};
