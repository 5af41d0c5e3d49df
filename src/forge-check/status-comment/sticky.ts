/**
 * Keeping one status comment on the checked issue or PR: created once, then
 * edited in place only when its text changes. Concurrent runs may both post;
 * each re-reads after posting and the later comment removes itself, so one
 * is left. Only comments this gate wrote count as ours: its marker (which
 * names the gate), written by the token's identity — a user token's login, or
 * for an App installation token (the workflow's GITHUB_TOKEN), which cannot
 * ask who it is, a bot. Anyone else who copies the marker, a member too, gets
 * their comment ignored, not edited or deleted.
 * Failing to post never changes the verdict: it is a warning (a fork PR's
 * token is read-only).
 */
import { errorMessage, httpStatus } from '../../common/errors.js';
import { sameText } from '../../common/line-ends.js';
import type { Repo } from '../../common/repo.js';
import { counts, type TrustPolicy } from '../../common/trust.js';
import type { ThreadComment } from '../../common/work-item.js';
import type { GitHub } from '../../github/client.js';
import { deleteIfThere, earliestWins } from '../../github/earliest-wins.js';
import { listComments, writtenByToken } from '../../github/reads.js';
import { createComment, updateComment } from '../../github/writes.js';
import { isStatusComment, withoutRunLine } from './body.js';

export interface StickyOutcome {
  result: 'created' | 'updated' | 'unchanged' | 'not-posted';
  url: string | null;
  /** Set when the comment could not be written: the step warns with it. */
  warning: string | null;
  steps: string[];
}

/** Whose comment is the gate's own: its name (status-context), who may write for it, and the token's identity. */
export interface Ownership {
  gate: string;
  trust: TrustPolicy;
  /** The token's login; null for an App installation token (then only a bot's comment can be ours). */
  identity: string | null;
}

function isOurs(c: ThreadComment, own: Ownership): boolean {
  if (!isStatusComment(c.body, own.gate) || !counts('status-comment', c.author, own.trust)) return false;
  return writtenByToken(own.identity, c.author.login);
}

function ours(comments: readonly ThreadComment[], own: Ownership): ThreadComment[] {
  return comments.filter((c) => isOurs(c, own)).sort((a, b) => a.id - b.id);
}

function notPosted(err: unknown, number: number, onPull: boolean, steps: string[]): StickyOutcome {
  const status = httpStatus(err);
  // Say what is true of this item: only a PR can come from a fork.
  const why =
    status !== 403
      ? errorMessage(err)
      : onPull
        ? 'the token may not write here (403) — give the job `pull-requests: write`; on a pull request from a fork GITHUB_TOKEN is read-only: post from a workflow_run workflow instead (docs/workflows.md, Pull requests from forks)'
        : 'the token may not write here (403) — give the job `issues: write`';
  const done = steps.length > 0 ? ` (done before it: ${steps.join('; ')})` : '';
  return {
    result: 'not-posted',
    url: null,
    warning: `the status comment on #${number} could not be written: ${why}${done}; the verdict stands`,
    steps,
  };
}

/** Make the one status comment on #number hold `body` (`read`: its comments as this run read them). */
export async function keepStatusComment(
  gh: GitHub,
  r: Repo,
  number: number,
  body: string,
  own: Ownership,
  onPull = true,
  read: readonly ThreadComment[] | null = null,
): Promise<StickyOutcome> {
  const steps: string[] = [];
  try {
    // The comments this run's snapshot read; asked for only when it did not read them.
    const existing = ours(read ?? (await listComments(gh, r, number)), own);
    if (existing.length > 0) {
      const [keep, ...extra] = existing;
      // Left over from an earlier race: one comment is the promise.
      for (const c of extra) {
        await deleteIfThere(gh, r, c.id);
        steps.push(`deleted duplicate status comment ${c.id}`);
      }
      if (sameText(withoutRunLine(keep.body), withoutRunLine(body))) return { result: 'unchanged', url: keep.url, warning: null, steps };
      const updated = await updateComment(gh, r, keep.id, body);
      steps.push(`edited status comment ${keep.id}`);
      return { result: 'updated', url: updated.url, warning: null, steps };
    }
    const created = await createComment(gh, r, number, body, { once: true });
    steps.push(`created status comment ${created.id}`);
    // A concurrent run may have posted too: the earliest stays, ours goes.
    const first = await earliestWins(gh, r, number, created, (c) => isOurs(c, own));
    if (first === null) return { result: 'created', url: created.url, warning: null, steps };
    steps.push(`deleted it again: status comment ${first.id} was posted first by a concurrent run`);
    if (sameText(withoutRunLine(first.body), withoutRunLine(body))) return { result: 'unchanged', url: first.url, warning: null, steps };
    const updated = await updateComment(gh, r, first.id, body);
    steps.push(`edited status comment ${first.id}`);
    return { result: 'updated', url: updated.url, warning: null, steps };
  } catch (err) {
    return notPosted(err, number, onPull, steps);
  }
}
