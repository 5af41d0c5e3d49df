/**
 * forge-check over a whole repository (`scope: repository`): every matching
 * issue against `required`, at about ceil(issues/100) + ceil(comments/100)
 * requests; with `since: last-run`, only the issues updated since the
 * checkpoint are read, and the report still covers the whole repository.
 */
import { mapLimit, READ_CONCURRENCY } from '../../common/concurrency.js';
import { repoName, type Repo } from '../../common/repo.js';
import type { ThreadComment, WorkItem } from '../../common/work-item.js';
import { evaluate, type GateSettings } from '../../conformance/evaluate.js';
import { countStatuses, entryOf, sortEntries, type IssueEntry, type RepositoryReport } from '../../conformance/report.js';
import { requestStats, type GitHub } from '../../github/client.js';
import { ApiError } from '../../github/errors.js';
import { findMilestone, listComments } from '../../github/reads.js';
import {
  listRepoComments,
  listRepoIssues,
  matchesFilter,
  perIssuePages,
  type IssueFilter,
  type IssueListing,
  type ListedIssue,
} from '../../github/repo-reads.js';
import type { Checkpoint, CheckpointRead, CheckSettings } from './checkpoint.js';

/** Which issues the audit covers, as the inputs give it. */
export interface RepositoryFilter {
  state: IssueFilter['state'];
  labels: string[];
  /** As given: a number, a title, `*` or `none`; null for no filter. */
  milestone: string | null;
}

export interface RepositoryCheck {
  repo: Repo;
  gate: GateSettings;
  filter: RepositoryFilter;
  /** Incremental runs keep a checkpoint: the action reads it before and writes the returned one after. */
  incremental: boolean;
}

export interface RepositoryResult {
  report: RepositoryReport;
  /** Issues read this run (all of them on a full audit). */
  rechecked: number;
  notes: string[];
  /** What the next incremental run starts from; null when the run keeps no checkpoint. */
  checkpoint: Checkpoint | null;
}

/** A progress line every this many issues, and after each listing page past the first. */
const PROGRESS_EVERY = 100;

/** The milestone filter as the issues listing takes it: a title is looked up once. */
async function milestoneFilter(gh: GitHub, r: Repo, milestone: string | null): Promise<string | null> {
  if (milestone === null || milestone === '*' || milestone === 'none' || /^\d+$/.test(milestone)) return milestone;
  return String((await findMilestone(gh, r, milestone)).number);
}

function progress(gh: GitHub, what: string): string {
  const s = requestStats(gh);
  return `${what}, ${s.requests} requests, ${s.retries} retries`;
}

/**
 * Every thread of `issues`, each handed to `audit` as soon as it is complete:
 * from the repository-wide comment listing when that asks fewer pages than one
 * listing per issue (a full, unfiltered audit), else per issue, a few at a
 * time. Returns how many were audited.
 */
async function readThreads(
  gh: GitHub,
  r: Repo,
  issues: ListedIssue[],
  wholeRepository: boolean,
  audit: (item: WorkItem) => void,
  log: (s: string) => void,
): Promise<{ audited: number; notes: string[] }> {
  let audited = 0;
  const done = (item: WorkItem) => {
    audit(item);
    if (++audited % PROGRESS_EVERY === 0 && audited < issues.length) log(progress(gh, `audited ${audited}/${issues.length} issues`));
  };
  const counts = issues.map((i) => i.commentCount);
  const total = counts.reduce((a, b) => a + b, 0);
  const notes: string[] = [];
  if (wholeRepository && perIssuePages(counts) > Math.ceil(total / 100)) {
    const byIssue = new Map<number, ThreadComment[]>(issues.map((i) => [i.item.number, []]));
    let shown = 0;
    const comments = await listRepoComments(gh, r, (read) => {
      if (read - shown < PROGRESS_EVERY * 10) return;
      shown = read;
      log(progress(gh, `read ${read}/~${total} comments`));
    });
    for (const c of comments) byIssue.get(c.issue)?.push(c);
    for (const i of issues) done({ ...i.item, comments: byIssue.get(i.item.number) ?? [] });
    return { audited, notes };
  }
  await mapLimit(issues, READ_CONCURRENCY, async (i) => {
    let comments: ThreadComment[] = [];
    try {
      comments = i.commentCount > 0 ? await listComments(gh, r, i.item.number) : [];
    } catch (e) {
      // Deleted or transferred between the listing and now: nothing left to check.
      if (e instanceof ApiError && (e.status === 404 || e.status === 410)) {
        notes.push(`#${i.item.number} disappeared while the audit ran (${e.status}); left out`);
        return;
      }
      throw e;
    }
    done({ ...i.item, comments });
  });
  return { audited, notes };
}

/**
 * Where the next incremental run starts: GitHub's clock when this run began
 * listing (anything updated while it ran is at or after it), but never later
 * than the newest change this run saw, since a server's Date header and its
 * updated_at stamps need not share a clock. With nothing listed, the previous
 * start still holds.
 */
export function nextSince(listing: IssueListing, previous: string | null): string {
  let newest: string | null = null;
  for (const i of listing.issues)
    if (i.updatedAt !== '' && (newest === null || Date.parse(i.updatedAt) > Date.parse(newest))) newest = i.updatedAt;
  if (newest === null) return previous ?? listing.serverTime ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (listing.serverTime === null) return newest;
  return Date.parse(listing.serverTime) < Date.parse(newest) ? listing.serverTime : newest;
}

function entryFor(item: WorkItem, gate: GateSettings): IssueEntry {
  const result = evaluate([item], [], gate);
  return entryOf(result.items[0], item.title, result.problems);
}

/** The settings a checkpoint is kept under: one made under others is not used. Resolves a milestone title once. */
export async function checkSettings(gh: GitHub, inputs: RepositoryCheck): Promise<CheckSettings> {
  const { repo: r, gate } = inputs;
  const filter: IssueFilter = {
    state: inputs.filter.state,
    labels: inputs.filter.labels,
    milestone: await milestoneFilter(gh, r, inputs.filter.milestone),
  };
  return { repository: repoName(r), required: gate.required, validation: gate.validation, trustedAuthors: gate.trust.text, filter };
}

/**
 * Audit the repository. `previous` is the checkpoint as the action read it
 * under `settings` (null on a full audit): it decides which issues are read.
 */
export async function runRepositoryCheck(
  gh: GitHub,
  inputs: RepositoryCheck,
  settings: CheckSettings,
  previous: CheckpointRead | null,
  log: (s: string) => void,
): Promise<RepositoryResult> {
  const r = inputs.repo;
  const filter = settings.filter;
  const notes: string[] = [];
  if (previous && previous.checkpoint === null) notes.push(`since: last-run — ${previous.why}, so every issue was read`);
  const since = previous?.checkpoint?.lastRun ?? null;

  const listing = await listRepoIssues(gh, r, filter, since, (listed) => {
    if (listed > PROGRESS_EVERY && listed % (PROGRESS_EVERY * 10) === 0) log(progress(gh, `listed ${listed} issues`));
  });
  const entries = new Map<number, IssueEntry>();
  let toRead = listing.issues;
  if (since !== null) {
    for (const e of previous?.checkpoint?.issues ?? []) entries.set(e.number, e);
    // Listed unfiltered: a changed issue that no longer matches leaves the report.
    for (const i of listing.issues) if (!matchesFilter(i.item, filter)) entries.delete(i.item.number);
    // `since` includes its own second: an issue whose updated_at has not moved since it was read is not read again.
    toRead = listing.issues.filter((i) => matchesFilter(i.item, filter) && entries.get(i.item.number)?.updatedAt !== i.updatedAt);
  }
  const unfiltered = since === null && filter.state === 'all' && filter.labels.length === 0 && filter.milestone === null;
  const updatedAt = new Map(listing.issues.map((i) => [i.item.number, i.updatedAt]));
  const threads = await readThreads(
    gh,
    r,
    toRead,
    unfiltered,
    (item) => entries.set(item.number, { ...entryFor(item, inputs.gate), updatedAt: updatedAt.get(item.number) }),
    log,
  );
  notes.push(...threads.notes);
  log(progress(gh, `audited ${threads.audited}/${toRead.length} issues${since ? ` changed since ${since}` : ''}`));

  const issues = sortEntries([...entries.values()]);
  const generatedAt = listing.serverTime ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const checkpoint: Checkpoint | null = inputs.incremental ? { version: 1, settings, lastRun: nextSince(listing, since), issues } : null;
  return {
    checkpoint,
    report: {
      version: 1,
      repository: repoName(r),
      generatedAt,
      required: inputs.gate.required,
      validation: inputs.gate.validation,
      incremental: since !== null,
      counts: countStatuses(issues),
      issues,
    },
    rechecked: threads.audited,
    notes,
  };
}
