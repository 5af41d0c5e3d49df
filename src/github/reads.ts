/**
 * Reading issues and PRs into the neutral thread shape. Every list call
 * paginates to the end at per_page=100: an annotation in the 950th comment of
 * a 1,000-comment thread is found.
 */
import { quote } from '../codec/index.js';
import { UsageError } from '../common/errors.js';
import { closingIssues } from '../common/closing.js';
import { toComment, toWorkItem } from './rest-shapes.js';
import type { Approval, ThreadComment, WorkItem } from '../common/work-item.js';
import type { GitHub } from './client.js';
import { api, describeApiError } from './errors.js';
import { repoName, type Repo } from '../common/repo.js';

export async function listComments(gh: GitHub, r: Repo, number: number): Promise<ThreadComment[]> {
  const raw = await api(`reading the comments of #${number}`, () =>
    gh.paginate(gh.rest.issues.listComments, { ...r, issue_number: number, per_page: 100 }),
  );
  return raw.map(toComment);
}

export async function getComment(gh: GitHub, r: Repo, id: number): Promise<ThreadComment> {
  const { data } = await api(`reading comment ${id}`, () => gh.rest.issues.getComment({ ...r, comment_id: id }));
  return toComment(data);
}

export async function getIssue(gh: GitHub, r: Repo, number: number): Promise<WorkItem> {
  const { data } = await api(`reading #${number}`, () => gh.rest.issues.get({ ...r, issue_number: number }));
  return toWorkItem(data, []);
}

/** An issue or PR with its labels, body and every comment (the issue and the first page of comments asked at once). */
export async function readThread(gh: GitHub, r: Repo, number: number): Promise<WorkItem> {
  const [item, comments] = await Promise.all([getIssue(gh, r, number), listComments(gh, r, number)]);
  item.comments = comments;
  return item;
}

/** A PR as the gate needs it: where its head is, whether it is open, and the issues its body closes by keyword. */
export interface PullInfo {
  number: number;
  /** The head branch's name and its current commit. */
  head: string;
  sha: string;
  state: 'open' | 'closed';
  /** The branch it merges into. */
  base: string;
  /** owner/name of the head repository (a fork's, for a PR from a fork); null when it is gone. */
  headRepository: string | null;
  /** Issues of this repository its body closes by keyword (GitHub's grammar). */
  closes: number[];
  /** GitHub's global id (GraphQL). */
  nodeId: string;
}

/** The PR's head, base and state, and the issues its body closes (via the pulls endpoint, the source of truth for each). */
export async function readPull(gh: GitHub, r: Repo, number: number): Promise<PullInfo> {
  const { data } = await api(`reading PR #${number}`, () => gh.rest.pulls.get({ ...r, pull_number: number }));
  return {
    number,
    head: data.head?.ref ?? '',
    sha: data.head?.sha ?? '',
    state: data.state === 'closed' ? 'closed' : 'open',
    base: data.base?.ref ?? '',
    headRepository: data.head?.repo?.full_name ?? null,
    closes: closingIssues(data.body ?? '', repoName(r)).filter((n) => n !== number),
    nodeId: data.node_id ?? '',
  };
}

/** The open PRs whose head is `sha` (GitHub lists none for a commit that only a fork holds). */
export async function pullsForCommit(gh: GitHub, r: Repo, sha: string): Promise<number[]> {
  const { data } = await api(`listing the PRs of commit ${sha.slice(0, 12)}`, () =>
    gh.rest.repos.listPullRequestsAssociatedWithCommit({ ...r, commit_sha: sha, per_page: 100 }),
  );
  return data.filter((p) => p.state === 'open' && p.head?.sha === sha).map((p) => p.number);
}

/** The open PRs whose head is `owner:branch` (how a fork's PR is found from its head). */
export async function openPullsByHead(gh: GitHub, r: Repo, owner: string, branch: string): Promise<Array<{ number: number; sha: string }>> {
  const { data } = await api(`listing the open PRs from ${owner}:${branch}`, () =>
    gh.rest.pulls.list({ ...r, state: 'open', head: `${owner}:${branch}`, per_page: 100 }),
  );
  return data.map((p) => ({ number: p.number, sha: p.head?.sha ?? '' }));
}

/** The page number of `rel="last"` in a Link header, or null when there is one page. */
export function lastPage(link: string | undefined): number | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    if (!/rel="last"/.test(part)) continue;
    const m = /[?&]page=(\d+)/.exec(part);
    if (m) return Number(m[1]);
  }
  return null;
}

/** One page of an issue's comments (per_page=100) and the number of the last page. */
export async function commentsPage(
  gh: GitHub,
  r: Repo,
  number: number,
  page: number,
): Promise<{ comments: ThreadComment[]; last: number }> {
  const res = await api(`reading page ${page} of the comments of #${number}`, () =>
    gh.rest.issues.listComments({ ...r, issue_number: number, per_page: 100, page }),
  );
  return { comments: res.data.map(toComment), last: lastPage(res.headers.link) ?? page };
}

/** A PR's review bodies, read like comments: review agents often post REVIEWER as a review. */
/** A review body read like a comment, with what decides whether it still speaks for the PR. */
export type ReviewComment = ThreadComment & { review: { state: string; commit: string | null; submitted: boolean } };

export async function listReviews(gh: GitHub, r: Repo, number: number): Promise<ReviewComment[]> {
  const raw = await api(`reading the reviews of PR #${number}`, () =>
    gh.paginate(gh.rest.pulls.listReviews, { ...r, pull_number: number, per_page: 100 }),
  );
  return raw
    .filter((rv) => (rv.body ?? '') !== '')
    .map((rv) => ({
      ...toComment(rv),
      createdAt: rv.submitted_at ?? null,
      // A review not yet submitted (PENDING) is seen by its author alone.
      review: { state: rv.state, commit: rv.commit_id ?? null, submitted: !!rv.submitted_at && rv.state !== 'PENDING' },
    }));
}

/** A PR's submitted approving reviews, bodies or not (REST's listing; the gate's snapshot carries them otherwise). */
export async function listApprovals(gh: GitHub, r: Repo, number: number): Promise<Approval[]> {
  const raw = await api(`reading the reviews of PR #${number}`, () =>
    gh.paginate(gh.rest.pulls.listReviews, { ...r, pull_number: number, per_page: 100 }),
  );
  return raw
    .filter((rv) => rv.state === 'APPROVED' && !!rv.submitted_at)
    .map((rv) => ({
      author: { login: rv.user?.login ?? null, association: rv.author_association ?? 'NONE' },
      commit: rv.commit_id ?? null,
    }));
}

export interface MilestoneInfo {
  number: number;
  title: string;
  description: string;
  state: string;
  url: string;
}

function toMilestone(m: { number: number; title: string; description?: string | null; state?: string; html_url?: string }): MilestoneInfo {
  return { number: m.number, title: m.title, description: m.description ?? '', state: m.state ?? 'open', url: m.html_url ?? '' };
}

export async function getMilestone(gh: GitHub, r: Repo, number: number): Promise<MilestoneInfo> {
  const { data } = await api(`reading milestone ${number}`, () => gh.rest.issues.getMilestone({ ...r, milestone_number: number }));
  return toMilestone(data);
}

export async function listMilestones(gh: GitHub, r: Repo): Promise<MilestoneInfo[]> {
  const all = await api('listing milestones', () => gh.paginate(gh.rest.issues.listMilestones, { ...r, state: 'all', per_page: 100 }));
  return all.map(toMilestone);
}

/** A milestone by number or by exact title (open or closed). */
export async function findMilestone(gh: GitHub, r: Repo, ref: string): Promise<MilestoneInfo> {
  if (/^\d+$/.test(ref.trim())) return getMilestone(gh, r, Number(ref.trim()));
  const all = await listMilestones(gh, r);
  const m = all.find((x) => x.title === ref.trim());
  if (!m) throw new UsageError(`milestone ${quote(ref)} not found in ${r.owner}/${r.repo}`);
  return m;
}

/** Which milestone an action works on: named by the `milestone` input (number or title), or the milestone of an issue. */
export type MilestoneRef = { name: string } | { ofIssue: Pick<WorkItem, 'number' | 'milestone'> } | { ofIssueNumber: number };

/** The milestone a reference names, reading the issue first when only its number is known. */
export async function resolveMilestone(gh: GitHub, r: Repo, ref: MilestoneRef): Promise<MilestoneInfo> {
  if ('name' in ref) return findMilestone(gh, r, ref.name);
  const issue = 'ofIssue' in ref ? ref.ofIssue : await getIssue(gh, r, ref.ofIssueNumber);
  if (!issue.milestone) throw new UsageError(`#${issue.number} has no milestone; set the "milestone" input`);
  return getMilestone(gh, r, issue.milestone.number);
}

/**
 * The login the token acts as: a user token's from GET /user; null for a
 * GitHub App installation token (the workflow's GITHUB_TOKEN among them),
 * which GitHub does not let call /user — its comments are a `[bot]`'s.
 */
export async function tokenLogin(gh: GitHub): Promise<string | null> {
  try {
    const { data } = await gh.rest.users.getAuthenticated();
    return data.login;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 403 || status === 401) return null;
    throw describeApiError(err, "reading the token's user");
  }
}

/** Did the token write as `login`? Its own login when known; for an App installation token, a bot. */
export function writtenByToken(identity: string | null, login: string | null): boolean {
  if (!login) return false;
  if (identity === null) return login.endsWith('[bot]');
  // GraphQL's viewer names an App installation's bot with `[bot]` (REST's spelling) or, read as an actor, by its
  // slug alone: the same account either way, and a user's login never ends in `[bot]`.
  const bare = (x: string) => x.toLowerCase().replace(/\[bot\]$/, '');
  return bare(login) === bare(identity) && (!identity.endsWith('[bot]') || login.endsWith('[bot]'));
}

/** An open PR of this repository and its head commit (fork PRs included). */
export interface OpenPull {
  number: number;
  sha: string;
  /** Who opened it (the list carries login and association): a stranger's many PRs on one head are told apart. */
  author: { login: string | null; association: string };
  /** The issues of this repository its body closes by keyword (GitHub's grammar). */
  closes: number[];
  /** Whether its body holds a FORGE tag at all (the listing carries the body, not the comments). */
  bodyTagged: boolean;
}

/**
 * Every open PR of this repository with its head commit, 100 a request: who
 * else shows the status written on a commit (a commit status belongs to the
 * commit, not to one PR).
 */
export async function listOpenPulls(gh: GitHub, r: Repo): Promise<OpenPull[]> {
  const raw = await api('listing the open PRs', () => gh.paginate(gh.rest.pulls.list, { ...r, state: 'open', per_page: 100 }));
  return raw.map((p) => ({
    number: p.number,
    sha: p.head?.sha ?? '',
    author: { login: p.user?.login ?? null, association: p.author_association ?? 'NONE' },
    closes: closingIssues(p.body ?? '', repoName(r)).filter((n) => n !== p.number),
    bodyTagged: (p.body ?? '').includes('FORGE:'),
  }));
}
