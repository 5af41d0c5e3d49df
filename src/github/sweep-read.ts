/**
 * The dispatcher's sweep of a whole repository: every open issue with what the
 * reader asks of one issue (its thread, its parent's, the open PRs that close
 * it with their threads and reviews), 100 issues a GraphQL request, the open
 * PRs listed alongside in the same requests, and the pipeline file in the
 * first. So a sweep of N open issues asks about ⌈N/100⌉ requests where one
 * query per issue asked N; an issue whose thread runs past 100 comments costs
 * its further pages, as it does for the reader.
 *
 * What GitHub leaves out is kept apart per issue: a hole in one issue's
 * thread (a comment it failed to resolve) sends that issue alone to the
 * reader's own query, which asks again and then fails — the sweep names it
 * unread and goes on. GitHub's timeout answer (it charges each) is asked once
 * more with the page halved.
 */
import type { PipelineAnswer } from '../common/pipeline.js';
import type { Repo } from '../common/repo.js';
import { isGraphqlTimeout, type GitHub } from './client.js';
import { ISSUE_FIELDS, snapshotOfNode, type ContextSnapshot, type GraphqlError, type IssueNode } from './context-read.js';
import { api, describeApiError } from './errors.js';
import { pipelineFromNode, PIPELINE_FIELD, type PipelineNode } from './pipeline-read.js';
import { nodesOf, PAGE, type Page } from './thread-nodes.js';
import { restLogin, type GraphqlActor } from './graphql-answers.js';
import type { WorkItem } from '../common/work-item.js';

/** Issues a sweep page asks for: GitHub's largest page. */
export const SWEEP_PAGE = 100;

export const SWEEP_QUERY = `query ForgeSweep($owner: String!, $repo: String!, $first: Int!, $after: String, $withPulls: Boolean!, $pullsAfter: String) {
  rateLimit { cost remaining }
  viewer { login }
  repository(owner: $owner, name: $repo) {
    nameWithOwner
    defaultBranchRef { name }
    ${PIPELINE_FIELD}
    issues(states: OPEN, first: $first, after: $after, orderBy: { field: CREATED_AT, direction: ASC }) {
      ${PAGE}
      nodes { ${ISSUE_FIELDS} }
    }
    openPulls: pullRequests(states: OPEN, first: 100, after: $pullsAfter) @include(if: $withPulls) {
      ${PAGE}
      nodes { number body author { __typename login } authorAssociation }
    }
  }
}`;

type SweepData = {
  rateLimit?: { cost: number; remaining: number } | null;
  viewer?: { login?: string } | null;
  repository: {
    nameWithOwner: string;
    defaultBranchRef?: { name: string } | null;
    pipelineFile?: PipelineNode;
    issues: Page<IssueNode>;
    openPulls?: Page<{ number: number; body: string | null; author: GraphqlActor; authorAssociation: string }>;
  } | null;
};

/** An open PR as the board's doctor sees it: whether its body carries an annotation. */
export interface SweptPull {
  number: number;
  author: string | null;
  bodyTagged: boolean;
}

export interface Sweep {
  pipeline: PipelineAnswer;
  /** The token's own login (GraphQL's viewer, asked in the first page): the dispatcher's own claims and board. */
  viewer: string | null;
  defaultBranch: string | null;
  /** Every open issue read whole, in number order. */
  items: ContextSnapshot[];
  /** Open issues the sweep could not read whole (a hole in the thread): the caller reads each alone. */
  reread: number[];
  pulls: SweptPull[];
  requests: number;
  points: number;
}

async function askPage(gh: GitHub, r: Repo, vars: Record<string, unknown>): Promise<{ data: SweepData; errors: GraphqlError[] }> {
  try {
    // No retry of a timeout at the same size: the sweep halves its page instead (GitHub charges each timeout).
    const options = { owner: r.owner, repo: r.repo, ...vars, request: { noTimeoutRetry: true } };
    return { data: await gh.graphql<SweepData>(SWEEP_QUERY, options), errors: [] };
  } catch (err) {
    const e = err as { data?: SweepData | null; errors?: GraphqlError[] };
    if (e?.data === undefined || e.data === null || !Array.isArray(e.errors)) throw err;
    return { data: e.data, errors: e.errors.filter((x) => x.type !== 'NOT_FOUND') };
  }
}

/**
 * Every open issue of the repository, read as the reader reads one, and the
 * open PRs. `followKeywords` is asked with the pipeline file read (its
 * trusted-authors decide which closing keywords are followed).
 */
export async function sweepRepository(
  gh: GitHub,
  r: Repo,
  followKeywords: (pipeline: PipelineAnswer) => (pull: WorkItem) => Promise<boolean>,
): Promise<Sweep> {
  const out: Sweep = { pipeline: null, viewer: null, defaultBranch: null, items: [], reread: [], pulls: [], requests: 0, points: 0 };
  let first = SWEEP_PAGE;
  let after: string | null = null;
  let pullsAfter: string | null = null;
  let withPulls = true;
  let issuesDone = false;
  let follow: ((pull: WorkItem) => Promise<boolean>) | null = null;
  for (let more = true; more; ) {
    const vars = { first, after, withPulls, pullsAfter };
    let answer: { data: SweepData; errors: GraphqlError[] };
    try {
      answer = await askPage(gh, r, vars);
    } catch (err) {
      // GitHub charges each timeout: ask once more with half the page, then say it.
      if (!isGraphqlTimeout(err) || first <= 1) throw describeApiError(err, 'reading the open issues');
      first = Math.max(1, Math.floor(first / 2));
      out.requests++;
      answer = await api(`reading the open issues (${first} at a time, after GitHub timed out)`, () => askPage(gh, r, { ...vars, first }));
    }
    out.requests++;
    const { data, errors } = answer;
    out.points += data.rateLimit?.cost ?? 0;
    const repo = data.repository;
    if (!repo) throw new Error(`reading the open issues failed: GitHub named no repository ${r.owner}/${r.repo}`);
    if (follow === null) {
      out.pipeline = pipelineFromNode(repo.pipelineFile, repo.defaultBranchRef?.name ?? null);
      out.defaultBranch = repo.defaultBranchRef?.name ?? null;
      out.viewer = data.viewer?.login ?? null;
      follow = followKeywords(out.pipeline);
    }
    // Which page items GitHub left holes in (a comment or review it failed to resolve), and what else it could not show.
    const holes = new Set<number>();
    const notes = new Map<number, string[]>();
    for (const e of errors) {
      const path = e.path ?? [];
      const at = path[1] === 'issues' && path[2] === 'nodes' && typeof path[3] === 'number' ? path[3] : null;
      if (at === null) throw new Error(`reading the open issues failed: ${(e.message ?? 'an unknown error').split('\n')[0]}`);
      if (path.some((p) => p === 'comments' || p === 'reviews')) holes.add(at);
      else notes.set(at, [...(notes.get(at) ?? []), (e.message ?? '').split('\n')[0].slice(0, 300)]);
    }
    const nodes = repo.issues?.nodes ?? [];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (node === null) continue;
      if (holes.has(i)) {
        out.reread.push(node.number);
        continue;
      }
      const count = { requests: 0, points: 0 };
      const said = (notes.get(i) ?? []).map((e) => `GitHub could not show part of #${node.number}'s context: ${e}`);
      const snap = await snapshotOfNode(
        gh,
        repo.nameWithOwner,
        { ...node, __typename: 'Issue' },
        out.pipeline,
        out.defaultBranch,
        follow,
        said,
        count,
      );
      snap.subject.state = 'open';
      out.requests += count.requests;
      out.points += count.points;
      out.items.push(snap);
    }
    for (const p of nodesOf(repo.openPulls))
      out.pulls.push({ number: p.number, author: restLogin(p.author), bodyTagged: (p.body ?? '').includes('FORGE:') });
    // Each list ends on the first page that says so, or that names no cursor to go on from (an empty page's cursor is
    // null: following it would start the list again, and again, until the rate limit runs out).
    const pullsNext = repo.openPulls?.pageInfo.endCursor ?? null;
    withPulls = withPulls && (repo.openPulls?.pageInfo.hasNextPage ?? false) && pullsNext !== null;
    if (withPulls) pullsAfter = pullsNext;
    if (!issuesDone) {
      const issuesNext = repo.issues?.pageInfo.endCursor ?? null;
      issuesDone = !(repo.issues?.pageInfo.hasNextPage ?? false) || issuesNext === null;
      if (!issuesDone) after = issuesNext;
    }
    more = !issuesDone || withPulls;
    // Issues done, PRs left: the remaining pages ask for no issue.
    if (issuesDone) first = 0;
  }
  out.items.sort((a, b) => a.subject.number - b.subject.number);
  return out;
}
