/**
 * The context chain of spec §5, in its own order: each stage reads the
 * outputs of every stage before it. A pipeline names the stages it runs
 * (`chain`: a preset or a type list, read like forge-check's `required`); the
 * pack holds them in this order whatever order they were posted or listed in.
 */
import { quote } from '../codec/index.js';
import { UsageError } from '../common/errors.js';
import { parseRequired } from './required.js';

/** §5: issue body → INVESTIGATOR → DECOMPOSED → CONTRACT → CONTEXT → ARCHITECT → BUILDER → REVIEWER → TRAJECTORY. */
export const CHAIN_ORDER: readonly string[] = [
  'INVESTIGATOR',
  'DECOMPOSED',
  'CONTRACT',
  'CONTEXT',
  'ARCHITECT',
  'BUILDER',
  'REVIEWER',
  'TRAJECTORY',
];

/** The default chain: §7.3's lifecycle check, what a builder needs read before it touches code. */
export const DEFAULT_CHAIN = 'lifecycle';

/** Position in §5; a type outside it (a custom one) comes after every §5 stage, in the order the user listed it. */
function position(type: string, listed: readonly string[]): number {
  const i = CHAIN_ORDER.indexOf(type);
  return i >= 0 ? i : CHAIN_ORDER.length + listed.indexOf(type);
}

/** `chain` as typed (`minimal`, `lifecycle`, or types), in §5 order. */
export function parseChain(input: string | undefined): string[] {
  const listed = parseRequired(input === undefined || input.trim() === '' ? DEFAULT_CHAIN : input, 'chain');
  return [...listed].sort((a, b) => position(a, listed) - position(b, listed));
}

/** `stage`: the type about to be written, or null (the whole chain). */
export function parseStage(input: string | undefined): string | null {
  const v = (input ?? '').trim();
  if (v === '') return null;
  const type = v.startsWith('FORGE:') ? v.slice(6) : v;
  const [one] = parseRequired(type, 'stage');
  if (one !== type) throw new UsageError(`stage: ${quote(v)} must be one annotation type, e.g. ARCHITECT`);
  return type;
}

/**
 * The stages a pack for `stage` holds: those of the chain that come before
 * it in §5 (a custom stage: those listed before it); every stage when
 * `stage` is null.
 */
export function stagesBefore(chain: readonly string[], stage: string | null): string[] {
  if (stage === null) return [...chain];
  // A stage of the chain reads the stages listed before it: the chain is already in the pipeline's order.
  const at = chain.indexOf(stage);
  if (at >= 0) return chain.slice(0, at);
  const listed = [...chain, stage];
  const pos = position(stage, listed);
  return chain.filter((t) => position(t, listed) < pos);
}
