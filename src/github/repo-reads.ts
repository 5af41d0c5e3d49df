/**
 * Reading a whole repository at the request bound: issues a page of 100 at a
 * time with GitHub's own filters, and comments either from the one
 * repository-level listing or per issue — whichever asks fewer pages.
 */
import type { ThreadComment, WorkItem } from '../common/work-item.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';
import type { Repo } from '../common/repo.js';
import { toComment, toWorkItem } from './rest-shapes.js';

/** Which issues a repository audit covers; `milestone` is a number, `*` (any) or `none`. */
export interface IssueFilter {
  state: 'open' | 'closed' | 'all';
  labels: string[];
  milestone: string | null;
}

export interface ListedIssue {
  item: WorkItem;
  /** GitHub's count of the issue's comments: what reading its thread will cost. */
  commentCount: number;
  updatedAt: string;
}

export interface IssueListing {
  issues: ListedIssue[];
  /** The server's clock at the first page (its Date header): where the next incremental run starts. */
  serverTime: string | null;
}

function httpDate(headers: Record<string, unknown>): string | null {
  const raw = headers.date;
  if (typeof raw !== 'string') return null;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace('.000Z', 'Z');
}

/**
 * Issues (not PRs) matching `filter`, or — with `since` — every issue updated
 * since then whatever its state, labels or milestone, so a run can tell which
 * issues left the audit as well as which changed.
 */
export async function listRepoIssues(
  gh: GitHub,
  r: Repo,
  filter: IssueFilter,
  since: string | null,
  onPage: (listed: number) => void = () => undefined,
): Promise<IssueListing> {
  const params = since
    ? { ...r, state: 'all' as const, since, per_page: 100 }
    : {
        ...r,
        state: filter.state,
        per_page: 100,
        ...(filter.labels.length > 0 ? { labels: filter.labels.join(',') } : {}),
        ...(filter.milestone !== null ? { milestone: filter.milestone } : {}),
      };
  const issues: ListedIssue[] = [];
  let serverTime: string | null = null;
  await api(since ? `listing issues updated since ${since}` : 'listing issues', async () => {
    for await (const page of gh.paginate.iterator(gh.rest.issues.listForRepo, params)) {
      serverTime ??= httpDate(page.headers as Record<string, unknown>);
      for (const raw of page.data) {
        if (raw.pull_request) continue;
        issues.push({ item: toWorkItem(raw, []), commentCount: raw.comments ?? 0, updatedAt: raw.updated_at ?? '' });
      }
      onPage(issues.length);
    }
  });
  return { issues, serverTime };
}

/** Issues (not PRs) of the repository, optionally in one milestone: the listing above, without its bookkeeping. */
export async function listIssues(gh: GitHub, r: Repo, options: { state: IssueFilter['state']; milestone?: number }): Promise<WorkItem[]> {
  const filter: IssueFilter = {
    state: options.state,
    labels: [],
    milestone: options.milestone === undefined ? null : String(options.milestone),
  };
  return (await listRepoIssues(gh, r, filter, null)).issues.map((i) => i.item);
}

/** Does an issue (as listed, unfiltered) fall inside `filter`? Used on incremental runs, which list without filters. */
export function matchesFilter(item: WorkItem, filter: IssueFilter): boolean {
  if (filter.state !== 'all' && item.state !== filter.state) return false;
  if (!filter.labels.every((l) => item.labels.includes(l))) return false;
  if (filter.milestone === '*') return item.milestone !== null;
  if (filter.milestone === 'none') return item.milestone === null;
  if (filter.milestone !== null) return item.milestone?.number === Number(filter.milestone);
  return true;
}

/** Every issue and PR comment of the repository (one paginated listing instead of one per issue), by issue number. */
export async function listRepoComments(
  gh: GitHub,
  r: Repo,
  onPage: (read: number) => void = () => undefined,
): Promise<Array<ThreadComment & { issue: number }>> {
  const out: Array<ThreadComment & { issue: number }> = [];
  await api('listing the repository comments', async () => {
    for await (const page of gh.paginate.iterator(gh.rest.issues.listCommentsForRepo, { ...r, per_page: 100 })) {
      for (const c of page.data) out.push({ ...toComment(c), issue: Number(/\/issues\/(\d+)$/.exec(c.issue_url)?.[1] ?? 0) });
      onPage(out.length);
    }
  });
  return out;
}

/**
 * The issues (and PRs) whose comments were created or edited at or after
 * `since`: an edit does not always move the issue's own updated_at.
 */
export async function issuesWithCommentsSince(gh: GitHub, r: Repo, since: string): Promise<Set<number>> {
  const out = new Set<number>();
  await api(`listing the comments changed since ${since}`, async () => {
    for await (const page of gh.paginate.iterator(gh.rest.issues.listCommentsForRepo, { ...r, since, per_page: 100 }))
      for (const c of page.data) out.add(Number(/\/issues\/(\d+)$/.exec(c.issue_url)?.[1] ?? 0));
  });
  return out;
}

/** Pages of 100 needed to read `count` comments one issue at a time (none for an issue without comments). */
export function perIssuePages(counts: readonly number[]): number {
  return counts.reduce((sum, c) => sum + Math.ceil(c / 100), 0);
}
