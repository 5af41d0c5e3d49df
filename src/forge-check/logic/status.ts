/**
 * The verdict as a commit status on the PR's head commit (or a merge group's
 * commit), where branch protection and rulesets look: at most one write per
 * commit per run, none when the newest status in the gate's context already
 * says the same, and none over a status a newer run wrote. A refused write
 * (a fork's read-only token, a missing `statuses: write`, GitHub's limit of
 * statuses per commit) is a warning that says what to do; it never changes
 * the verdict.
 */
import { errorMessage, httpStatus } from '../../common/errors.js';
import type { Repo } from '../../common/repo.js';
import type { CheckResult } from '../../decision/evaluate.js';
import { requestStats, type GitHub } from '../../github/client.js';
import {
  createStatus,
  isStatusLimit,
  latestStatus,
  STATUSES_PER_CONTEXT,
  type CommitStatus,
  type StatusState,
} from '../../github/statuses.js';
import type { StatusSettings } from '../inputs.js';

/** GitHub refuses a status description over 140 characters. */
export const MAX_DESCRIPTION = 140;

export function toLimit(text: string): string {
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}

export type DesiredStatus = { state: StatusState; description: string };

/** What is wrong, in the words of a status: missing, partial, invalid, or the first other problem. */
export function failureText(result: CheckResult): string {
  const parts = [
    // A verdict that blocks says so first: it is what a reviewer must act on.
    (result.blocked ?? []).length ? `blocked: ${(result.blocked ?? []).join(', ')}` : '',
    result.missing.length ? `missing ${result.missing.join(', ')}` : '',
    result.incomplete.length ? `partial ${result.incomplete.join(', ')}` : '',
    result.invalid.length ? `invalid ${result.invalid.join(', ')}` : '',
  ].filter((p) => p !== '');
  const text = parts.length > 0 ? parts.join('; ') : (result.problems[0] ?? 'not conforming');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * What the status says: success (or exempt); pending while the next stage is one the pipeline's agent runs and all
 * else holds; failure naming what is wrong; error when the run could not decide.
 */
export function statusOf(result: CheckResult | null, failure: string | null): DesiredStatus {
  if (result === null) return { state: 'error', description: toLimit(`Could not decide: ${failure ?? 'the run failed'}`) };
  if (result.exempt) return { state: 'success', description: toLimit(result.exempt) };
  if (result.conforming)
    return { state: 'success', description: toLimit('All required FORGE annotations are present, complete and valid') };
  // The pipeline's agent runs what is missing: the merge waits, and nobody is asked to act.
  if (result.awaiting)
    return {
      state: 'pending',
      description: toLimit(`${result.awaiting} runs next: the pipeline's agent is on it (${failureText(result)})`),
    };
  return { state: 'failure', description: toLimit(failureText(result)) };
}

export interface StatusOutcome {
  /** superseded: a newer run already wrote the newest status; frozen: GitHub's limit of statuses per commit is reached. */
  result: 'created' | 'unchanged' | 'superseded' | 'not-written';
  warning: string | null;
  /** What a reader of the summary should know (a newer run decides). */
  note: string | null;
}

/**
 * The run id a status links to, when its link is a run page of the same
 * repository as ours (`…/actions/runs/<id>`); null otherwise.
 */
export function runIdOf(targetUrl: string | null, ours: string | null): number | null {
  if (!targetUrl || !ours) return null;
  const prefix = ours.replace(/\/actions\/runs\/\d+$/, '/actions/runs/');
  if (!targetUrl.startsWith(prefix)) return null;
  const id = targetUrl.slice(prefix.length).split(/[/?#]/)[0];
  return /^\d{1,20}$/.test(id) ? Number(id) : null;
}

/**
 * Write the status on `sha` unless the newest one in the context (`read` by
 * this run's snapshot, or asked for now) already says the same, or was written after this run started reading (in GitHub's own
 * clock: the first answer's Date header against the status's created_at): a
 * run that read later decided on newer facts. Run ids order starts, not
 * readings — a re-run keeps its run id and reads now, so it writes.
 */
export async function keepStatus(
  gh: GitHub,
  r: Repo,
  what: string,
  sha: string,
  settings: StatusSettings,
  desired: DesiredStatus,
  read?: ReadonlyMap<string, CommitStatus> | null,
  /** The commit's statuses read again since the snapshot (the run's one re-check of all commits); undefined: ask here. */
  since?: ReadonlyMap<string, CommitStatus> | null,
): Promise<StatusOutcome> {
  const status: CommitStatus = { ...desired, context: settings.context, targetUrl: settings.targetUrl };
  const startedReading = requestStats(gh).firstAnswerAt;
  // What the newest status in the context means for this run: a newer run's (left standing), ours already, or neither.
  const judge = (newest: CommitStatus | null): StatusOutcome | null => {
    const writtenAt = newest?.createdAt ? Date.parse(newest.createdAt) : Number.NaN;
    if (newest && startedReading !== null && writtenAt > startedReading) {
      const writer = runIdOf(newest.targetUrl, settings.targetUrl);
      return {
        result: 'superseded',
        warning: null,
        note: `the "${settings.context}" status on ${what} (${sha.slice(0, 12)}) was written at ${newest.createdAt}, after this run started reading (${new Date(startedReading).toISOString()})${writer !== null ? ` by run ${writer}` : ''}: left as it is`,
      };
    }
    if (newest && newest.state === status.state && newest.description === status.description)
      return { result: 'unchanged', warning: null, note: null };
    return null;
  };
  try {
    // The newest status in our context as this run's snapshot read it; asked for only when the snapshot did not.
    const newest = read ? (read.get(settings.context.toLowerCase()) ?? null) : await latestStatus(gh, r, sha, settings.context);
    const first = judge(newest);
    if (first) return first;
    // About to change the verdict: a status read in this run's own first answer cannot be newer than that answer, so
    // what landed since is asked now — one request, only when writing — and a newer run's verdict is left standing.
    if (read) {
      const now =
        since !== undefined ? (since?.get(settings.context.toLowerCase()) ?? null) : await latestStatus(gh, r, sha, settings.context);
      const later = judge(now);
      if (later) return later;
    }
    await createStatus(gh, r, sha, status);
    return { result: 'created', warning: null, note: null };
  } catch (err) {
    const why = isStatusLimit(err)
      ? `GitHub keeps at most ${STATUSES_PER_CONTEXT} statuses per commit and context, and this commit has reached it: the status is frozen as it is — a new commit on the PR clears it`
      : httpStatus(err) === 403
        ? 'the token may not write statuses (403): give the job `permissions: statuses: write`; on a pull request from a fork GITHUB_TOKEN is read-only — run the gate from pull_request_target or a workflow_run workflow (docs/workflows.md, Pull requests from forks)'
        : errorMessage(err);
    return {
      result: 'not-written',
      warning: `the "${settings.context}" status on ${what} (${sha.slice(0, 12)}) could not be written: ${why}; the verdict stands`,
      note: null,
    };
  }
}
