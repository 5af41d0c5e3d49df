/**
 * Links between PRs and issues as GitHub records them (GraphQL): the issues a
 * PR closes on merge — keywords in its body when it targets the default
 * branch, and links made in the Development sidebar — and the open PRs that
 * close an issue. The queries are held to GitHub's published schema by the
 * test suite. A GraphQL failure is reported to the caller, which falls back to
 * reading the PR body.
 */
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';

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

const ISSUE_PULLS_QUERY = `query IssuePulls($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    issue(number: $number) {
      closedByPullRequestsReferences(first: 100, after: $after, includeClosedPrs: false) {
        pageInfo { hasNextPage endCursor }
        nodes { number state repository { nameWithOwner } }
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
  repository: { pullRequest: { closingIssuesReferences: Page<IssueNode>; linked?: Page<IssueNode> } | null } | null;
};

/**
 * The issues PR #number closes, split by who made the link: `linked` in the
 * Development sidebar (someone with triage access), `keyword` in the PR body
 * (its author). One query per 100 links.
 */
export async function pullLinks(gh: GitHub, r: Repo, number: number): Promise<{ linked: ItemRef[]; keyword: ItemRef[] }> {
  let linked: ItemRef[] = [];
  const all = await allPages<IssueNode>(async (after) => {
    const data = await api(`reading the issues PR #${number} closes`, () =>
      gh.graphql<PullLinksData>(PULL_LINKS_QUERY, { owner: r.owner, repo: r.repo, number, after, withLinked: after === null }),
    );
    const pull = data.repository?.pullRequest ?? null;
    if (pull?.linked) linked = pull.linked.nodes.filter((n): n is IssueNode => n !== null).map(ref);
    return pull?.closingIssuesReferences ?? null;
  });
  const key = (x: ItemRef) => `${x.repository.toLowerCase()}#${x.number}`;
  const manual = new Set(linked.map(key));
  return { linked, keyword: all.map(ref).filter((x) => !manual.has(key(x))) };
}

/** The open PRs that close issue #number (by keyword or sidebar link), in any repository. */
export async function openPullsClosing(gh: GitHub, r: Repo, number: number): Promise<ItemRef[]> {
  type PullNode = IssueNode & { state: string };
  const nodes = await allPages<PullNode>(async (after) => {
    const data = await api(`reading the PRs that close #${number}`, () =>
      gh.graphql<{ repository: { issue: { closedByPullRequestsReferences: Page<PullNode> } | null } | null }>(ISSUE_PULLS_QUERY, {
        owner: r.owner,
        repo: r.repo,
        number,
        after,
      }),
    );
    return data.repository?.issue?.closedByPullRequestsReferences ?? null;
  });
  return nodes.filter((n) => n.state === 'OPEN').map(ref);
}
