/**
 * What REST does not say about the evidence, read in one GraphQL query per
 * PR evaluation: whether GitHub hides a comment (minimized, and why), who
 * last edited it (REST shows the author only), and when the PR's current
 * head reached it — GitHub's own record, a force-push event's time, never a
 * commit's author or committer date, which whoever made the commit sets.
 * Only comments (and bodies) that hold a FORGE tag are asked about; one the
 * answer leaves out is reported by the caller, never counted as clean.
 */
import type { GitHub } from './client.js';
import { api } from './errors.js';
import { headSinceFrom, type HeadSince } from './head-since.js';
import { restLogin, withPartialData, type GraphqlActor } from './graphql-answers.js';

/** At most this many comments are asked about per request (GitHub's `nodes(ids:)` limit). */
const IDS_PER_QUERY = 100;

const EVIDENCE_QUERY = `query Evidence($ids: [ID!]!, $pull: ID!, $withPull: Boolean!) {
  pull: node(id: $pull) @include(if: $withPull) {
    ... on PullRequest {
      createdAt
      commits(last: 1) { totalCount }
      timelineItems(last: 50, itemTypes: [HEAD_REF_FORCE_PUSHED_EVENT]) {
        nodes { ... on HeadRefForcePushedEvent { createdAt afterCommit { oid } } }
      }
    }
  }
  nodes(ids: $ids) {
    ... on IssueComment { id isMinimized minimizedReason lastEditedAt editor { __typename login } author { __typename login } }
    ... on PullRequestReview { id isMinimized minimizedReason lastEditedAt editor { __typename login } author { __typename login } }
    ... on Issue { id lastEditedAt editor { __typename login } author { __typename login } }
    ... on PullRequest { id lastEditedAt editor { __typename login } author { __typename login } }
  }
}`;

type Actor = GraphqlActor;

type CommentNode = {
  id: string;
  /** Absent on an issue's or PR's own node (a body is not minimized). */
  isMinimized?: boolean;
  minimizedReason?: string | null;
  lastEditedAt: string | null;
  editor: Actor;
  author: Actor;
} | null;
type PullNode = {
  createdAt: string;
  commits: { totalCount: number };
  timelineItems: { nodes: Array<{ createdAt?: string; afterCommit?: { oid: string } | null } | null> };
} | null;

export interface CommentFacts {
  /** GitHub hides it: the reason in lower case (spam, outdated, off-topic, …); null when shown. */
  hidden: string | null;
  /** The login of whoever last edited it, when that is not its author; null otherwise. */
  editor: string | null;
}

export interface Evidence {
  comments: Map<string, CommentFacts>;
  /**
   * When the head commit reached the PR, as GitHub records it: the newest
   * force push to it, or the PR's opening when it has one commit and was never
   * force-pushed; null when GitHub keeps no record (a plain push).
   */
  headSince: HeadSince;
  /** What GitHub could not answer (an unreadable node): notices. */
  notes: string[];
}

function factsOf(n: NonNullable<CommentNode>): CommentFacts {
  const author = restLogin(n.author)?.toLowerCase() ?? null;
  const editor = restLogin(n.editor);
  return {
    hidden: n.isMinimized === true ? (n.minimizedReason ?? 'hidden').toLowerCase() : null,
    editor: editor !== null && editor.toLowerCase() !== author ? editor : null,
  };
}

function headSinceOf(pull: PullNode, head: string): HeadSince {
  if (!pull) return null;
  return headSinceFrom(pull.timelineItems.nodes, head, pull.commits.totalCount, pull.createdAt);
}

/**
 * The facts of the comments with these node ids and, when `pull` is given,
 * when its head `head` reached it: one request per 100 comments (one in all
 * for most PRs).
 */
export async function readEvidence(gh: GitHub, pull: { nodeId: string; head: string } | null, ids: readonly string[]): Promise<Evidence> {
  const out: Evidence = { comments: new Map(), headSince: null, notes: [] };
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) batches.push(ids.slice(i, i + IDS_PER_QUERY));
  if (batches.length === 0 && pull) batches.push([]);
  for (const [i, batch] of batches.entries()) {
    const withPull = i === 0 && pull !== null;
    const data = await api('reading who edited and hid the annotations', () =>
      withPartialData(
        gh.graphql<{ pull?: PullNode; nodes: CommentNode[] }>(EVIDENCE_QUERY, { ids: batch, pull: pull?.nodeId ?? '', withPull }),
        (errors) => out.notes.push(...errors.map((e) => `GitHub could not say who edited or hid a comment: ${e}`)),
      ),
    );
    if (withPull && pull) out.headSince = headSinceOf(data.pull ?? null, pull.head);
    for (const n of data.nodes ?? []) if (n?.id) out.comments.set(n.id, factsOf(n));
  }
  return out;
}
