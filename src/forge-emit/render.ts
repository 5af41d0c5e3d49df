/** forge-emit's outputs and job summary. */
import { inert } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import type { EmitStepInputs } from './inputs.js';
import type { EmitOutcome } from './logic.js';

/** The step's outputs, as action.yml declares them. */
export const OUTPUTS = ['comment-id', 'comment-url', 'annotation', 'result', 'label'] as const;

export function emitOutputs(
  inputs: EmitStepInputs,
  outcome: EmitOutcome,
): Record<(typeof OUTPUTS)[number], ActionResult['outputs'][string]> {
  return {
    'comment-id': outcome.commentId ?? '',
    'comment-url': outcome.commentUrl,
    annotation: inputs.text,
    result: outcome.result,
    label: outcome.label,
  };
}

export function emitSummary(inputs: EmitStepInputs, outcome: EmitOutcome): string {
  const link = outcome.commentUrl ? `[comment ${outcome.commentId}](${outcome.commentUrl})` : '—';
  return [
    `## forge-emit: \`${inputs.type}\` — ${outcome.result}`,
    '',
    '| Type | Status | Target | Result | Comment | Label |',
    '|---|---|---|---|---|---|',
    `| \`${inputs.type}\` | ${inputs.status} | ${inert(outcome.where)} | ${outcome.result} | ${link} | ${outcome.label ? `\`${outcome.label}\`` : '—'} |`,
    '',
    `${inputs.dryRun ? 'Plan (dry run, nothing written)' : 'Steps'}:`,
    '',
    ...outcome.steps.map((a) => `- ${inert(a)}`),
    '',
  ].join('\n');
}
