/** Writes to GitHub: comments, issue bodies, milestones, labels. Each names what it was doing when it fails. */
import { httpStatus } from '../common/errors.js';
import type { GitHub } from './client.js';
import { api, describeApiError } from './errors.js';
import { createOnce } from './create-once.js';
import type { Repo } from '../common/repo.js';
import { toComment } from './rest-shapes.js';
import type { ThreadComment } from '../common/work-item.js';

/**
 * Create a comment. `once` turns off the client's automatic retry for this
 * POST: a 5xx may come back after the comment landed, so repeating it blindly
 * posts it twice — the caller re-reads the thread and decides (forge-emit).
 */
export async function createComment(
  gh: GitHub,
  r: Repo,
  number: number,
  body: string,
  options: { once?: boolean } = {},
): Promise<ThreadComment> {
  const request = options.once ? { request: { retries: 0 } } : {};
  const { data } = await api(`creating a comment on #${number}`, () =>
    gh.rest.issues.createComment({ ...r, issue_number: number, body, ...request }),
  );
  return toComment(data);
}

export async function updateComment(gh: GitHub, r: Repo, id: number, body: string): Promise<ThreadComment> {
  const { data } = await api(`editing comment ${id}`, () => gh.rest.issues.updateComment({ ...r, comment_id: id, body }));
  return toComment(data);
}

export async function deleteComment(gh: GitHub, r: Repo, id: number): Promise<void> {
  await api(`deleting comment ${id}`, () => gh.rest.issues.deleteComment({ ...r, comment_id: id }));
}

export async function updateIssueBody(gh: GitHub, r: Repo, number: number, body: string): Promise<void> {
  await api(`editing the body of #${number}`, () => gh.rest.issues.update({ ...r, issue_number: number, body }));
}

export async function updateMilestoneDescription(gh: GitHub, r: Repo, number: number, description: string): Promise<void> {
  await api(`editing milestone ${number}`, () => gh.rest.issues.updateMilestone({ ...r, milestone_number: number, description }));
}

/** Create the label when the repository lacks it. Returns true when it was created. */
export async function ensureLabel(gh: GitHub, r: Repo, name: string, color: string, description: string): Promise<boolean> {
  try {
    await gh.rest.issues.getLabel({ ...r, name });
    return false;
  } catch (err) {
    if (httpStatus(err) !== 404) throw describeApiError(err, `reading label ${name}`);
  }
  try {
    await gh.rest.issues.createLabel({ ...r, name, color, description });
    return true;
  } catch (err) {
    // 422 already_exists: someone created it between our read and our write.
    if (httpStatus(err) === 422) return false;
    throw describeApiError(err, `creating label ${name}`);
  }
}

export async function addLabels(gh: GitHub, r: Repo, number: number, labels: string[]): Promise<void> {
  await api(`adding ${labels.join(', ')} to #${number}`, () => gh.rest.issues.addLabels({ ...r, issue_number: number, labels }));
}

export async function removeLabel(gh: GitHub, r: Repo, number: number, name: string): Promise<void> {
  try {
    await gh.rest.issues.removeLabel({ ...r, issue_number: number, name });
  } catch (err) {
    if (httpStatus(err) === 404) return; // already gone
    throw describeApiError(err, `removing ${name} from #${number}`);
  }
}

/** Close an issue with GitHub's reason (`not_planned`: the work will not be done). */
/**
 * Close an issue; with `labels`, its whole label set in the same update (GitHub's PATCH takes state, state_reason
 * and labels together), so a close and its label move are one write that lands whole or not at all.
 */
export async function closeIssue(
  gh: GitHub,
  r: Repo,
  number: number,
  reason: 'completed' | 'not_planned',
  labels?: readonly string[],
): Promise<void> {
  await api(`closing #${number}`, () =>
    gh.rest.issues.update({
      ...r,
      issue_number: number,
      state: 'closed',
      state_reason: reason,
      ...(labels ? { labels: [...labels] } : {}),
    }),
  );
}

/**
 * Open an issue (the pipeline board); its number and URL. A lost answer is
 * read back with `landed` before anything is sent again (create-once.ts).
 */
export async function createIssue(
  gh: GitHub,
  r: Repo,
  title: string,
  body: string,
  landed: () => Promise<{ number: number; url: string } | null>,
): Promise<{ number: number; url: string }> {
  return createOnce(
    `opening the issue ${JSON.stringify(title)}`,
    async (once) => {
      const { data } = await gh.rest.issues.create({ ...r, title, body, ...once });
      return { number: data.number, url: data.html_url };
    },
    landed,
  );
}
