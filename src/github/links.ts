/**
 * Links between PRs and issues as GitHub records them (GraphQL): the issues a
 * PR closes on merge — keywords in its body when it targets the default
 * branch, and links made in the Development sidebar — and the open PRs that
 * close an issue. The queries are held to GitHub's published schema by the
 * test suite. A GraphQL failure is reported to the caller, which falls back to
 * reading the PR body.
 */
import type { PipelineAnswer } from '../common/pipeline.js';
import { PIPELINE_FIELD, pipelineFromNode, type PipelineNode } from './pipeline-read.js';
import type { Repo } from '../common/repo.js';
import type { Author } from '../common/trust.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';
import { restLogin, withPartialData, type GraphqlActor } from './graphql-answers.js';

/** An issue or PR named by its repository (owner/name) and number. */
export interface ItemRef {
  repository: string;
  number: number;
}

interface Page<T> {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: Array<T | null>;
}

type IssueNode = { number: number; repository: { nameWithOwner: string } };

/**
 * One query a page: every closing reference, and on the first page also those
 * made in the sidebar (`userLinkedOnly`), which GitHub marks only that way.
 */
const PULL_LINKS_QUERY = `query PullLinks($owner: String!, $repo: String!, $number: Int!, $after: String, $withLinked: Boolean!) {
  repository(owner: $owner, name: $repo) {
    defaultBranchRef { name }
    pullRequest(number: $number) {
      closingIssuesReferences(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { number repository { nameWithOwner } }
      }
      linked: closingIssuesReferences(first: 100, userLinkedOnly: true) @include(if: $withLinked) {
        pageInfo { hasNextPage endCursor }
        nodes { number repository { nameWithOwner } }
      }
    }
  }
}`;

/**
 * What a number is (an issue or a PR) and, for an issue, the open PRs that
 * close it, with who wrote each PR and, on the first page, which links were
 * made in the sidebar: an issue event re-gates only the PRs whose verdict can
 * depend on the issue.
 */
const issuePullsQuery = (
  pipeline: boolean,
) => `query IssuePulls($owner: String!, $repo: String!, $number: Int!, $after: String, $withLinked: Boolean!) {
  repository(owner: $owner, name: $repo) {
    ${pipeline ? `defaultBranchRef { name } ${PIPELINE_FIELD}` : ''}
    issueOrPullRequest(number: $number) {
      __typename
      ... on Issue {
        closedByPullRequestsReferences(first: 100, after: $after, includeClosedPrs: false) {
          pageInfo { hasNextPage endCursor }
          nodes { number state authorAssociation author { __typename login } repository { nameWithOwner } }
        }
        linked: closedByPullRequestsReferences(first: 100, includeClosedPrs: false, userLinkedOnly: true) @include(if: $withLinked) {
          pageInfo { hasNextPage endCursor }
          nodes { number repository { nameWithOwner } }
        }
      }
    }
  }
}`;

/** Every page of a connection, 100 nodes a request. */
async function allPages<T>(fetch: (after: string | null) => Promise<Page<T> | null>): Promise<T[]> {
  const out: T[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Page<T> | null = await fetch(after);
    if (!page) return out;
    for (const n of page.nodes) if (n) out.push(n);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return out;
    after = page.pageInfo.endCursor;
  }
}

const ref = (n: IssueNode): ItemRef => ({ repository: n.repository.nameWithOwner, number: n.number });

type PullLinksData = {
  repository: {
    defaultBranchRef?: { name: string } | null;
    pullRequest: { closingIssuesReferences: Page<IssueNode>; linked?: Page<IssueNode> } | null;
  } | null;
};

/** The issues a PR closes as GitHub records them, and the branch GitHub reads closing keywords for. */
export interface PullLinks {
  /** Made in the Development sidebar (someone with write access). */
  linked: ItemRef[];
  /** From closing keywords in the PR body (its author). */
  keyword: ItemRef[];
  /** The repository's default branch; null when GitHub did not say. */
  defaultBranch: string | null;
  /** Links GitHub could not read (an issue in a repository the token cannot see): the rest are used. */
  notes: string[];
}

/**
 * The issues PR #number closes, split by who made the link: `linked` in the
 * Development sidebar (someone with write access), `keyword` in the PR body
 * (its author). One query per 100 links.
 */
export async function pullLinks(gh: GitHub, r: Repo, number: number): Promise<PullLinks> {
  let linked: ItemRef[] = [];
  let defaultBranch: string | null = null;
  const notes: string[] = [];
  const all = await allPages<IssueNode>(async (after) => {
    const data = await api(`reading the issues PR #${number} closes`, () =>
      withPartialData(
        gh.graphql<PullLinksData>(PULL_LINKS_QUERY, { owner: r.owner, repo: r.repo, number, after, withLinked: after === null }),
        (errors) => notes.push(...errors.map((e) => `GitHub could not read every issue PR #${number} closes: ${e}`)),
      ),
    );
    defaultBranch = data.repository?.defaultBranchRef?.name ?? defaultBranch;
    const pull = data.repository?.pullRequest ?? null;
    if (pull?.linked) linked = pull.linked.nodes.filter((n): n is IssueNode => n !== null).map(ref);
    return pull?.closingIssuesReferences ?? null;
  });
  const manual = new Set(linked.map(refKey));
  return { linked, keyword: all.map(ref).filter((x) => !manual.has(refKey(x))), defaultBranch, notes };
}

/** One spelling of a reference for comparing: repository names are case-insensitive. */
export function refKey(x: ItemRef): string {
  return `${x.repository.toLowerCase()}#${x.number}`;
}

/** An open PR that closes an issue: where it is, who wrote it, and whether the link was made in the sidebar. */
export interface ClosingPull extends ItemRef {
  author: Author;
  /** Linked in the Development sidebar (write access), not only by a keyword its author typed. */
  sidebar: boolean;
}

/** What a number is in a repository: an issue (with the open PRs that close it), a PR, or nothing GitHub shows. */
export type IssueOrPull = ({ kind: 'issue'; pulls: ClosingPull[]; notes: string[] } | { kind: 'pull' } | { kind: 'missing' }) & {
  /** The pipeline file on the default branch, when it was asked for (undefined when not). */
  pipeline?: PipelineAnswer;
};

type PullNode = IssueNode & { state: string; authorAssociation?: string; author?: GraphqlActor };
type IssuePullsData = {
  repository: {
    defaultBranchRef?: { name: string } | null;
    pipelineFile?: PipelineNode;
    issueOrPullRequest:
      | { __typename: 'Issue'; closedByPullRequestsReferences: Page<PullNode>; linked?: Page<IssueNode> }
      | { __typename: 'PullRequest' }
      | null;
  } | null;
};

/** Issue #number (or PR) as GitHub has it: for an issue, every open PR that closes it, in any repository. */
export async function issueOrPull(gh: GitHub, r: Repo, number: number, withPipeline = false): Promise<IssueOrPull> {
  const notes: string[] = [];
  let kind = 'missing' as 'issue' | 'pull' | 'missing';
  let linked: ItemRef[] = [];
  let pipeline: PipelineAnswer | undefined;
  const nodes = await allPages<PullNode>(async (after) => {
    // The pipeline file rides on the first page: no request of its own.
    const asked = withPipeline && after === null;
    const data = await api(`reading the PRs that close #${number}`, () =>
      withPartialData(
        gh.graphql<IssuePullsData>(issuePullsQuery(asked), { owner: r.owner, repo: r.repo, number, after, withLinked: after === null }),
        (errors) => notes.push(...errors),
      ),
    );
    if (asked) pipeline = pipelineFromNode(data.repository?.pipelineFile, data.repository?.defaultBranchRef?.name ?? null);
    const found = data.repository?.issueOrPullRequest ?? null;
    if (found === null || found.__typename !== 'Issue') {
      if (found?.__typename === 'PullRequest') kind = 'pull';
      return null;
    }
    kind = 'issue';
    if (found.linked) linked = found.linked.nodes.filter((n): n is IssueNode => n !== null).map(ref);
    return found.closedByPullRequestsReferences;
  });
  const file = withPipeline ? { pipeline: pipeline ?? null } : {};
  if (kind !== 'issue') return { kind, ...file };
  const sidebar = new Set(linked.map(refKey));
  const pulls = nodes
    .filter((n) => n.state === 'OPEN')
    .map((n) => ({
      ...ref(n),
      author: { login: restLogin(n.author), association: n.authorAssociation ?? 'NONE' },
      sidebar: sidebar.has(refKey(ref(n))),
    }));
  return { kind: 'issue', pulls, notes: notes.map((e) => `GitHub could not read every PR that closes #${number}: ${e}`), ...file };
}

/** The merge queue of `branch`: each entry's PR and the head commit of the merge group built for it, in queue order. */
const MERGE_QUEUE_QUERY = `query MergeQueue($owner: String!, $repo: String!, $branch: String!, $after: String) {
  repository(owner: $owner, name: $repo) {
    mergeQueue(branch: $branch) {
      entries(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { position headCommit { oid } pullRequest { number } }
      }
    }
  }
}`;

type EntryNode = { position: number; headCommit: { oid: string } | null; pullRequest: { number: number } | null };

export interface QueueEntry {
  position: number;
  head: string | null;
  pull: number | null;
}

/** Every entry of the merge queue of `branch` (empty when the branch has no queue). */
export async function mergeQueueEntries(gh: GitHub, r: Repo, branch: string): Promise<QueueEntry[]> {
  const nodes = await allPages<EntryNode>(async (after) => {
    const data = await api(`reading the merge queue of ${branch}`, () =>
      gh.graphql<{ repository: { mergeQueue: { entries: Page<EntryNode> } | null } | null }>(MERGE_QUEUE_QUERY, {
        owner: r.owner,
        repo: r.repo,
        branch,
        after,
      }),
    );
    return data.repository?.mergeQueue?.entries ?? null;
  });
  return nodes
    .map((n) => ({ position: n.position, head: n.headCommit?.oid ?? null, pull: n.pullRequest?.number ?? null }))
    .sort((a, b) => a.position - b.position);
}
