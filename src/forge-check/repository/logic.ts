/**
 * forge-check over a whole repository (`scope: repository`): every matching
 * issue against `required`, at about ceil(issues/100) + ceil(comments/100)
 * requests. With `since: last-run` an incremental run reports what a full
 * audit with the same inputs would, for at most what that audit costs:
 * GitHub's own filtered listing decides which issues are in the report (so a
 * gone or relabelled issue leaves it), each listed issue's stamp and comment
 * count, and the comments changed since the last run, decide which threads are
 * read again, and those are read per issue or through the repository-wide
 * comment listing, whichever asks fewer pages.
 */
import { NO_CHECKPOINT_YET } from './checkpoint.js';
import { mapLimit, READ_CONCURRENCY } from '../../common/concurrency.js';
import { repoName, type Repo } from '../../common/repo.js';
import type { ThreadComment, WorkItem } from '../../common/work-item.js';
import { evaluate, type GateSettings } from '../../decision/evaluate.js';
import { countStatuses, entryOf, sortEntries, type IssueEntry, type RepositoryReport } from '../../decision/report.js';
import { requestStats, type GitHub } from '../../github/client.js';
import { ApiError } from '../../github/errors.js';
import { findMilestone, listComments } from '../../github/reads.js';
import {
  issuesWithCommentsSince,
  listRepoComments,
  listRepoIssues,
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
  /** Issue titles in the report; false leaves them out (a public run's summary shows what it holds). */
  titles: boolean;
}

export interface RepositoryResult {
  report: RepositoryReport;
  /** Issues read this run (all of them on a full audit). */
  rechecked: number;
  /** Something the user should look at (a checkpoint not used): warnings. */
  notes: string[];
  /** What the run did and why, nothing wrong (a first run, the cheaper listing, issues that left): notices. */
  info: string[];
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
 * listing per issue (`repoWidePages`: known when the audit covers every issue,
 * null otherwise), else per issue, a few at a time. Returns how many were audited.
 */
async function readThreads(
  gh: GitHub,
  r: Repo,
  issues: ListedIssue[],
  repoWidePages: number | null,
  audit: (item: WorkItem) => void,
  log: (s: string) => void,
): Promise<{ audited: number; read: Set<number>; info: string[] }> {
  let audited = 0;
  const read = new Set<number>();
  const done = (item: WorkItem) => {
    read.add(item.number);
    audit(item);
    if (++audited % PROGRESS_EVERY === 0 && audited < issues.length) log(progress(gh, `audited ${audited}/${issues.length} issues`));
  };
  const counts = issues.map((i) => i.commentCount);
  const total = counts.reduce((a, b) => a + b, 0);
  const notes: string[] = [];
  if (repoWidePages !== null && perIssuePages(counts) > repoWidePages) {
    const byIssue = new Map<number, ThreadComment[]>(issues.map((i) => [i.item.number, []]));
    let shown = 0;
    const comments = await listRepoComments(gh, r, (read) => {
      if (read - shown < PROGRESS_EVERY * 10) return;
      shown = read;
      log(progress(gh, `read ${read}/~${total} comments`));
    });
    for (const c of comments) byIssue.get(c.issue)?.push(c);
    for (const i of issues) done({ ...i.item, comments: byIssue.get(i.item.number) ?? [] });
    notes.push(
      `${issues.length} thread(s) were read through the repository-wide comment listing (${repoWidePages} page(s)), cheaper than one listing per issue`,
    );
    return { audited, read, info: notes };
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
  return { audited, read, info: notes };
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

function entryFor(item: WorkItem, gate: GateSettings, titles: boolean): IssueEntry {
  const result = evaluate([item], [], gate);
  return entryOf(result.items[0], titles ? item.title : '', result.problems);
}

/** The settings a checkpoint is kept under: one made under others is not used. Resolves a milestone title once. */
export async function checkSettings(gh: GitHub, inputs: RepositoryCheck): Promise<CheckSettings> {
  const { repo: r, gate } = inputs;
  const filter: IssueFilter = {
    state: inputs.filter.state,
    labels: inputs.filter.labels,
    milestone: await milestoneFilter(gh, r, inputs.filter.milestone),
  };
  return {
    repository: repoName(r),
    required: gate.required,
    validation: gate.validation,
    trustedAuthors: gate.trust.text,
    filter,
    titles: inputs.titles,
  };
}

/**
 * Audit the repository. `previous` is the checkpoint as the action read it
 * under `settings` (null on a full audit): it decides which issues are read.
 */
/** GitHub's clock and the checkpoint may disagree by this much before the checkpoint is not believed. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Is `at` later than GitHub's clock (beyond the skew two clocks may have)? Unknown when GitHub gave no clock. */
function inFuture(at: string, serverTime: string | null): boolean {
  return serverTime !== null && Date.parse(at) > Date.parse(serverTime) + CLOCK_SKEW_MS;
}

/** Which listed issues must be read again, given the checkpoint's entries and the comments changed since its last run. */
function changedSince(
  listing: IssueListing,
  stored: ReadonlyMap<number, IssueEntry>,
  since: string,
  commented: ReadonlySet<number>,
): ListedIssue[] {
  const from = Date.parse(since);
  return listing.issues.filter((i) => {
    const e = stored.get(i.item.number);
    // `since` has whole seconds: a change in the same second as the last read is read again (at or after).
    return (
      !e || e.updatedAt !== i.updatedAt || e.comments !== i.commentCount || Date.parse(i.updatedAt) >= from || commented.has(i.item.number)
    );
  });
}

/**
 * Audit the repository. `previous` is the checkpoint as the action read it
 * under `settings` (null on a full audit): with it, only what changed is read.
 */
export async function runRepositoryCheck(
  gh: GitHub,
  inputs: RepositoryCheck,
  settings: CheckSettings,
  previous: CheckpointRead | null,
  rules: string,
  log: (s: string) => void,
): Promise<RepositoryResult> {
  const r = inputs.repo;
  const filter = settings.filter;
  const notes: string[] = [];
  const info: string[] = [];
  // A first run has no checkpoint: that is no problem. One that could not be used is.
  if (previous && previous.checkpoint === null)
    (previous.why === NO_CHECKPOINT_YET ? info : notes).push(`since: last-run — ${previous.why}, so every issue was read`);
  // GitHub's own filters decide which issues are in the report, on every run: one listing, ceil(issues/100) requests.
  const listing = await listRepoIssues(gh, r, filter, null, (listed) => {
    if (listed > PROGRESS_EVERY && listed % (PROGRESS_EVERY * 10) === 0) log(progress(gh, `listed ${listed} issues`));
  });
  let checkpoint = previous?.checkpoint ?? null;
  if (checkpoint && inFuture(checkpoint.lastRun, listing.serverTime)) {
    notes.push(
      `since: last-run — the checkpoint's last run (${checkpoint.lastRun}) is later than GitHub's clock (${listing.serverTime}), so it was not used and every issue was read`,
    );
    checkpoint = null;
  }
  // A full read cannot come after the run that recorded it, nor after GitHub's now: such a checkpoint was not
  // written by this action as it stands, and full-every would never come due.
  if (checkpoint && (Date.parse(checkpoint.fullAt) > Date.parse(checkpoint.lastRun) || inFuture(checkpoint.fullAt, listing.serverTime))) {
    notes.push(
      `since: last-run — the checkpoint's last full read (${checkpoint.fullAt}) is after its last run (${checkpoint.lastRun}) or GitHub's clock, so it was not used and every issue was read`,
    );
    checkpoint = null;
  }
  const since = checkpoint?.lastRun ?? null;
  const unfiltered = filter.state === 'all' && filter.labels.length === 0 && filter.milestone === null;
  const total = listing.issues.reduce((n, i) => n + i.commentCount, 0);
  // The repository-wide comment listing covers every thread, so it is a plan only when the audit covers every issue.
  const repoWidePages = unfiltered ? Math.ceil(total / 100) : null;
  const entries = new Map<number, IssueEntry>();
  let toRead = listing.issues;
  if (checkpoint !== null && since !== null) {
    const stored = new Map(checkpoint.issues.map((e) => [e.number, e]));
    const listed = new Set(listing.issues.map((i) => i.item.number));
    const gone = checkpoint.issues.filter((e) => !listed.has(e.number)).map((e) => `#${e.number}`);
    if (gone.length > 0)
      info.push(
        `${gone.length} issue(s) of the last run no longer match (closed, relabelled, deleted, transferred or converted): left the report — ${gone.slice(0, 30).join(', ')}${gone.length > 30 ? ', …' : ''}`,
      );
    for (const i of listing.issues) {
      const e = stored.get(i.item.number);
      if (e) entries.set(i.item.number, e);
    }
    // When the stamps alone already make the repository-wide comment listing the cheaper plan, every thread is
    // read anyway: the listing of changed comments would add requests and nothing else.
    const touched = changedSince(listing, stored, since, new Set());
    if (repoWidePages !== null && perIssuePages(touched.map((i) => i.commentCount)) > repoWidePages) toRead = listing.issues;
    else toRead = changedSince(listing, stored, since, await issuesWithCommentsSince(gh, r, since));
  }
  const stamps = new Map(listing.issues.map((i) => [i.item.number, i]));
  const threads = await readThreads(
    gh,
    r,
    toRead,
    repoWidePages,
    (item) => {
      const listed = stamps.get(item.number);
      entries.set(item.number, {
        ...entryFor(item, inputs.gate, inputs.titles),
        updatedAt: listed?.updatedAt,
        comments: listed?.commentCount,
      });
    },
    log,
  );
  // An issue that disappeared while it was read is not in the report (readThreads said so).
  for (const i of toRead) if (!threads.read.has(i.item.number)) entries.delete(i.item.number);
  info.push(...threads.info);
  log(progress(gh, `audited ${threads.audited}/${toRead.length} issues${since ? ` changed since ${since}` : ''}`));

  const issues = sortEntries([...entries.values()]);
  const generatedAt = listing.serverTime ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const lastRun = nextSince(listing, since);
  const next: Checkpoint | null = inputs.incremental
    ? { version: 2, rules, settings, lastRun, fullAt: checkpoint?.fullAt ?? lastRun, issues }
    : null;
  return {
    checkpoint: next,
    report: {
      version: 1,
      repository: repoName(r),
      generatedAt,
      required: inputs.gate.required,
      validation: inputs.gate.validation,
      incremental: since !== null,
      filter: { state: filter.state, labels: filter.labels, milestone: filter.milestone },
      counts: countStatuses(issues),
      issues,
    },
    rechecked: threads.audited,
    notes,
    info,
  };
}
