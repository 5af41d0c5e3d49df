/**
 * One ranking of a required type's status, and one way to show it. The gate
 * keeps the best annotation of a type by this rank; the status comment's chain
 * colours a stage by the same rank under the chain's own words.
 */

/** `blocked`: present, complete and valid, but its verdict stops the merge (CHANGES_REQUESTED, INVALID). */
export type TypeStatus = 'ok' | 'blocked' | 'missing' | 'incomplete' | 'invalid' | 'not-required';

/**
 * Complete and valid beats invalid (finished, wrong) beats incomplete
 * (unfinished) beats nothing. A blocking verdict is decided after the best
 * annotation is chosen; it ranks under ok.
 */
export const RANK: Readonly<Record<TypeStatus, number>> = {
  ok: 5,
  blocked: 4,
  invalid: 3,
  incomplete: 2,
  missing: 1,
  'not-required': 0,
};

/** How a type's status is shown in tables (the job summary and the status comment). */
export const STATUS_ICON: Readonly<Record<TypeStatus, string>> = {
  ok: '✅ ok',
  blocked: '⛔ blocked',
  missing: '❌ missing',
  incomplete: '⏳ incomplete',
  invalid: '⚠️ invalid',
  'not-required': '➖ not required',
};

/** A stage of the §5 chain, in the words the chain diagram uses. */
export type StageState = 'complete' | 'blocked' | 'partial' | 'invalid' | 'missing';

/** The chain's word for a status (a stage is never "not required": the chart shows what was found). */
export const STAGE_OF: Readonly<Record<Exclude<TypeStatus, 'not-required'>, StageState>> = {
  ok: 'complete',
  blocked: 'blocked',
  invalid: 'invalid',
  incomplete: 'partial',
  missing: 'missing',
};

/** An annotation's status at `presence`-free reading: unfinished, finished but invalid, or ok. */
export function annotationStatus(sentinelState: string, valid: boolean): 'ok' | 'invalid' | 'incomplete' {
  if (sentinelState !== 'complete') return 'incomplete';
  return valid ? 'ok' : 'invalid';
}
