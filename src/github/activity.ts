/**
 * When a commit became a branch's head, as GitHub records it for every push
 * (GET /repos/{owner}/{repo}/activity: `push`, `force_push` and
 * `branch_creation`, each with `before`, `after` and `timestamp`). A PR's
 * timeline dates force pushes only; an ordinary push is dated here, in the
 * repository the branch lives in (a fork's, for a fork's PR).
 */
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api, ApiError } from './errors.js';

/** The activity kinds after which `after` is the branch's head. */
const MOVES_HEAD = new Set(['push', 'force_push', 'branch_creation']);

export type Arrival = { at: string } | { at: null; why: string };

/**
 * When `sha` last became the head of `branch` in `repo`: the newest activity
 * on the branch whose `after` is `sha` (one request: the newest 100 moves of
 * the branch). `at: null` with why when GitHub holds no such record or the
 * token may not read it.
 */
export async function headArrival(gh: GitHub, repo: Repo, branch: string, sha: string): Promise<Arrival> {
  try {
    const { data } = await api(`reading the pushes to ${repo.owner}/${repo.repo}:${branch}`, () =>
      gh.rest.repos.listActivities({ ...repo, ref: `refs/heads/${branch}`, per_page: 100, direction: 'desc' }),
    );
    const move = data.find((a) => MOVES_HEAD.has(a.activity_type) && a.after.toLowerCase() === sha.toLowerCase());
    if (move) return { at: move.timestamp };
    return { at: null, why: `GitHub's activity of ${repo.owner}/${repo.repo} records no push of ${sha.slice(0, 12)} to ${branch}` };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404))
      return { at: null, why: `this token cannot read the activity of ${repo.owner}/${repo.repo} (${err.status})` };
    throw err;
  }
}
