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
import type { ThreadComment, WorkItem } from '../common/work-item.js';
import type { GitHub } from './client.js';
import { api, ApiError } from './errors.js';
import { restLogin, withPartialData, type GraphqlActor } from './graphql-answers.js';

/** A PR that links more issues than this is read no further (the gate's limit, MAX_CLOSING_REFERENCES, and one to tell). */
const CLOSING_FIRST = 21;

const ACTOR = '{ __typename login }';
const COMMENT = `id fullDatabaseId url body createdAt author ${ACTOR} authorAssociation isMinimized minimizedReason editor ${ACTOR}`;
const PAGE = 'pageInfo { hasNextPage endCursor }';
const THREAD = `id number url title body createdAt author ${ACTOR} authorAssociation editor ${ACTOR}
  labels(first: 100) { nodes { name } }
  comments(first: 100) { ${PAGE} nodes { ${COMMENT} } }`;
const REVIEW = `id fullDatabaseId url body state submittedAt createdAt author ${ACTOR} authorAssociation isMinimized minimizedReason editor ${ACTOR}`;

export const CONTEXT_QUERY = `query ForgeContext($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  repository(owner: $owner, name: $repo) {
    nameWithOwner
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

/** The next 100 comments (or review bodies) of one thread, by its node id. */
export const CONTEXT_PAGE_QUERY = `query ForgeContextPage($id: ID!, $after: String, $reviews: Boolean!) {
  rateLimit { cost remaining }
  node(id: $id) {
    ... on Issue { comments(first: 100, after: $after) @skip(if: $reviews) { ${PAGE} nodes { ${COMMENT} } } }
    ... on PullRequest {
      comments(first: 100, after: $after) @skip(if: $reviews) { ${PAGE} nodes { ${COMMENT} } }
      reviews(first: 100, after: $after) @include(if: $reviews) { ${PAGE} nodes { ${REVIEW} } }
    }
  }
}`;

type Page<T> = { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: Array<T | null> };
type CommentNode = {
  id: string;
  fullDatabaseId: string | number | null;
  url: string;
  body: string;
  createdAt: string;
  author: GraphqlActor;
  authorAssociation: string;
  isMinimized: boolean;
  minimizedReason: string | null;
  editor: GraphqlActor;
};
type ReviewNode = CommentNode & { state: string; submittedAt: string | null };
type ThreadNode = {
  id: string;
  number: number;
  url: string;
  title: string;
  body: string;
  createdAt: string;
  author: GraphqlActor;
  authorAssociation: string;
  editor: GraphqlActor;
  labels: { nodes: Array<{ name: string } | null> } | null;
  comments: Page<CommentNode>;
  repository?: { nameWithOwner: string };
};
type IssueNode = ThreadNode & { __typename: 'Issue'; parent: ThreadNode | null };
type PullNode = ThreadNode & {
  __typename: 'PullRequest';
  reviews: Page<ReviewNode>;
  closingIssuesReferences: { totalCount: number; nodes: Array<ThreadNode | null> };
  linked: { nodes: Array<{ number: number; repository: { nameWithOwner: string } } | null> };
};
type ContextData = {
  rateLimit?: { cost: number; remaining: number } | null;
  repository: { nameWithOwner: string; issueOrPullRequest: IssueNode | PullNode | null } | null;
};

/** Who last edited a text, when that is not its author (GraphQL's `editor`). */
function editorOf(n: { author: GraphqlActor; editor: GraphqlActor }): string | null {
  const editor = restLogin(n.editor);
  const author = restLogin(n.author);
  return editor !== null && editor.toLowerCase() !== (author ?? '').toLowerCase() ? editor : null;
}

function toComment(n: CommentNode): ThreadComment {
  return {
    id: Number(n.fullDatabaseId ?? 0),
    url: n.url,
    author: { login: restLogin(n.author), association: n.authorAssociation ?? 'NONE' },
    body: n.body ?? '',
    createdAt: n.createdAt ?? null,
    nodeId: n.id,
    hidden: n.isMinimized ? (n.minimizedReason ?? 'hidden').toLowerCase() : null,
    editor: editorOf(n),
  };
}

function nodesOf<T>(page: { nodes: Array<T | null> } | null | undefined): T[] {
  return (page?.nodes ?? []).filter((n): n is T => n !== null);
}

function toItem(n: ThreadNode, kind: 'issue' | 'pull', foreign: string | null): WorkItem {
  return {
    number: n.number,
    kind,
    url: n.url,
    title: n.title ?? '',
    author: { login: restLogin(n.author), association: n.authorAssociation ?? 'NONE' },
    body: n.body ?? '',
    labels: nodesOf(n.labels).map((l) => l.name),
    state: null,
    milestone: null,
    createdAt: n.createdAt ?? null,
    comments: nodesOf(n.comments).map(toComment),
    nodeId: n.id,
    bodyEditor: editorOf(n),
    ...(foreign ? { foreign } : {}),
  };
}

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
}

/** Every further page of a thread's comments (or reviews), 100 a request. */
async function morePages(
  gh: GitHub,
  nodeId: string,
  first: Page<CommentNode>,
  reviews: boolean,
  count: { requests: number; points: number },
): Promise<CommentNode[]> {
  const out: CommentNode[] = [];
  let page = first;
  while (page.pageInfo.hasNextPage && page.pageInfo.endCursor) {
    const after = page.pageInfo.endCursor;
    const data = await api(`reading more ${reviews ? 'reviews' : 'comments'}`, () =>
      gh.graphql<{ rateLimit?: { cost: number } | null; node: { comments?: Page<CommentNode>; reviews?: Page<CommentNode> } | null }>(
        CONTEXT_PAGE_QUERY,
        { id: nodeId, after, reviews },
      ),
    );
    count.requests++;
    count.points += data.rateLimit?.cost ?? 0;
    const next = reviews ? data.node?.reviews : data.node?.comments;
    if (!next) break;
    out.push(...nodesOf(next));
    page = next;
  }
  return out;
}

async function completeThread(gh: GitHub, n: ThreadNode, item: WorkItem, count: { requests: number; points: number }): Promise<void> {
  if (n.comments?.pageInfo.hasNextPage) item.comments.push(...(await morePages(gh, n.id, n.comments, false, count)).map(toComment));
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
): Promise<ContextSnapshot> {
  const notes: string[] = [];
  const count = { requests: 1, points: 0 };
  const data = await api(`reading #${number} and its thread`, () =>
    withPartialData(gh.graphql<ContextData>(CONTEXT_QUERY, { owner: r.owner, repo: r.repo, number }), (errors) =>
      notes.push(...errors.map((e) => `GitHub could not show part of #${number}'s context: ${e}`)),
    ),
  );
  count.points += data.rateLimit?.cost ?? 0;
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
