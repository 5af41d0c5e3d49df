/**
 * The gate's one read: everything a verdict on some PRs needs, in one GraphQL
 * query — each PR with its head, base, labels, body and body editor, its
 * comments and reviews (authors, associations, editors, hidden state), the
 * force pushes that date its head, the issues it closes with their threads,
 * the newest statuses on its head; the open PRs' heads (who else shows a
 * commit's status); the statuses of named commits (a merge group's); and the
 * token's own login (`viewer`, which an App installation token may ask, unlike
 * REST's GET /user). An issue on its own is one query too.
 *
 * GitHub prices a query by the connections it asks for (100 nodes a unit), so
 * one PR costs 1 point with up to 100 comments. A thread past 100 comments (or
 * reviews) costs one more request per 100. The queries are held to GitHub's
 * published schema by the test suite. A node GitHub leaves out of a partial
 * answer is never read as absent: the thread it belongs to is marked
 * `incomplete`, and the caller reads it again another way.
 */
import { closingIssues } from '../common/closing.js';
import { repoName, type Repo } from '../common/repo.js';
import type { Approval, ThreadComment, WorkItem } from '../common/work-item.js';
import { isGraphqlTimeout, type GitHub } from './client.js';
import { headSinceFrom, type HeadSince } from './head-since.js';
import { api, ApiError } from './errors.js';
import { restLogin, withPartialData, type GraphqlActor } from './graphql-answers.js';
import type { ItemRef, PullLinks } from './links.js';
import type { PipelineAnswer } from '../common/pipeline.js';
import { PIPELINE_FIELD, pipelineFromNode, type PipelineNode } from './pipeline-read.js';
import type { PullInfo, ReviewComment } from './reads.js';
import type { CommitStatus, StatusState } from './statuses.js';
import {
  ACTOR,
  CLOSING_FIRST,
  COMMENT as COMMENT_FIELDS,
  PAGE,
  REVIEW,
  THREAD,
  completeThread,
  morePages,
  nodesOf,
  toComment,
  toItem,
  type CommentNode,
  type Page,
  type ReviewNode,
  type ThreadNode,
} from './thread-nodes.js';

/** At most this many PRs are read in one query (each is about half a point's worth of connections). */
export const PULLS_PER_QUERY = 10;

/** How many force pushes are looked through for the one that brought the head (the newest first). */
const FORCE_PUSHES = 50;

const STATUS = 'status { contexts { context state description targetUrl createdAt } }';

/** The issue-side fields beside the thread: an issue's state, which a PR's has under another type. */
const ISSUE_FIELDS = `${THREAD} state stateReason milestone { number title } repository { nameWithOwner }`;

const PULL_FRAGMENT = `fragment GatePull on PullRequest {
  ${THREAD}
  state headRefName headRefOid baseRefName headRepository { nameWithOwner }
  milestone { number title }
  reviews(first: 100) { ${PAGE} nodes { ${REVIEW} } }
  commits(last: 1) { totalCount }
  timelineItems(last: ${FORCE_PUSHES}, itemTypes: [HEAD_REF_FORCE_PUSHED_EVENT]) {
    nodes { __typename ... on HeadRefForcePushedEvent { createdAt afterCommit { oid } } }
  }
  closingIssuesReferences(first: ${CLOSING_FIRST}) { totalCount nodes { ${ISSUE_FIELDS} } }
  linked: closingIssuesReferences(first: ${CLOSING_FIRST}, userLinkedOnly: true) { totalCount nodes { number repository { nameWithOwner } } }
  headCommit: commits(last: 1) { nodes { commit { oid ${STATUS} } } }
}`;

/** The query for these PRs and commits: each an aliased field (`p0`, `c0`), its number or oid a variable. */
export function gateQuery(pulls: number, commits: number, open: boolean, pipeline = false): string {
  const vars = [
    '$owner: String!',
    '$repo: String!',
    ...Array.from({ length: pulls }, (_, i) => `$p${i}: Int!`),
    ...Array.from({ length: commits }, (_, i) => `$c${i}: GitObjectID!`),
  ];
  const fields = [
    ...Array.from({ length: pulls }, (_, i) => `p${i}: pullRequest(number: $p${i}) { ...GatePull }`),
    ...Array.from({ length: commits }, (_, i) => `c${i}: object(oid: $c${i}) { __typename ... on Commit { oid ${STATUS} } }`),
  ];
  const openPulls = open
    ? `openPulls: pullRequests(states: OPEN, first: 100) { totalCount nodes { number headRefOid authorAssociation author ${ACTOR} } }`
    : '';
  return `query ForgeGate(${vars.join(', ')}) {
  rateLimit { cost remaining }
  viewer ${ACTOR}
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    defaultBranchRef { name }
    ${pipeline ? PIPELINE_FIELD : ''}
    ${openPulls}
    ${fields.join('\n    ')}
  }
}
${pulls > 0 ? PULL_FRAGMENT : ''}`;
}

export const ISSUE_QUERY = `query ForgeGateIssue($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  viewer ${ACTOR}
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    issue(number: $number) { ${ISSUE_FIELDS} }
  }
}`;

type StatusNode = {
  contexts: Array<{ context: string; state: string; description: string | null; targetUrl: string | null; createdAt: string }>;
} | null;
type IssueNode = ThreadNode & {
  state?: string;
  stateReason?: string | null;
  milestone?: { number: number; title: string } | null;
};
type PullNode = ThreadNode & {
  state: string;
  headRefName: string;
  headRefOid: string;
  baseRefName: string;
  headRepository: { nameWithOwner: string } | null;
  milestone: { number: number; title: string } | null;
  reviews: Page<ReviewNode>;
  commits: { totalCount: number };
  timelineItems: { nodes: Array<{ __typename?: string; createdAt?: string; afterCommit?: { oid: string } | null } | null> };
  closingIssuesReferences: { totalCount: number; nodes: Array<IssueNode | null> };
  linked: { totalCount: number; nodes: Array<{ number: number; repository: { nameWithOwner: string } } | null> };
  headCommit: { nodes: Array<{ commit: { oid: string; status: StatusNode } } | null> };
};
type OpenNode = { number: number; headRefOid: string; authorAssociation: string; author: GraphqlActor };
type GateData = {
  rateLimit?: { cost: number; remaining: number } | null;
  viewer?: GraphqlActor;
  repository:
    | ({
        nameWithOwner: string;
        defaultBranchRef: { name: string } | null;
        openPulls?: { totalCount: number; nodes: Array<OpenNode | null> };
      } & Record<string, unknown>)
    | null;
};

/**
 * One query: its data, errors beside the data as notes (a node GitHub could
 * not show), and its request and points counted.
 */
async function ask<T>(
  gh: GitHub,
  what: string,
  query: string,
  variables: Record<string, unknown>,
  notes: string[],
  count: Counted,
  request: { noTimeoutRetry?: boolean } = {},
): Promise<T & { rateLimit?: { cost: number } | null }> {
  const data = await api(`reading ${what}`, async () => {
    try {
      return await withPartialData(gh.graphql<T & { rateLimit?: { cost: number } | null }>(query, { ...variables, request }), (errors) =>
        notes.push(...errors.map((e) => `GitHub could not show part of ${what}: ${e}`)),
      );
    } catch (err) {
      // GitHub's timeout answer, in either of its forms, kept as one the caller can tell apart (and split on).
      if (isGraphqlTimeout(err)) throw new ApiError(`reading ${what} failed: GitHub's GraphQL query timed out`, 504);
      throw err;
    }
  });
  count.requests++;
  count.points += data.rateLimit?.cost ?? 0;
  return data;
}

/** An open PR's head and author: who else shows the status written on a commit. */
export interface OpenHead {
  number: number;
  sha: string;
  author: { login: string | null; association: string };
}

export interface PullSnapshot {
  /** The PR's own thread: body, labels, author and its comments (reviews are apart). */
  thread: WorkItem;
  reviews: ReviewComment[];
  info: PullInfo;
  /** The issues it closes as GitHub links them; null when it links more than were read (ask links.ts for all). */
  links: PullLinks | null;
  /** The threads of the issues it closes, by refKey. */
  closing: Map<string, WorkItem>;
  /** When its head reached it, as GitHub records it (a force push onto it, or the opening of a one-commit PR). */
  headSince: HeadSince;
  /** Its submitted approving reviews (an approval may carry no body): what a sign-off is judged by. */
  approvals: Approval[];
  /** The newest status on its head commit in each context, by lower-case context. */
  statuses: Map<string, CommitStatus>;
}

export interface Counted {
  requests: number;
  /** GraphQL points, as GitHub's rateLimit { cost } reports them. */
  points: number;
}

export interface GateSnapshot extends Counted {
  /** Each PR asked for; null when the repository has no such PR. */
  pulls: Map<number, PullSnapshot | null>;
  /** The statuses of each commit asked for, by lower-case context; null when GitHub has no such commit. */
  commits: Map<string, Map<string, CommitStatus> | null>;
  /** The open PRs (first 100), when asked; complete says whether that is all of them. */
  open: { heads: OpenHead[]; complete: boolean } | null;
  /** The token's login (a bot's with REST's `[bot]`); null when GitHub did not say. */
  viewer: string | null;
  /** Threads GitHub's partial answer left comments out of (refKey): read them another way. */
  incomplete: Set<string>;
  notes: string[];
  /** The pipeline file on the default branch, when it was asked for (undefined when not). */
  pipeline?: PipelineAnswer;
}

function statusesOf(node: StatusNode): Map<string, CommitStatus> {
  const out = new Map<string, CommitStatus>();
  for (const s of node?.contexts ?? [])
    out.set(s.context.toLowerCase(), {
      state: s.state.toLowerCase() as StatusState,
      description: s.description ?? '',
      context: s.context,
      targetUrl: s.targetUrl ?? null,
      createdAt: s.createdAt ?? null,
    });
  return out;
}

/** The newest force push onto `head`; for a one-commit PR never force-pushed, its opening (a fallback); else null. */
function headSinceOf(n: PullNode): HeadSince {
  return headSinceFrom(n.timelineItems?.nodes ?? [], n.headRefOid, n.commits?.totalCount, n.createdAt);
}

const key = (repository: string, number: number) => `${repository.toLowerCase()}#${number}`;

/** A connection holds a null node where GitHub's answer had an error: that thread is not whole. */
const hasHoles = (page: { nodes: Array<unknown> } | null | undefined) => (page?.nodes ?? []).some((n) => n === null);

function issueItem(n: IssueNode, here: string): WorkItem {
  const repo = n.repository?.nameWithOwner ?? here;
  const item = toItem(n, 'issue', repo.toLowerCase() === here.toLowerCase() ? null : repo);
  if (n.state) item.state = n.state.toLowerCase();
  if (n.stateReason) item.stateReason = n.stateReason.toLowerCase();
  if (n.milestone) item.milestone = { number: n.milestone.number, title: n.milestone.title };
  return item;
}

async function toPull(gh: GitHub, n: PullNode, here: string, count: Counted, incomplete: Set<string>): Promise<PullSnapshot> {
  const thread = toItem(n, 'pull', null);
  thread.state = n.state === 'OPEN' ? 'open' : 'closed';
  if (n.milestone) thread.milestone = { number: n.milestone.number, title: n.milestone.title };
  if (hasHoles(n.comments)) incomplete.add(key(here, n.number));
  await completeThread(gh, n, thread, count);
  const reviewNodes = [
    ...nodesOf(n.reviews),
    ...(n.reviews?.pageInfo.hasNextPage ? await morePages(gh, n.id, n.reviews, true, count) : []),
  ];
  if (hasHoles(n.reviews)) incomplete.add(key(here, n.number));
  const reviews: ReviewComment[] = (reviewNodes as ReviewNode[])
    .filter((rv) => (rv.body ?? '') !== '')
    .map((rv) => ({
      ...toComment(rv),
      createdAt: rv.submittedAt ?? null,
      // A review not yet submitted (PENDING) is seen by its author alone.
      review: { state: rv.state, commit: rv.commit?.oid ?? null, submitted: !!rv.submittedAt && rv.state !== 'PENDING' },
    }));
  const info: PullInfo = {
    number: n.number,
    head: n.headRefName ?? '',
    sha: n.headRefOid ?? '',
    state: n.state === 'OPEN' ? 'open' : 'closed',
    base: n.baseRefName ?? '',
    headRepository: n.headRepository?.nameWithOwner ?? null,
    closes: closingIssues(n.body ?? '', here).filter((x) => x !== n.number),
    nodeId: n.id,
  };
  const closing = new Map<string, WorkItem>();
  for (const t of nodesOf(n.closingIssuesReferences)) {
    const item = issueItem(t, here);
    if (hasHoles(t.comments)) incomplete.add(key(t.repository?.nameWithOwner ?? here, t.number));
    await completeThread(gh, t, item, count);
    closing.set(key(t.repository?.nameWithOwner ?? here, t.number), item);
  }
  const refOf = (x: { number: number; repository: { nameWithOwner: string } }): ItemRef => ({
    repository: x.repository.nameWithOwner,
    number: x.number,
  });
  const all = nodesOf(n.closingIssuesReferences).map((t) =>
    refOf({ number: t.number, repository: t.repository ?? { nameWithOwner: here } }),
  );
  const linked = nodesOf(n.linked).map(refOf);
  const whole =
    (n.closingIssuesReferences?.totalCount ?? 0) <= CLOSING_FIRST &&
    (n.linked?.totalCount ?? 0) <= CLOSING_FIRST &&
    !hasHoles(n.closingIssuesReferences) &&
    !hasHoles(n.linked);
  const sidebar = new Set(linked.map((x) => key(x.repository, x.number)));
  const links: PullLinks | null = whole
    ? { linked, keyword: all.filter((x) => !sidebar.has(key(x.repository, x.number))), defaultBranch: null, notes: [] }
    : null;
  const head = nodesOf(n.headCommit).find((c) => c.commit?.oid === n.headRefOid);
  const approvals: Approval[] = (reviewNodes as ReviewNode[])
    .filter((rv) => rv.state === 'APPROVED' && !!rv.submittedAt)
    .map((rv) => ({
      author: { login: restLogin(rv.author), association: rv.authorAssociation ?? 'NONE' },
      commit: rv.commit?.oid ?? null,
    }));
  return {
    thread,
    reviews,
    info,
    links,
    closing,
    headSince: headSinceOf(n),
    statuses: statusesOf(head?.commit.status ?? null),
    approvals,
  };
}

/**
 * PRs `numbers` (at most PULLS_PER_QUERY a request), the statuses of
 * `commits`, and — when `open` — the open PRs' heads, as GitHub has them now.
 */
export async function readGateSnapshot(
  gh: GitHub,
  r: Repo,
  numbers: readonly number[],
  commits: readonly string[] = [],
  open = false,
  pipeline = false,
): Promise<GateSnapshot> {
  const out: GateSnapshot = {
    pulls: new Map(),
    commits: new Map(),
    open: null,
    viewer: null,
    incomplete: new Set(),
    notes: [],
    requests: 0,
    points: 0,
  };
  const wanted = [...new Set(numbers)];
  const batches: number[][] = [];
  for (let i = 0; i < wanted.length; i += PULLS_PER_QUERY) batches.push(wanted.slice(i, i + PULLS_PER_QUERY));
  if (batches.length === 0) batches.push([]);
  // A batch GitHub times out on (asked once more by the client, then given up) is split in halves: smaller queries
  // finish where one large one did not. One PR that still times out is the caller's to read another way.
  let extrasAsked = false;
  for (let b = 0; b < batches.length; b++) {
    const batch = batches[b];
    const first = !extrasAsked;
    const shas = first ? [...new Set(commits.map((c) => c.toLowerCase()))] : [];
    const variables: Record<string, unknown> = { owner: r.owner, repo: r.repo };
    batch.forEach((n, i) => {
      variables[`p${i}`] = n;
    });
    shas.forEach((c, i) => {
      variables[`c${i}`] = c;
    });
    const what = batch.length > 0 ? `PR ${batch.map((n) => `#${n}`).join(', ')}` : 'the commits asked about';
    let data: GateData & { rateLimit?: { cost: number } | null };
    try {
      data = await ask<GateData>(
        gh,
        what,
        gateQuery(batch.length, shas.length, open && first, pipeline && first),
        variables,
        out.notes,
        out,
        {
          noTimeoutRetry: batch.length > 1,
        },
      );
    } catch (err) {
      if (batch.length < 2 || !isGraphqlTimeout(err)) throw err;
      out.requests++;
      out.notes.push(`GitHub timed out reading ${what} in one query: read in halves`);
      batches.splice(b + 1, 0, batch.slice(0, Math.ceil(batch.length / 2)), batch.slice(Math.ceil(batch.length / 2)));
      continue;
    }
    extrasAsked = true;
    out.viewer ??= restLogin(data.viewer);
    const repo = data.repository;
    const here = repo?.nameWithOwner ?? repoName(r);
    const defaultBranch = repo?.defaultBranchRef?.name ?? null;
    // The rules before the verdicts: a bad file is the user's mistake, said before anything is decided.
    if (pipeline && first) out.pipeline = pipelineFromNode(repo?.pipelineFile as PipelineNode | undefined, defaultBranch);
    for (const [i, n] of batch.entries()) {
      const node = (repo?.[`p${i}`] ?? null) as PullNode | null;
      if (node === null) {
        out.pulls.set(n, null);
        continue;
      }
      const pull = await toPull(gh, node, here, out, out.incomplete);
      if (pull.links) pull.links.defaultBranch = defaultBranch;
      out.pulls.set(n, pull);
    }
    for (const [i, c] of shas.entries()) {
      const node = (repo?.[`c${i}`] ?? null) as { __typename?: string; status?: StatusNode } | null;
      out.commits.set(c, node?.__typename === 'Commit' ? statusesOf(node.status ?? null) : null);
    }
    if (repo?.openPulls)
      out.open = {
        heads: nodesOf(repo.openPulls).map((p) => ({
          number: p.number,
          sha: p.headRefOid,
          author: { login: restLogin(p.author), association: p.authorAssociation ?? 'NONE' },
        })),
        complete: repo.openPulls.totalCount <= 100,
      };
  }
  return out;
}

export interface IssueSnapshot extends Counted {
  /** The issue and every comment; null when the repository has no such issue (deleted, transferred, a PR's number). */
  item: WorkItem | null;
  viewer: string | null;
  /** GitHub's partial answer left comments out: read the thread another way. */
  incomplete: boolean;
  notes: string[];
}

/** Issue #number with its labels, body and every comment, and the token's login: one request per 100 comments. */
export async function readIssueSnapshot(gh: GitHub, r: Repo, number: number): Promise<IssueSnapshot> {
  const notes: string[] = [];
  const count: Counted = { requests: 0, points: 0 };
  const data = await ask<{ viewer?: GraphqlActor; repository: { nameWithOwner: string; issue: IssueNode | null } | null }>(
    gh,
    `#${number}`,
    ISSUE_QUERY,
    { owner: r.owner, repo: r.repo, number },
    notes,
    count,
  );
  const node = data.repository?.issue ?? null;
  const viewer = restLogin(data.viewer);
  if (node === null) return { item: null, viewer, incomplete: false, notes, ...count };
  const item = issueItem(node, data.repository?.nameWithOwner ?? repoName(r));
  const incomplete = hasHoles(node.comments);
  await completeThread(gh, node, item, count);
  return { item, viewer, incomplete, notes, ...count };
}

/** A thread as read (so its hidden and editor facts are known) copied, so a caller's changes never reach another's. */
export function copyThread(t: WorkItem): WorkItem {
  return { ...t, labels: [...t.labels], comments: t.comments.map((c: ThreadComment) => ({ ...c })) };
}

/** An issue's or a PR's own thread: the fields both share, and the state each spells its own way. */
const threadEndsQuery = (pipeline: boolean) => `query ForgeThread($owner: String!, $repo: String!, $number: Int!) {
  rateLimit { cost remaining }
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    ${pipeline ? `defaultBranchRef { name } ${PIPELINE_FIELD}` : ''}
    issueOrPullRequest(number: $number) {
      __typename
      ... on Issue {
        ${THREAD} state stateReason milestone { number title }
        tail: comments(last: 100) { totalCount pageInfo { hasPreviousPage startCursor } nodes { ${COMMENT_FIELDS} } }
      }
      ... on PullRequest {
        ${THREAD} pullState: state milestone { number title }
        tail: comments(last: 100) { totalCount pageInfo { hasPreviousPage startCursor } nodes { ${COMMENT_FIELDS} } }
      }
    }
  }
}`;

/** The 100 comments before a cursor, by the thread's node id: reading a thread from its end. */
const THREAD_BEFORE_QUERY = `query ForgeThreadBefore($id: ID!, $before: String!) {
  rateLimit { cost remaining }
  node(id: $id) {
    ... on Issue { comments(last: 100, before: $before) { pageInfo { hasPreviousPage startCursor } nodes { ${COMMENT_FIELDS} } } }
    ... on PullRequest { comments(last: 100, before: $before) { pageInfo { hasPreviousPage startCursor } nodes { ${COMMENT_FIELDS} } } }
  }
}`;

type TailPage = {
  totalCount?: number;
  pageInfo: { hasPreviousPage: boolean; startCursor: string | null };
  nodes: Array<CommentNode | null>;
};
type EndsNode = IssueNode & { __typename: 'Issue' | 'PullRequest'; pullState?: string; tail: TailPage };

export interface ThreadSnapshot extends Counted {
  /** The issue or PR with the comments read (each with its editor and hidden state); null when there is no such number. */
  item: WorkItem | null;
  /** Every comment was read (else those between the first 100 and the pages read from the end were not). */
  complete: boolean;
  notes: string[];
}

/**
 * Issue or PR #number read from both ends: its first 100 comments and its
 * last 100 in one request, then 100 more from the end per request while
 * `enough(comments read so far)` says no — `() => false` reads every comment.
 * A trajectory is written last: its report reads a 1,000-comment thread in one
 * or two requests.
 */
export async function readThreadSnapshot(
  gh: GitHub,
  r: Repo,
  number: number,
  enough: (comments: readonly ThreadComment[]) => boolean = () => false,
  onPipeline?: (pipeline: PipelineAnswer) => void,
): Promise<ThreadSnapshot> {
  const notes: string[] = [];
  const count: Counted = { requests: 0, points: 0 };
  type Ends = {
    repository: {
      nameWithOwner: string;
      defaultBranchRef?: { name: string } | null;
      pipelineFile?: PipelineNode;
      issueOrPullRequest: EndsNode | null;
    } | null;
  };
  // With onPipeline, the pipeline file rides on the first request, settled before `enough` is asked anything.
  const data = await ask<Ends>(
    gh,
    `#${number}`,
    threadEndsQuery(onPipeline !== undefined),
    { owner: r.owner, repo: r.repo, number },
    notes,
    count,
  );
  onPipeline?.(pipelineFromNode(data.repository?.pipelineFile, data.repository?.defaultBranchRef?.name ?? null));
  const node = data.repository?.issueOrPullRequest ?? null;
  if (node === null) return { item: null, complete: true, notes, ...count };
  const here = data.repository?.nameWithOwner ?? repoName(r);
  const item = node.__typename === 'PullRequest' ? toItem(node, 'pull', null) : issueItem(node, here);
  if (node.__typename === 'PullRequest') item.state = node.pullState === 'OPEN' ? 'open' : 'closed';
  const seen = new Set(item.comments.map((c) => c.nodeId));
  const tail: ThreadComment[] = [];
  const take = (page: TailPage) => {
    const fresh = nodesOf(page).filter((n) => !seen.has(n.id));
    for (const n of fresh) seen.add(n.id);
    tail.unshift(...fresh.map(toComment));
  };
  take(node.tail);
  let page: TailPage = node.tail;
  const whole = () => seen.size >= (node.tail?.totalCount ?? 0);
  while (!whole() && page.pageInfo.hasPreviousPage && page.pageInfo.startCursor && !enough([...item.comments, ...tail])) {
    const before = page.pageInfo.startCursor;
    const more = await api(`reading more comments of #${number}`, () =>
      gh.graphql<{ rateLimit?: { cost: number } | null; node: { comments?: TailPage } | null }>(THREAD_BEFORE_QUERY, {
        id: node.id,
        before,
      }),
    );
    count.requests++;
    count.points += more.rateLimit?.cost ?? 0;
    if (!more.node?.comments) break;
    page = more.node.comments;
    take(page);
  }
  item.comments.push(...tail);
  return { item, complete: whole(), notes, ...count };
}
