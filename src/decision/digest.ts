/**
 * The Context digest (spec §5's chain, our NOTES): what a stage read before it
 * ran, as one hash — the included annotations of the stages the chain places
 * before it, in chain order. forge-context hands it out, forge-emit records it
 * in the stage's annotation, and the route compares: a stage whose recorded
 * digest is not its upstream's digest now was written against an upstream
 * that has changed since, and is stale.
 *
 * Only what both sides of a work item read goes in: the and its PRs'
 * own annotations, never a change request quoted for the builder or a parent's
 * chain (a PR's reader does not read a sub-issue's parent), so the issue and
 * the PR that closes it compute one digest.
 */
import { createHash } from 'node:crypto';
import { stagesBefore } from './chain.js';
import type { Candidate } from './collect.js';
import type { StaleStage } from './next-phase.js';
import { allIncluded, type Selection } from './select.js';

/** One annotation's part of a digest: its stable id, then its text, length-prefixed so no two sequences collide. */
const part = (c: Candidate) => `${c.id}\n${c.annotation.raw.length}\n${c.annotation.raw}\n`;

/** The digest of what `stage` reads (the whole chain when `stage` is null). */
export function upstreamDigest(sel: Selection, chain: readonly string[], stage: string | null): string {
  const parts: string[] = [];
  for (const type of stagesBefore(chain, stage)) for (const c of allIncluded(sel, type, 'own')) parts.push(part(c));
  return `sha256:${createHash('sha256').update(parts.join('')).digest('hex')}`;
}

/**
 * The chain's stages whose newest included annotation records a digest that
 * is no longer its upstream's, in chain order (REVIEWER: any domain's newest).
 */
export function staleStages(sel: Selection, chain: readonly string[]): StaleStage[] {
  const out: StaleStage[] = [];
  for (const type of chain) {
    // Each stage's newest speaks (per review domain for REVIEWER): select keeps one of each, so these are they.
    const recorded = allIncluded(sel, type, 'own').filter((c) => c.contextDigest !== null);
    if (recorded.length === 0) continue;
    const current = upstreamDigest(sel, chain, type);
    const stale = recorded.find((c) => c.contextDigest !== current);
    if (stale) out.push({ type, url: stale.url, recorded: stale.contextDigest as string, current });
  }
  return out;
}
