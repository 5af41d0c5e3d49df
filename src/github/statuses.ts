/**
 * Commit statuses: the verdict on a PR's head commit, where branch protection
 * and rulesets look. One context per gate; the newest status in that context
 * is read first, so an unchanged verdict writes nothing.
 */
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';
import { createOnce } from './create-once.js';

export type StatusState = 'success' | 'failure' | 'error' | 'pending';

export interface CommitStatus {
  state: StatusState;
  description: string;
  context: string;
  targetUrl: string | null;
  /** When GitHub recorded it (read statuses only). */
  createdAt?: string | null;
}

/**
 * The newest status in `context` on `sha`, or null. The combined status of a
 * ref holds the newest status of each context (100 contexts a page), so a
 * commit with hundreds of statuses in one context is still one request; the
 * plain list would hold only the newest 100 statuses of every context mixed.
 */
export async function latestStatus(gh: GitHub, r: Repo, sha: string, context: string): Promise<CommitStatus | null> {
  for (let page = 1; ; page++) {
    const { data } = await api(`reading the combined status of ${sha.slice(0, 12)}`, () =>
      gh.rest.repos.getCombinedStatusForRef({ ...r, ref: sha, per_page: 100, page }),
    );
    // GitHub compares status contexts without regard to case: "FORGE conformance" and "forge Conformance" are one.
    const s = data.statuses.find((x) => x.context.toLowerCase() === context.toLowerCase());
    if (s)
      return {
        state: s.state as StatusState,
        description: s.description ?? '',
        context: s.context,
        targetUrl: s.target_url ?? null,
        createdAt: s.created_at ?? null,
      };
    if (data.statuses.length < 100 || page * 100 >= data.total_count) return null;
  }
}

/** GitHub keeps at most this many statuses per commit and context, then refuses more (422). */
export const STATUSES_PER_CONTEXT = 1000;

/** Is this GitHub's refusal of a status past the per-commit, per-context limit? */
export function isStatusLimit(err: unknown): boolean {
  const e = err as { status?: number; message?: string };
  return e?.status === 422 && /maximum number of statuses/i.test(e.message ?? '');
}

export async function createStatus(gh: GitHub, r: Repo, sha: string, status: CommitStatus): Promise<void> {
  // A lost answer is read back: the context's newest status already saying this is the one sent.
  await createOnce(
    `writing the "${status.context}" status on ${sha.slice(0, 12)}`,
    async (once) => {
      await gh.rest.repos.createCommitStatus({
        ...r,
        sha,
        state: status.state,
        description: status.description,
        context: status.context,
        ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
        ...once,
      });
      return true;
    },
    async () => {
      const now = await latestStatus(gh, r, sha, status.context);
      return now && now.state === status.state && now.description === status.description ? true : null;
    },
  );
}
