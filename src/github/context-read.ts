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
import { withPartialData } from './graphql-answers.js';
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

export const CONTEXT_QUERY = `query ForgeContext($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    defaultBranchRef { name }
    ${PIPELINE_FIELD}
    issueOrPullRequest(number: $number) {
      __typename
      ... on Issue {
        ${THREAD}
        parent { ${THREAD} repository { nameWithOwner } }
      }
      ... on PullRequest {
        ${THREAD}
        reviews(first: 100) { ${PAGE} nodes { ${REVIEW} } }
        closingIssuesReferences(first: ${CLOSING_FIRST}) { totalCount nodes { ${THREAD} repository { nameWithOwner } } }
        linked: closingIssuesReferences(first: ${CLOSING_FIRST}, userLinkedOnly: true) { nodes { number repository { nameWithOwner } } }
      }
    }
  }
}`;

type IssueNode = ThreadNode & { __typename: 'Issue'; parent: ThreadNode | null };
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
  /** What GitHub could not answer (a node the token cannot see): named in the pack. */
  notes: string[];
  requests: number;
  /** GraphQL points spent, as GitHub's rateLimit { cost } reports them. */
  points: number;
  /** The pipeline file on the default branch, read in the same query; null when the repository has none. */
  pipeline: PipelineAnswer;
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
  const count = { requests: 1, points: 0 };
  const data = await api(`reading #${number} and its thread`, () =>
    withPartialData(gh.graphql<ContextData>(CONTEXT_QUERY, { owner: r.owner, repo: r.repo, number }), (errors) =>
      notes.push(...errors.map((e) => `GitHub could not show part of #${number}'s context: ${e}`)),
    ),
  );
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
    notes,
    requests: 0,
    points: 0,
    pipeline,
  };
  if (node.__typename === 'Issue' && node.parent) {
    const foreign = foreignOf(node.parent);
    const parent = toItem(node.parent, 'issue', foreign);
    await completeThread(gh, node.parent, parent, count);
    snapshot.parent = { item: parent, repository: foreign ?? here };
  }
  if (node.__typename === 'PullRequest') {
    const reviews = [
      ...nodesOf(node.reviews),
      ...(node.reviews?.pageInfo.hasNextPage ? await morePages(gh, node.id, node.reviews, true, count) : []),
    ];
    // A review speaks once submitted and while it stands: pending and dismissed ones do not.
    for (const rv of reviews as ReviewNode[])
      if ((rv.body ?? '') !== '' && rv.submittedAt && rv.state !== 'PENDING' && rv.state !== 'DISMISSED')
        subject.comments.push({ ...toComment(rv), createdAt: rv.submittedAt });
    subject.comments.sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : (a.createdAt ?? '') > (b.createdAt ?? '') ? 1 : 0));
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
