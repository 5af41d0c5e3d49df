/**
 * Reading issues and PRs into the neutral thread shape. Every list call
 * paginates to the end at per_page=100: an annotation in the 950th comment of
 * a 1,000-comment thread is found.
 */
import { closingIssues } from '../common/closing.js';
import { toComment, toWorkItem } from '../common/rest.js';
import type { ThreadComment, WorkItem } from '../common/thread.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';
import { repoName, type Repo } from './repo.js';

export async function listComments(gh: GitHub, r: Repo, number: number): Promise<ThreadComment[]> {
  const raw = await api(`reading the comments of #${number}`, () =>
    gh.paginate(gh.rest.issues.listComments, { ...r, issue_number: number, per_page: 100 }),
  );
  return raw.map(toComment);
}

export async function readIssueOnly(gh: GitHub, r: Repo, number: number): Promise<WorkItem> {
  const { data } = await api(`reading #${number}`, () => gh.rest.issues.get({ ...r, issue_number: number }));
  return toWorkItem(data, []);
}

/** An issue or PR with its labels, body and every comment. */
export async function readThread(gh: GitHub, r: Repo, number: number): Promise<WorkItem> {
  const item = await readIssueOnly(gh, r, number);
  item.comments = await listComments(gh, r, number);
  return item;
}

/** The PR's body (via the pulls endpoint, the source of truth for it) and the issues it closes. */
export async function readPullClosing(gh: GitHub, r: Repo, number: number): Promise<number[]> {
  const { data } = await api(`reading PR #${number}`, () => gh.rest.pulls.get({ ...r, pull_number: number }));
  return closingIssues(data.body ?? '', repoName(r)).filter((n) => n !== number);
}
