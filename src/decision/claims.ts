/**
 * Claims and attempts, read from the thread (GitHub is the only store): a
 * claim is a trusted FORGE:CLAIM naming the stage it holds (`Stage`) and the
 * run that holds it (`Holder`); it is live until `claim-ttl` after it was
 * written, until the stage completes after it or a partial or interrupted
 * annotation of it ends the run short, or until a CLAIM_RELEASED of the same
 * holder. Attempts at a stage since its last completion are its
 * claims and its partial or interrupted annotations, whichever are more (a
 * run that claims and then writes a partial is one attempt). Pure.
 */
import { getField, stripCodeSpan, type Annotation } from '../codec/index.js';
import type { RunState } from '../common/work-item.js';
import type { Candidate } from './collect.js';

export interface Claim {
  stage: string;
  holder: string;
  /** The stage run the dispatch started (its `Run` field: GitHub's run URL), when GitHub named it. */
  run: string | null;
  /** That run's id, read from its URL. */
  runId: number | null;
  url: string;
  author: string | null;
  createdAt: string;
  /** When it stops holding the stage: written + claim-ttl. */
  expiresAt: string;
}

export interface StageRuns {
  stage: string;
  /** The claim that holds the stage now, if any: the earliest live one (two dispatchers racing: the first wins). */
  live: Claim | null;
  /**
   * Every attempt since the stage last completed, oldest first, one per run: a claim (with its run and how the run
   * ended, when known, and the partial that run wrote), or an unfinished annotation no claim accounts for.
   */
  attempts: Array<{
    kind: 'claim' | 'partial' | 'interrupted';
    url: string;
    createdAt: string | null;
    run?: string | null;
    /** How the run ended: GitHub's conclusion, once it completed. */
    conclusion?: string | null;
    /** The partial or interrupted annotation the claim's run wrote. */
    partial?: string | null;
  }>;
  /** How many attempts count against the budget. */
  count: number;
}

const fieldOf = (a: Annotation, name: string) => stripCodeSpan(getField(a.fields, name) ?? '').trim();
const field = (c: Candidate, name: string) => fieldOf(c.annotation, name);

/** The stage a CLAIM names (its `Stage` field, read as any field is), upper case; '' when none. */
export function claimedStage(a: Annotation): string {
  return fieldOf(a, 'Stage').toUpperCase();
}
const when = (c: Candidate) => c.createdAt ?? '';

/** The run id in a run's URL (`…/actions/runs/123`, `…/runs/123/attempts/2`); null when there is none. */
export function runIdOf(url: string | null | undefined): number | null {
  const m = /\/actions\/runs\/(\d+)/.exec(url ?? '');
  return m ? Number(m[1]) : null;
}

/** A candidate as a claim, when it is a trusted FORGE:CLAIM naming a stage; null otherwise. */
export function claimOf(c: Candidate, ttlMs: number): Claim | null {
  if (c.annotation.type !== 'CLAIM' || c.untrusted !== null || c.createdAt === null) return null;
  const stage = claimedStage(c.annotation);
  if (stage === '') return null;
  const run = field(c, 'Run') || null;
  return {
    stage,
    holder: field(c, 'Holder'),
    run,
    runId: runIdOf(run),
    url: c.url,
    author: c.author.login,
    createdAt: c.createdAt,
    expiresAt: new Date(Date.parse(c.createdAt) + ttlMs).toISOString(),
  };
}

/**
 * The claims, completions and attempts of `stage` on the work item's own
 * threads, at `now`. `since`: attempts are counted from then (a person
 * resumed the item by removing needs-human: a fresh budget).
 */
export function stageRuns(
  candidates: readonly Candidate[],
  stage: string,
  now: number,
  ttlMs: number,
  since = '',
  runs: ReadonlyMap<number, RunState> = new Map(),
): StageRuns {
  const own = candidates.filter((c) => c.scope === 'own' && c.untrusted === null);
  // The stage's last completion: what came before it is history.
  const completed =
    own
      .filter((c) => c.annotation.type === stage && c.annotation.sentinelState === 'complete')
      .map(when)
      .sort()
      .at(-1) ?? '';
  const done = completed > since ? completed : since;
  const claims = own
    .map((c) => claimOf(c, ttlMs))
    .filter((k): k is Claim => k !== null && k.stage === stage && k.createdAt > done)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  const released = new Set(
    own
      .filter((c) => c.annotation.type === 'CLAIM_RELEASED')
      .flatMap((c) => (field(c, 'Holder') ? [`${field(c, 'Holder')}|${when(c)}`] : [])),
  );
  const isReleased = (k: Claim) => [...released].some((r) => r.startsWith(`${k.holder}|`) && r.slice(k.holder.length + 1) > k.createdAt);
  const unfinished = own.filter((c) => c.annotation.type === stage && c.annotation.sentinelState !== 'complete' && when(c) > done);
  // A partial or interrupted annotation of the stage after a claim is its run ending short: the stage is free to start again.
  const ended = (k: Claim) => unfinished.some((c) => when(c) > k.createdAt);
  // GitHub's answer decides while it knows the run: live while queued or in progress, over once completed (even
  // inside the ttl, even past it). The ttl decides only for a claim whose run GitHub did not name or no longer has.
  const running = (k: Claim) => {
    const state = k.runId !== null ? runs.get(k.runId) : undefined;
    return state ? state.status !== 'completed' : Date.parse(k.expiresAt) > now;
  };
  const live = claims.find((k) => running(k) && !isReleased(k) && !ended(k)) ?? null;
  // One attempt per run: a partial the claim's run wrote (its Run field names the same run) is that claim's attempt.
  const byRun = new Map(claims.filter((k) => k.runId !== null).map((k) => [k.runId as number, k]));
  const paired = new Map<Claim, Candidate>();
  const alone: Candidate[] = [];
  for (const c of unfinished) {
    const k = byRun.get(runIdOf(field(c, 'Run')) ?? -1);
    if (k && !paired.has(k)) paired.set(k, c);
    else alone.push(c);
  }
  // An unfinished annotation naming no claimed run still pairs with a claim naming no run (an older dispatcher's).
  const unnamed = claims.filter((k) => k.runId === null).length;
  const attempts = [
    ...claims.map((k) => ({
      kind: 'claim' as const,
      url: k.url,
      createdAt: k.createdAt,
      run: k.run,
      conclusion: k.runId !== null ? (runs.get(k.runId)?.conclusion ?? null) : null,
      partial: paired.get(k)?.url ?? null,
    })),
    ...alone.map((c) => ({ kind: c.annotation.sentinelState as 'partial' | 'interrupted', url: c.url, createdAt: c.createdAt })),
  ].sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : (a.createdAt ?? '') > (b.createdAt ?? '') ? 1 : 0));
  return { stage, live, attempts, count: claims.length + Math.max(0, alone.length - unnamed) };
}

/** The annotation types the dispatcher writes about its own runs. */
const DISPATCHER_TYPES: ReadonlySet<string> = new Set(['CLAIM', 'CLAIM_RELEASED']);

/**
 * The candidates with the dispatcher's own claims (and releases) counted
 * whatever trusted-authors says: `ours` tells its identity's comments. A
 * pipeline file that forgot to trust the dispatcher must not make every
 * sweep start the same stage again. Nothing else of its identity's counts.
 */
export function withOwnClaims(candidates: readonly Candidate[], ours: (login: string | null) => boolean): Candidate[] {
  return candidates.map((c) =>
    // Only a comment as its author left it: a hidden one, or one someone else edited, stays as the trust rules judged it.
    c.untrusted !== null &&
    DISPATCHER_TYPES.has(c.annotation.type) &&
    c.comment !== null &&
    !c.comment.hidden &&
    !c.comment.editedBy &&
    !c.comment.editor &&
    ours(c.author.login)
      ? { ...c, untrusted: null }
      : c,
  );
}
