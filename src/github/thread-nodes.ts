/**
 * Issues, PRs, comments and reviews as GitHub's GraphQL API gives them, and
 * their reading into the neutral thread shape: the fields every reader asks
 * for (each comment's author, association, editor and hidden state), one
 * place. forge-context's reader (context-read.ts) and the gate's snapshot
 * (snapshot.ts) both ask with these fragments, so a comment reads the same
 * to every action. Further pages come 100 a request, by the thread's node id.
 */
import type { ThreadComment, WorkItem } from '../common/work-item.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';
import { restLogin, type GraphqlActor } from './graphql-answers.js';

/** A PR that links more issues than this is read no further (the gate's limit, MAX_CLOSING_REFERENCES, and one to tell). */
export const CLOSING_FIRST = 21;

export const ACTOR = '{ __typename login }';
export const COMMENT = `id fullDatabaseId url body createdAt author ${ACTOR} authorAssociation isMinimized minimizedReason editor ${ACTOR}`;
export const PAGE = 'pageInfo { hasNextPage endCursor }';
export const THREAD = `id number url title body createdAt author ${ACTOR} authorAssociation editor ${ACTOR}
  labels(first: 100) { nodes { name } }
  comments(first: 100) { ${PAGE} nodes { ${COMMENT} } }`;
/** A review: read like a comment, with what says whether it still speaks for the PR (its state and the commit it is of). */
export const REVIEW = `id fullDatabaseId url body state submittedAt createdAt author ${ACTOR} authorAssociation isMinimized minimizedReason editor ${ACTOR} commit { oid }`;

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

export type Page<T> = { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: Array<T | null> };
export type CommentNode = {
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
export type ReviewNode = CommentNode & { state: string; submittedAt: string | null; commit?: { oid: string } | null };
export type ThreadNode = {
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
/** Who last edited a text, when that is not its author (GraphQL's `editor`). */
export function editorOf(n: { author: GraphqlActor; editor: GraphqlActor }): string | null {
  const editor = restLogin(n.editor);
  const author = restLogin(n.author);
  return editor !== null && editor.toLowerCase() !== (author ?? '').toLowerCase() ? editor : null;
}

export function toComment(n: CommentNode): ThreadComment {
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

export function nodesOf<T>(page: { nodes: Array<T | null> } | null | undefined): T[] {
  return (page?.nodes ?? []).filter((n): n is T => n !== null);
}

export function toItem(n: ThreadNode, kind: 'issue' | 'pull', foreign: string | null): WorkItem {
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

/** Every further page of a thread's comments (or reviews), 100 a request. */
export async function morePages(
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

export async function completeThread(
  gh: GitHub,
  n: ThreadNode,
  item: WorkItem,
  count: { requests: number; points: number },
): Promise<void> {
  if (n.comments?.pageInfo.hasNextPage) item.comments.push(...(await morePages(gh, n.id, n.comments, false, count)).map(toComment));
}
