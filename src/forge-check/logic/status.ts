/**
 * The verdict as a commit status on the PR's head commit, where branch
 * protection and rulesets look: at most one write per PR per run, none when
 * the newest status in the gate's context already says the same. A refused
 * write (a fork's read-only token, a missing `statuses: write`) is a warning
 * that says how to fix it; it never changes the verdict.
 */
import { errorMessage, httpStatus } from '../../common/errors.js';
import type { Repo } from '../../common/repo.js';
import type { CheckResult } from '../../conformance/evaluate.js';
import type { GitHub } from '../../github/client.js';
import { createStatus, latestStatus, type CommitStatus, type StatusState } from '../../github/statuses.js';
import type { StatusSettings } from '../inputs.js';

/** GitHub refuses a status description over 140 characters. */
const MAX_DESCRIPTION = 140;

function toLimit(text: string): string {
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}

/** What the status says: success, or failure naming what is missing, partial or invalid; error when the run could not decide. */
export function statusOf(result: CheckResult | null, failure: string | null): { state: StatusState; description: string } {
  if (result === null) return { state: 'error', description: toLimit(`Could not decide: ${failure ?? 'the run failed'}`) };
  if (result.conforming)
    return { state: 'success', description: toLimit('All required FORGE annotations are present, complete and valid') };
  const parts = [
    result.missing.length ? `missing ${result.missing.join(', ')}` : '',
    result.incomplete.length ? `partial ${result.incomplete.join(', ')}` : '',
    result.invalid.length ? `invalid ${result.invalid.join(', ')}` : '',
  ].filter((p) => p !== '');
  const text = parts.join('; ');
  return { state: 'failure', description: toLimit(`${text.charAt(0).toUpperCase()}${text.slice(1)}`) };
}

export interface StatusOutcome {
  result: 'created' | 'unchanged' | 'not-written';
  warning: string | null;
}

/** Write the status on `sha` unless the newest one in the context already says the same. */
export async function keepStatus(
  gh: GitHub,
  r: Repo,
  pull: number,
  sha: string,
  settings: StatusSettings,
  desired: { state: StatusState; description: string },
): Promise<StatusOutcome> {
  const status: CommitStatus = { ...desired, context: settings.context, targetUrl: settings.targetUrl };
  try {
    const newest = await latestStatus(gh, r, sha, settings.context);
    if (newest && newest.state === status.state && newest.description === status.description) return { result: 'unchanged', warning: null };
    await createStatus(gh, r, sha, status);
    return { result: 'created', warning: null };
  } catch (err) {
    const why =
      httpStatus(err) === 403
        ? 'the token may not write statuses (403): give the job `permissions: statuses: write`; on a pull request from a fork GITHUB_TOKEN is read-only — run the gate from pull_request_target or a workflow_run workflow (see the README)'
        : errorMessage(err);
    return {
      result: 'not-written',
      warning: `the "${settings.context}" status on PR #${pull} (${sha.slice(0, 12)}) could not be written: ${why}; the verdict stands`,
    };
  }
}
