/**
 * Commit statuses: the verdict on a PR's head commit, where branch protection
 * and rulesets look. One context per gate; the newest status in that context
 * is read first, so an unchanged verdict writes nothing.
 */
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';

export type StatusState = 'success' | 'failure' | 'error' | 'pending';

export interface CommitStatus {
  state: StatusState;
  description: string;
  context: string;
  targetUrl: string | null;
}

/** The newest status in `context` on `sha`, or null (GitHub lists a commit's statuses newest first). */
export async function latestStatus(gh: GitHub, r: Repo, sha: string, context: string): Promise<CommitStatus | null> {
  const { data } = await api(`reading the statuses of ${sha.slice(0, 12)}`, () =>
    gh.rest.repos.listCommitStatusesForRef({ ...r, ref: sha, per_page: 100 }),
  );
  const s = data.find((x) => x.context === context);
  return s
    ? { state: s.state as StatusState, description: s.description ?? '', context: s.context, targetUrl: s.target_url ?? null }
    : null;
}

export async function createStatus(gh: GitHub, r: Repo, sha: string, status: CommitStatus): Promise<void> {
  await api(`writing the "${status.context}" status on ${sha.slice(0, 12)}`, () =>
    gh.rest.repos.createCommitStatus({
      ...r,
      sha,
      state: status.state,
      description: status.description,
      context: status.context,
      ...(status.targetUrl ? { target_url: status.targetUrl } : {}),
    }),
  );
}
