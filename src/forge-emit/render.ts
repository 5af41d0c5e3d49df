/** forge-emit's outputs and job summary; a write that happened never fails the step, and the emitter's warnings are warnings. */
import { inert, linkTarget } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import type { Composed } from '../common/compose-annotation.js';
import type { EmitStepInputs } from './inputs.js';
import type { EmitOutcome } from './logic.js';

/** The step's outputs, as action.yml declares them. */
export const OUTPUTS = ['comment-id', 'comment-url', 'annotation', 'result', 'label'] as const;

function emitOutputs(annotation: Composed, outcome: EmitOutcome): Record<(typeof OUTPUTS)[number], ActionResult['outputs'][string]> {
  return {
    'comment-id': outcome.commentId ?? '',
    'comment-url': outcome.commentUrl,
    annotation: annotation.text,
    result: outcome.result,
    label: outcome.label,
  };
}

function emitSummary(inputs: EmitStepInputs, outcome: EmitOutcome): string {
  const link = outcome.commentUrl ? `[comment ${outcome.commentId}](${linkTarget(outcome.commentUrl)})` : '—';
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

export function emitResult(inputs: EmitStepInputs, annotation: Composed, outcome: EmitOutcome): ActionResult {
  return {
    outputs: emitOutputs(annotation, outcome),
    summary: emitSummary(inputs, outcome),
    failure: null,
    warnings: [...annotation.warnings, ...(outcome.untrustedWriter ? [outcome.untrustedWriter] : [])],
  };
}
