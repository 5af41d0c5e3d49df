/**
 * Which annotation speaks for each stage: the newest complete trusted one
 * (§3.2: nothing incomplete is ever complete; a revised stage supersedes the
 * older). Partial and interrupted ones are named so the stage runs again,
 * never handed on (§3.3); untrusted ones are named and never handed on.
 */
import type { Candidate } from './collect.js';
import type { GistDrift } from '../common/context-digest.js';
import { reviewDomain } from './verdicts.js';

export type StageStatus = 'included' | 'stale' | 'superseded' | 'partial' | 'interrupted' | 'untrusted' | 'missing';

/** One line of `stages`: an annotation of a stage, or a stage with none. */
export interface StageEntry {
  type: string;
  status: StageStatus;
  url: string | null;
  author: string | null;
  createdAt: string | null;
  /** The issue or PR it is on (null for a missing stage). */
  item: number | null;
  /** `parent` for a sub-issue's parent's chain. */
  scope: 'own' | 'parent';
  /** REVIEWER: the review domain it speaks for. */
  domain?: string;
  /** Why it is not included (superseded by, untrusted because, re-run because). */
  reason?: string;
  /** Included ones: whether it validates, and its errors. */
  valid?: boolean;
  errors?: string[];
  /** The upstream context digest it records having been written against. */
  contextDigest?: string | null;
  /** When that digest has a gists' part and the reader read gists: how it compares with the gists quoted now. */
  gists?: GistDrift;
}

/** When each annotation was written, for "newest": ISO times compare as strings; none counts as oldest. */
const when = (c: Candidate) => c.createdAt ?? '';

/**
 * Annotations of one stage that compete: the same type in the same scope and repository (and, for REVIEWER, the
 * same domain). The issue and the PR that closes it are one work item: across them, the newest speaks; another
 * repository's chain (a foreign issue a PR closes) is its own.
 */
function keyOf(c: Candidate): string {
  const domain = c.annotation.type === 'REVIEWER' ? `|${reviewDomain(c.annotation)}` : '';
  return `${c.scope}|${c.id.slice(0, c.id.indexOf('#'))}|${c.annotation.type}${domain}`;
}

export interface Selection {
  /** The one annotation that speaks for each stage key, newest complete trusted. */
  included: Map<string, Candidate>;
  /** What each candidate is, by its id. */
  status: Map<string, StageStatus>;
  reason: Map<string, string>;
}

/** Newest complete trusted per key; later in reading order wins a tie (as the gate decides). */
export function select(candidates: readonly Candidate[]): Selection {
  const included = new Map<string, Candidate>();
  for (const c of candidates) {
    if (c.untrusted !== null || c.annotation.sentinelState !== 'complete') continue;
    const key = keyOf(c);
    const seen = included.get(key);
    if (!seen || when(c) >= when(seen)) included.set(key, c);
  }
  const status = new Map<string, StageStatus>();
  const reason = new Map<string, string>();
  for (const c of candidates) {
    const winner = included.get(keyOf(c));
    if (c.untrusted !== null) {
      status.set(c.id, 'untrusted');
      reason.set(c.id, c.untrusted);
    } else if (c.annotation.sentinelState !== 'complete') {
      status.set(c.id, c.annotation.sentinelState);
      reason.set(
        c.id,
        c.annotation.sentinelState === 'partial'
          ? 'marked partial: the stage stopped before it finished and must run again (§3.3)'
          : 'no completion sentinel: the stage was interrupted and must run again (§3.3)',
      );
    } else if (winner === c) status.set(c.id, 'included');
    else {
      status.set(c.id, 'superseded');
      reason.set(c.id, `superseded by the newer complete one, ${winner?.url ?? ''}`.trim());
    }
  }
  return { included, status, reason };
}

/** The newest complete trusted annotation of `type` in `scope`, across every item; null when there is none. */
export function newestIncluded(sel: Selection, type: string, scope: 'own' | 'parent' = 'own'): Candidate | null {
  let best: Candidate | null = null;
  for (const c of sel.included.values())
    if (c.annotation.type === type && c.scope === scope && (best === null || when(c) >= when(best))) best = c;
  return best;
}

/** Every included annotation of `type` in `scope`, oldest first. */
export function allIncluded(sel: Selection, type: string, scope: 'own' | 'parent' = 'own'): Candidate[] {
  return [...sel.included.values()]
    .filter((c) => c.annotation.type === type && c.scope === scope)
    .sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : 0));
}

/** The stage lines for `types` in `scope`: each annotation of a stage in reading order, or one `missing` line. */
export function stageEntries(
  candidates: readonly Candidate[],
  sel: Selection,
  types: readonly string[],
  scope: 'own' | 'parent',
): StageEntry[] {
  const out: StageEntry[] = [];
  for (const type of types) {
    const mine = candidates.filter((c) => c.scope === scope && c.annotation.type === type);
    if (mine.length === 0) {
      out.push({ type, status: 'missing', url: null, author: null, createdAt: null, item: null, scope });
      continue;
    }
    for (const c of mine) {
      const status = sel.status.get(c.id) ?? 'missing';
      const entry: StageEntry = {
        type,
        status,
        url: c.url,
        author: c.author.login,
        createdAt: c.createdAt,
        item: c.item.number,
        scope,
      };
      if (type === 'REVIEWER') entry.domain = reviewDomain(c.annotation);
      const why = sel.reason.get(c.id);
      if (why) entry.reason = why;
      if (status === 'included') {
        entry.valid = c.annotation.valid;
        entry.errors = c.annotation.errors;
      }
      if (c.contextDigest) entry.contextDigest = c.contextDigest;
      out.push(entry);
    }
  }
  return out;
}
