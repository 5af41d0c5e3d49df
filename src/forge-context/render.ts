/**
 * forge-context's outputs and job summary. The reader never fails the step
 * for what the chain holds — a missing or partial stage is what next-phase
 * and stalled report — only for what it could not do (the runner's error line).
 */
import { inert, linkTarget } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import type { StageEntry } from '../decision/context.js';
import type { ContextInputs } from './inputs.js';
import type { ContextOutcome } from './logic.js';

/** The step's outputs, as action.yml declares them. */
export const OUTPUTS = ['context-file', 'digest', 'next-phase', 'next-reason', 'state', 'stages', 'stalled'] as const;

/** What a job reads from `stages` and `stalled`: the documented fields, in a fixed order. */
function entryJson(e: StageEntry): Record<string, unknown> {
  return {
    type: e.type,
    status: e.status,
    url: e.url,
    author: e.author,
    createdAt: e.createdAt,
    item: e.item,
    scope: e.scope,
    ...(e.domain !== undefined ? { domain: e.domain } : {}),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    ...(e.valid !== undefined ? { valid: e.valid, errors: e.errors ?? [] } : {}),
    ...(e.contextDigest ? { contextDigest: e.contextDigest } : {}),
    ...(e.gists !== undefined ? { gists: e.gists } : {}),
  };
}

export function stagesJson(entries: readonly StageEntry[]): string {
  return JSON.stringify(entries.map(entryJson));
}

const STATUS_ICON: Record<string, string> = {
  included: '✅',
  superseded: '↩️',
  partial: '⏸️',
  interrupted: '⚠️',
  untrusted: '🚫',
  missing: '➖',
};

function summary(inputs: ContextInputs, outcome: ContextOutcome, file: string): string {
  const { result, snapshot } = outcome;
  const rows = result.stages.map((e) => {
    const where = e.url ? `[${e.scope === 'parent' ? 'parent ' : ''}#${e.item}](${linkTarget(e.url)})` : '—';
    const drift = e.gists === 'changed' ? ' · gists changed since' : '';
    return `| ${e.type}${e.domain ? ` (${inert(e.domain)})` : ''} | ${STATUS_ICON[e.status] ?? ''} ${e.status}${drift} | ${inert(e.author ?? '—')} | ${e.createdAt ?? '—'} | ${where} |`;
  });
  return [
    `## forge-context: #${inputs.number} — next: \`${result.nextPhase}\``,
    '',
    `${inert(result.nextReason)}.`,
    '',
    `- Stage about to run: ${inputs.stage ?? '(the whole chain)'}; state: \`${result.state}\``,
    `- Pack: \`${inert(file)}\`, ${result.markdown.length} of ${inputs.budget} characters${result.cuts.length > 0 ? `, ${result.cuts.length} section(s) cut to fit` : ''}`,
    `- Digest: \`${result.digest}\``,
    `- Read with ${snapshot.requests} GraphQL request(s) (${snapshot.points} point(s))${outcome.gistRequests > 0 ? ` and ${outcome.gistRequests} gist request(s)` : ''}`,
    ...(outcome.stalled.length > 0
      ? [`- Stalled: ${outcome.stalled.map((s) => `${s.type} (${s.status}, ${s.createdAt})`).join(', ')}`]
      : []),
    '',
    '| Stage | Status | Author | Written | Where |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

export function contextResult(inputs: ContextInputs, outcome: ContextOutcome, file: string): ActionResult {
  const { result } = outcome;
  const warnings = [...outcome.notes];
  if (result.overBudget)
    warnings.push(
      `budget ${inputs.budget} is smaller than the pack's headings and links alone (${result.markdown.length} characters): every excerpt was cut to nothing`,
    );
  return {
    outputs: {
      'context-file': file,
      digest: result.digest,
      'next-phase': result.nextPhase,
      'next-reason': result.nextReason,
      state: result.state,
      stages: stagesJson(result.stages),
      stalled: stagesJson(outcome.stalled),
    },
    summary: summary(inputs, outcome, file),
    failure: null,
    warnings,
    notices: result.cuts.length > 0 ? [`the pack was cut to fit ${inputs.budget} characters: ${result.cuts.join('; ')}`] : [],
  };
}
