/**
 * What a stage reads, in one GraphQL query: the issue (or PR) with its body,
 * labels and comments — each with its author, association, editor and hidden
 * state — and, for a sub-issue, its parent's thread; for a PR, its review
 * bodies and the issues it closes with their threads. One request for a
 * thread of up to 100 comments; one more per further 100 (of each thread).
 * The query is held to GitHub's published schema by the test suite (its SDL:
 * `Issue.parent`, the sub-issue's parent, is in schema.graphql but not yet in
 * the package's introspection JSON). `state` is left out: an issue's and a
 * PR's are of different types and cannot share one response key.
 */
import type { Repo } from '../common/repo.js';
import { repoName } from '../common/repo.js';
import type { WorkItem } from '../common/work-item.js';
import type { GitHub } from './client.js';
import { api, ApiError } from './errors.js';
import { PIPELINE_FIELD, pipelineFromNode, type PipelineNode } from './pipeline-read.js';
import type { PipelineAnswer } from '../common/pipeline.js';
import {
  CLOSING_FIRST,
  PAGE,
  REVIEW,
  THREAD,
  completeThread,
  morePages,
  nodesOf,
  toComment,
  toItem,
  type Page,
  type ReviewNode,
  type ThreadNode,
} from './thread-nodes.js';

/** How many open PRs that close an issue its reader reads with it (each with its thread and reviews). */
export const CLOSED_BY_FIRST = 5;

/** What the reader asks of an issue: its thread, its parent's, and the open PRs that close it with their threads and reviews. */
export const ISSUE_FIELDS = `
        ${THREAD}
        parent { ${THREAD} repository { nameWithOwner } }
        closedBy: closedByPullRequestsReferences(first: ${CLOSED_BY_FIRST}, includeClosedPrs: false) {
          totalCount
          nodes { ${THREAD} repository { nameWithOwner } reviews(first: 100) { ${PAGE} nodes { ${REVIEW} } } }
        }
        closedByLinked: closedByPullRequestsReferences(first: ${CLOSED_BY_FIRST}, includeClosedPrs: false, userLinkedOnly: true) {
          nodes { number repository { nameWithOwner } }
        }`;

export const CONTEXT_QUERY = `query ForgeContext($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    defaultBranchRef { name }
    ${PIPELINE_FIELD}
    issueOrPullRequest(number: $number) {
      __typename
      ... on Issue { ${ISSUE_FIELDS} }
      ... on PullRequest {
        ${THREAD}
        reviews(first: 100) { ${PAGE} nodes { ${REVIEW} } }
        closingIssuesReferences(first: ${CLOSING_FIRST}) { totalCount nodes { ${THREAD} repository { nameWithOwner } } }
        linked: closingIssuesReferences(first: ${CLOSING_FIRST}, userLinkedOnly: true) { nodes { number repository { nameWithOwner } } }
      }
    }
  }
}`;

type ClosingPullNode = ThreadNode & { reviews: Page<ReviewNode> };
export type IssueNode = ThreadNode & {
  __typename: 'Issue';
  parent: ThreadNode | null;
  closedBy?: { totalCount: number; nodes: Array<ClosingPullNode | null> } | null;
  closedByLinked?: { nodes: Array<{ number: number; repository: { nameWithOwner: string } } | null> } | null;
};
type PullNode = ThreadNode & {
  __typename: 'PullRequest';
  reviews: Page<ReviewNode>;
  closingIssuesReferences: { totalCount: number; nodes: Array<ThreadNode | null> };
  linked: { nodes: Array<{ number: number; repository: { nameWithOwner: string } } | null> };
};
type ContextData = {
  rateLimit?: { cost: number; remaining: number } | null;
  repository: {
    nameWithOwner: string;
    defaultBranchRef?: { name: string } | null;
    pipelineFile?: PipelineNode;
    issueOrPullRequest: IssueNode | PullNode | null;
  } | null;
};

/** The issues and PR a stage reads, as GitHub has them. */
export interface ContextSnapshot {
  repository: string;
  subject: WorkItem;
  /** For a PR: the issues it closes that were read (sidebar links; keyword links when `followKeywords` says so). */
  closes: WorkItem[];
  /** For a PR: the keyword-linked issues left unread, because its author is not trusted. */
  keywordOnly: Array<{ repository: string; number: number }>;
  /** How many issues the PR links in all (to tell when there are more than were read). */
  closingCount: number;
  parent: { item: WorkItem; repository: string } | null;
  /**
   * For an issue: the open PRs that close it, read with their threads and
   * reviews, so the issue routes as its PR does — those linked in the sidebar,
   * and those by a trusted author (a stranger's closing keyword is named, not read).
   */
  pulls: WorkItem[];
  /** For an issue: the open PRs that close it and were left unread (a stranger's keyword; more than were read). */
  pullsUnread: string[];
  /** What GitHub could not answer (a node the token cannot see): named in the pack. */
  notes: string[];
  requests: number;
  /** GraphQL points spent, as GitHub's rateLimit { cost } reports them. */
  points: number;
  /** The pipeline file on the default branch, read in the same query; null when the repository has none. */
  pipeline: PipelineAnswer;
  /** The repository's default branch, as the same answer names it (null when GitHub did not say). */
  defaultBranch: string | null;
}

/** How many times the reader asks for a thread GitHub answered with holes in. */
export const CONTEXT_ASKS = 2;

export type GraphqlError = { message?: string; type?: string; path?: Array<string | number> };

/**
 * One ask of the reader's query: the data, the errors that leave a hole in a
 * thread that was read (a comment or review GitHub failed to resolve: the
 * thread would be decided on without it), and the rest (a linked issue or a
 * parent the token cannot see: named in the pack).
 */
async function askContext(gh: GitHub, r: Repo, number: number): Promise<{ data: ContextData; holes: string[]; notes: string[] }> {
  let errors: GraphqlError[] = [];
  const data = await api(`reading #${number} and its thread`, async () => {
    try {
      return await gh.graphql<ContextData>(CONTEXT_QUERY, { owner: r.owner, repo: r.repo, number });
    } catch (err) {
      const e = err as { data?: ContextData | null; errors?: GraphqlError[] };
      if (e?.data === undefined || e.data === null || !Array.isArray(e.errors)) throw err;
      errors = e.errors.filter((x) => x.type !== 'NOT_FOUND');
      return e.data;
    }
  });
  const line = (x: GraphqlError) => (x.message ?? 'an unknown error').split('\n')[0].slice(0, 300);
  const inThread = (x: GraphqlError) => (x.path ?? []).some((p) => p === 'comments' || p === 'reviews');
  return { data, holes: errors.filter(inThread).map(line), notes: errors.filter((x) => !inThread(x)).map(line) };
}

/** A PR's submitted review bodies, read into its comments in time order (as its comments are). */
async function addReviews(
  gh: GitHub,
  node: { id: string; reviews: Page<ReviewNode> },
  pull: WorkItem,
  count: { requests: number; points: number },
): Promise<void> {
  const reviews = [
    ...nodesOf(node.reviews),
    ...(node.reviews?.pageInfo.hasNextPage ? await morePages(gh, node.id, node.reviews, true, count) : []),
  ];
  // A review speaks once submitted and while it stands: pending and dismissed ones do not.
  for (const rv of reviews as ReviewNode[])
    if ((rv.body ?? '') !== '' && rv.submittedAt && rv.state !== 'PENDING' && rv.state !== 'DISMISSED')
      pull.comments.push({ ...toComment(rv), createdAt: rv.submittedAt });
  pull.comments.sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : (a.createdAt ?? '') > (b.createdAt ?? '') ? 1 : 0));
}

/**
 * Issue or PR #number and everything its stage reads. `followKeywords(author)`
 * says whether a PR author's closing keywords count (sidebar links always
 * do): a stranger's keywords are reported, never followed.
 */
export async function readContextSnapshot(
  gh: GitHub,
  r: Repo,
  number: number,
  followKeywords: (pull: WorkItem) => Promise<boolean>,
  onPipeline: (pipeline: PipelineAnswer) => void = () => undefined,
): Promise<ContextSnapshot> {
  const notes: string[] = [];
  const count = { requests: 0, points: 0 };
  // A thread with holes (a comment GitHub failed to resolve) is asked for again, once; never decided on.
  let data: ContextData | null = null;
  for (let ask = 1; data === null; ask++) {
    const answer = await askContext(gh, r, number);
    count.requests++;
    if (answer.holes.length === 0 || ask >= CONTEXT_ASKS) {
      if (answer.holes.length > 0)
        throw new ApiError(
          `reading #${number} failed: GitHub's answer left part of a thread out ${CONTEXT_ASKS} times (${answer.holes[0]}): no stage is decided on a thread with holes; run the step again`,
          502,
          true,
        );
      notes.push(...answer.notes.map((e) => `GitHub could not show part of #${number}'s context: ${e}`));
      data = answer.data;
    }
  }
  count.points += data.rateLimit?.cost ?? 0;
  // The rules come first: who is trusted decides which links are followed below.
  const pipeline = pipelineFromNode(data.repository?.pipelineFile, data.repository?.defaultBranchRef?.name ?? null);
  onPipeline(pipeline);
  const here = data.repository?.nameWithOwner ?? repoName(r);
  const node = data.repository?.issueOrPullRequest ?? null;
  if (node === null)
    throw new ApiError(
      `reading #${number} failed: not found: it is no issue or pull request of ${repoName(r)} that this token can see`,
      404,
      false,
    );
  return snapshotOfNode(gh, here, node, pipeline, data.repository?.defaultBranchRef?.name ?? null, followKeywords, notes, count);
}

/**
 * A work item's snapshot from its node in an answer (the reader's query, or a
 * page of the dispatcher's sweep): its thread and its links' threads read to
 * the end, 100 comments a further request.
 */
export async function snapshotOfNode(
  gh: GitHub,
  here: string,
  node: IssueNode | PullNode,
  pipeline: PipelineAnswer,
  defaultBranch: string | null,
  followKeywords: (pull: WorkItem) => Promise<boolean>,
  notes: string[],
  count: { requests: number; points: number },
): Promise<ContextSnapshot> {
  const number = node.number;
  const foreignOf = (t: ThreadNode) => {
    const repo = t.repository?.nameWithOwner ?? here;
    return repo.toLowerCase() === here.toLowerCase() ? null : repo;
  };
  const subject = toItem(node, node.__typename === 'PullRequest' ? 'pull' : 'issue', null);
  await completeThread(gh, node, subject, count);
  const snapshot: ContextSnapshot = {
    repository: here,
    subject,
    closes: [],
    keywordOnly: [],
    closingCount: 0,
    parent: null,
    pulls: [],
    pullsUnread: [],
    notes,
    requests: 0,
    points: 0,
    pipeline,
    defaultBranch,
  };
  if (node.__typename === 'Issue' && node.parent) {
    const foreign = foreignOf(node.parent);
    const parent = toItem(node.parent, 'issue', foreign);
    await completeThread(gh, node.parent, parent, count);
    snapshot.parent = { item: parent, repository: foreign ?? here };
  }
  if (node.__typename === 'Issue' && node.closedBy) {
    const sidebar = new Set(nodesOf(node.closedByLinked).map((l) => `${l.repository.nameWithOwner.toLowerCase()}#${l.number}`));
    for (const p of nodesOf(node.closedBy)) {
      const repo = p.repository?.nameWithOwner ?? here;
      const name = foreignOf(p) ? `${repo}#${p.number}` : `PR #${p.number}`;
      const pull = toItem(p, 'pull', foreignOf(p));
      if (!sidebar.has(`${repo.toLowerCase()}#${p.number}`) && !(await followKeywords(pull))) {
        snapshot.pullsUnread.push(
          `${name} by ${pull.author.login ?? '(unknown)'}, who is not in trusted-authors, closes it by keyword: not read`,
        );
        continue;
      }
      await completeThread(gh, p, pull, count);
      await addReviews(gh, p, pull, count);
      snapshot.pulls.push(pull);
    }
    const total = node.closedBy.totalCount ?? 0;
    if (total > CLOSED_BY_FIRST) snapshot.pullsUnread.push(`${total} open PRs close #${number}: the first ${CLOSED_BY_FIRST} are read`);
  }
  if (node.__typename === 'PullRequest') {
    await addReviews(gh, node, subject, count);
    const sidebar = new Set(nodesOf(node.linked).map((l) => `${l.repository.nameWithOwner.toLowerCase()}#${l.number}`));
    const follow = await followKeywords(subject);
    snapshot.closingCount = node.closingIssuesReferences?.totalCount ?? 0;
    for (const t of nodesOf(node.closingIssuesReferences)) {
      const repo = t.repository?.nameWithOwner ?? here;
      if (repo.toLowerCase() === here.toLowerCase() && t.number === number) continue;
      if (!follow && !sidebar.has(`${repo.toLowerCase()}#${t.number}`)) {
        snapshot.keywordOnly.push({ repository: repo, number: t.number });
        continue;
      }
      const item = toItem(t, 'issue', foreignOf(t));
      await completeThread(gh, t, item, count);
      snapshot.closes.push(item);
    }
  }
  snapshot.requests = count.requests;
  snapshot.points = count.points;
  return snapshot;
}
