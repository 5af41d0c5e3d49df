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
 *
 * The gist files a pack quotes are the digest's second part (gistsDigest;
 * common/context-digest.ts says why it is separate): the route compares the
 * annotations' part, which every decider reads alike, and forge-context alone
 * compares the gists' part (gistDrift).
 */
import { createHash } from 'node:crypto';
import { digestParts, type GistDrift } from '../common/context-digest.js';
import { stagesBefore } from './chain.js';
import type { Candidate } from './collect.js';
import type { StaleStage } from './next-phase.js';
import { allIncluded, type Selection } from './select.js';

/** One annotation's part of a digest: its stable id, then its text, length-prefixed so no two sequences collide. */
const part = (c: Candidate) => `${c.id}\n${c.annotation.raw.length}\n${c.annotation.raw}\n`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The digest of what `stage` reads (the whole chain when `stage` is null). */
export function upstreamDigest(sel: Selection, chain: readonly string[], stage: string | null): string {
  const parts: string[] = [];
  for (const type of stagesBefore(chain, stage)) for (const c of allIncluded(sel, type, 'own')) parts.push(part(c));
  return `sha256:${sha256(parts.join(''))}`;
}

/** A gist as the reader read it: what gistsDigest needs of context.ts's GistText. */
export interface ReadGist {
  id: string;
  error: string | null;
  files: ReadonlyArray<{ name: string; content: string }>;
}

/**
 * The gists' part: the hex SHA-256 of every file the pack quotes from a gist (gist id, file name, text, each
 * length-prefixed), or null when it quotes none. Gists in the pack's order; a gist's files by name, since a name is
 * unique within a gist and the order an answer lists them in is not a revision. Taken before the budget cuts
 * anything, as the annotations' part is, so one upstream has one digest whatever budget a stage reads it with.
 */
export function gistsDigest(gists: readonly ReadGist[]): string | null {
  const parts: string[] = [];
  for (const g of gists) {
    if (g.error !== null) continue;
    const byName = [...g.files].sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const f of byName) parts.push(`${g.id}\n${f.name.length}\n${f.name}\n${f.content.length}\n${f.content}\n`);
  }
  return parts.length === 0 ? null : sha256(parts.join(''));
}

/**
 * A stage that recorded the gists it read: the same as the gists quoted now, changed, or not checked (this run
 * did not read every gist the pointers name, so a difference could be its own gap). Null when the stage recorded
 * no gists' part: nothing to compare.
 */
export function gistDrift(recorded: string, current: string | null, allRead: boolean): GistDrift | null {
  const gists = digestParts(recorded)?.gists ?? null;
  if (gists === null) return null;
  if (!allRead) return 'not checked';
  return gists === current ? 'same' : 'changed';
}

/**
 * The chain's stages whose newest included annotation records a digest that
 * is no longer its upstream's, in chain order (REVIEWER: any domain's newest).
 */
export function staleStages(sel: Selection, chain: readonly string[]): StaleStage[] {
  const out: StaleStage[] = [];
  for (const type of chain) {
    // Each stage's newest speaks (per review domain for REVIEWER): select keeps one of each, so these are they.
    // Only the annotations' part: the gate and the sweep read no gists, and every decider must decide alike.
    const recorded = allIncluded(sel, type, 'own').flatMap((c) => {
      const parts = digestParts(c.contextDigest ?? '');
      return parts ? [{ c, annotations: parts.annotations }] : [];
    });
    if (recorded.length === 0) continue;
    const current = upstreamDigest(sel, chain, type);
    const stale = recorded.find((r) => r.annotations !== current);
    if (stale) out.push({ type, url: stale.c.url, recorded: stale.annotations, current });
  }
  return out;
}
