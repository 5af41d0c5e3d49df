/**
 * forge-trajectory-report's logic (spec §9.2, made useful): locate the newest
 * complete, trusted FORGE:TRAJECTORY of an issue, reading the thread from its
 * last page backwards, and build the report for an issue or a milestone.
 * Typed inputs and the client in, reports out; writing the notes file is the
 * action's (notes-file.ts), the Markdown render.ts's.
 */
import { getField, matchEnum, parse, stripCodeSpan, TASK_TYPES, type Annotation, type Trajectory } from '../codec/index.js';
import { counts, type TrustPolicy } from '../common/trust.js';
import { markEditors, trustedOfType, type Located } from '../common/trusted-annotations.js';
import { readThreadSnapshot } from '../github/snapshot.js';
import type { PipelineAnswer } from '../common/pipeline.js';
import { ApiError } from '../github/errors.js';
import { repoName } from '../common/repo.js';
import type { ThreadComment, WorkItem } from '../common/work-item.js';
import type { GitHub } from '../github/client.js';
import type { Repo } from '../common/repo.js';
import { mapLimit, READ_CONCURRENCY } from '../common/concurrency.js';
import { getIssue, resolveMilestone, type MilestoneRef } from '../github/reads.js';
import { listIssues } from '../github/repo-reads.js';
import { createDraftRelease, deleteRelease, listReleases, updateDraftRelease, type ReleaseInfo } from '../github/releases.js';
import {
  blockMilestones,
  composeBlock,
  holdsBlock,
  MAX_RELEASE_BODY,
  readEntries,
  releaseEntry,
  withBlock,
  withoutEntries,
} from './release-draft.js';

function codeSpanValue(s: string | undefined): string | null {
  return s === undefined ? null : stripCodeSpan(s).trim();
}

export interface IssueRef {
  number: number;
  title: string;
  url: string;
}

export interface TrajectoryReport {
  issue: IssueRef;
  found: boolean;
  commentUrl: string | null;
  author: string | null;
  phases: Trajectory['phases'];
  decisions: string | null;
  anomalies: string | null;
  completed: string | null;
  prNumber: number | null;
  prUrl: string | null;
  branch: string | null;
  investigator: { verdict: string | null; confidence: string | null; severity: string | null; taskType: string | null } | null;
  builder: { branch: string | null; commits: string | null; filesChanged: string | null; changes: string | null } | null;
  /** What the trajectory lacks (phase table, completion time): reported, never dropped. */
  missing: string[];
  /** When none counts: why the newest TRAJECTORY on the thread does not (its author, its hidden or edited state). */
  passedOver?: string | null;
}

/** `Task type: Bug Fix` in the trajectory's Investigation row, when no INVESTIGATOR was read. */
function taskTypeFromPhases(t: Trajectory): string | null {
  for (const p of t.phases) {
    const m = /Task type:\s{0,4}([A-Za-z ]{3,40})/.exec(p.notes);
    if (m) return matchEnum(m[1], TASK_TYPES) ?? m[1].trim();
  }
  return null;
}

export function buildReport(
  issue: IssueRef,
  trajectory: Located<Annotation> | null,
  investigator: Annotation | null,
  builder: Annotation | null,
): TrajectoryReport {
  const t = trajectory?.annotation.trajectory ?? null;
  const inv = investigator
    ? {
        verdict: getField(investigator.fields, 'Verdict') ?? null,
        confidence: getField(investigator.fields, 'Confidence') ?? null,
        severity: getField(investigator.fields, 'Severity') ?? null,
        taskType: getField(investigator.fields, 'Task Type') ?? null,
      }
    : null;
  const bld = builder
    ? {
        branch: codeSpanValue(getField(builder.fields, 'Branch')),
        commits: getField(builder.fields, 'Commits') ?? null,
        filesChanged: getField(builder.fields, 'Files changed') ?? null,
        changes: getField(builder.sections, 'Changes') ?? null,
      }
    : null;
  const missing: string[] = [];
  if (t && t.phases.length === 0) missing.push('phase table');
  if (t && !t.completed) missing.push('Completed time');
  const prNumber = t?.prNumber ?? null;
  return {
    issue,
    found: trajectory !== null,
    commentUrl: trajectory?.url ?? null,
    author: trajectory?.author.login ?? null,
    phases: t?.phases ?? [],
    decisions: t?.decisions ?? null,
    anomalies: t?.anomalies ?? null,
    completed: t?.completed ?? null,
    prNumber,
    prUrl: prNumber !== null ? issue.url.replace(/\/(issues|pull)\/\d+$/, `/pull/${prNumber}`) : null,
    branch: t?.branch ?? bld?.branch ?? null,
    investigator: inv ?? (t ? { verdict: null, confidence: null, severity: null, taskType: taskTypeFromPhases(t) } : null),
    builder: bld,
    missing,
  };
}

type Found = Located<Annotation>;

/** The newest complete trusted annotation of `type` in these comments, searched from the end. */
function newest(comments: ThreadComment[], item: number, type: string, trust: TrustPolicy): Found | null {
  for (let i = comments.length - 1; i >= 0; i--) {
    const complete = trustedOfType([comments[i]], item, type, trust).filter((f) => f.annotation.sentinelState === 'complete');
    const last = complete[complete.length - 1];
    if (last) return last;
  }
  return null;
}

export interface ThreadRead {
  /** The issue as read. */
  item: WorkItem;
  trajectory: Found | null;
  /** Set when no trajectory counts but one is there: why it does not. */
  passedOver: string | null;
  investigator: Found | null;
  builder: Found | null;
  requests: number;
  /** Who was trusted: the pipeline file's when it was read with the thread. */
  trust: TrustPolicy;
}

/**
 * A trajectory is written last: the issue is read with its first and its last
 * 100 comments in one request (each with who last edited it and whether it
 * is hidden), then 100 more from the end per request until a trusted complete
 * one is found. The INVESTIGATOR and BUILDER are taken from what was read.
 */
export async function readTrajectoryThread(
  gh: GitHub,
  repo: Repo,
  number: number,
  given: TrustPolicy,
  fromPipeline?: (answer: PipelineAnswer) => TrustPolicy,
): Promise<ThreadRead> {
  // With fromPipeline, who is trusted comes from the pipeline file read in the thread's own first request.
  let trust = given;
  const settle = fromPipeline
    ? (answer: PipelineAnswer) => {
        trust = fromPipeline(answer);
      }
    : undefined;
  const found = (comments: readonly ThreadComment[]) => {
    const probe: WorkItem = { ...EMPTY_ITEM, number, comments: [...comments] };
    markEditors([probe], trust);
    return newest(probe.comments, number, 'TRAJECTORY', trust) !== null;
  };
  const snap = await readThreadSnapshot(gh, repo, number, found, settle);
  if (snap.item === null)
    throw new ApiError(
      `reading #${number} failed: not found: no issue of ${repoName(repo)} that this token can see has that number`,
      404,
      false,
    );
  markEditors([snap.item], trust);
  const read = snap.item.comments;
  const trajectory = newest(read, number, 'TRAJECTORY', trust);
  return {
    item: snap.item,
    trajectory,
    passedOver: trajectory === null ? whyNot(read, number, trust) : null,
    investigator: newest(read, number, 'INVESTIGATOR', trust),
    builder: newest(read, number, 'BUILDER', trust),
    requests: snap.requests,
    trust,
  };
}

/**
 * Why the newest TRAJECTORY on the thread does not count, when one is there:
 * an agent not in trusted-authors must read as that, never as "none found".
 */
function whyNot(comments: readonly ThreadComment[], number: number, trust: TrustPolicy): string | null {
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i];
    if (!c.body.includes('FORGE:TRAJECTORY') || !parse(c.body).some((a) => a.type === 'TRAJECTORY')) continue;
    const who = `${c.author.login ?? '(unknown)'} (${c.author.association})`;
    const why = c.hidden
      ? `GitHub hides it (${c.hidden})`
      : c.editedBy && !c.editedBy.trusted
        ? `it was last edited by ${c.editedBy.login}, who is not in trusted-authors`
        : !counts('comment', c.author, trust)
          ? `its author ${who} is not in trusted-authors — add the agent's login there if it writes the trajectory`
          : 'it is not complete (no TRAJECTORY:COMPLETE sentinel)';
    return `the FORGE:TRAJECTORY on #${number} (${c.url}) does not count: ${why}`;
  }
  return null;
}

const EMPTY_ITEM: WorkItem = {
  number: 0,
  kind: 'issue',
  url: '',
  title: '',
  author: { login: null, association: 'NONE' },
  body: '',
  labels: [],
  state: null,
  milestone: null,
  comments: [],
};

export async function reportIssue(gh: GitHub, repo: Repo, item: WorkItem, trust: TrustPolicy): Promise<TrajectoryReport> {
  return reportOf(item, await readTrajectoryThread(gh, repo, item.number, trust));
}

function reportOf(item: WorkItem, thread: ThreadRead): TrajectoryReport {
  const report = buildReport(
    { number: item.number, title: item.title, url: item.url },
    thread.trajectory,
    thread.investigator?.annotation ?? null,
    thread.builder?.annotation ?? null,
  );
  return thread.passedOver ? { ...report, passedOver: thread.passedOver } : report;
}

/** An issue's report, or every closed issue of a milestone. */
export type ReportScope = { kind: 'issue'; issue: number } | { kind: 'milestone'; milestone: MilestoneRef };

export interface ReportInputs {
  repo: Repo;
  scope: ReportScope;
  trust: TrustPolicy;
}

export interface ReportOutcome {
  found: boolean;
  reports: TrajectoryReport[];
  /** The milestone's title in milestone scope. */
  milestoneTitle: string | null;
  scopeTitle: string;
}

export async function runReport(
  gh: GitHub,
  inputs: ReportInputs,
  fromPipeline?: (answer: PipelineAnswer) => TrustPolicy,
): Promise<ReportOutcome> {
  if (inputs.scope.kind === 'issue') {
    // The issue and its thread in one read (the pipeline file too, when trust is left to it).
    const thread = await readTrajectoryThread(gh, inputs.repo, inputs.scope.issue, inputs.trust, fromPipeline);
    const report = reportOf(thread.item, thread);
    return { found: report.found, reports: [report], milestoneTitle: null, scopeTitle: `#${thread.item.number}` };
  }
  const milestone = await resolveMilestone(gh, inputs.repo, inputs.scope.milestone);
  // Issues closed as completed, as in the draft: a not-planned close is no release note.
  const issues = (await listIssues(gh, inputs.repo, { state: 'closed', milestone: milestone.number })).filter(
    (i) => i.kind === 'issue' && (i.stateReason ?? 'completed') === 'completed',
  );
  const reports = await mapLimit(issues, READ_CONCURRENCY, (i) => reportIssue(gh, inputs.repo, i, inputs.trust));
  return { found: reports.some((r) => r.found), reports, milestoneTitle: milestone.title, scopeTitle: `milestone ${milestone.title}` };
}

/** A milestone as the event or an issue already names it: its number and title, no request needed. */
export interface MilestoneId {
  number: number;
  title: string;
}

/** Where the notes go in draft-release mode: the release's tag and name (both default to the milestone's title). */
export interface ReleaseSettings {
  tag: string | null;
  name: string | null;
}

export interface DraftOutcome {
  /** written: the draft was created or updated; unchanged: it already held the complete set; published: left alone. */
  result: 'created' | 'updated' | 'unchanged' | 'published';
  release: ReleaseInfo | null;
  milestone: MilestoneId;
  /** Issues whose entries were added (read this run) and removed (reopened, moved, not planned). */
  added: number[];
  removed: number[];
  /** Issues that do not fit the release body: named in it, never cut silently. */
  left: number[];
  /** Extra drafts of the same milestone (racing closes made them), merged into this one and deleted. */
  merged: number[];
  /** Extra drafts merged into this one but left, because they hold text besides the block or uploaded assets. */
  kept: Array<{ id: number; assets: number }>;
  /** Entries of issues moved to this milestone, taken out of another milestone's draft. */
  movedOut: Array<{ release: string; issues: number[] }>;
  /** The reports read this run. */
  reports: TrajectoryReport[];
}

/**
 * A tag name git accepts, from a milestone title: blanks and the characters a
 * ref cannot hold become `-` (`Sprint 3` → `Sprint-3`).
 */
export function tagFor(title: string): string {
  const cleaned = title
    .trim()
    .replace(/[\s~^:?*[\\\]]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '');
  return cleaned === '' ? 'release' : cleaned;
}

/**
 * Keep the milestone's one draft release complete: find it by its marker
 * (never by name), read only the closed-as-completed issues it lacks, drop
 * entries of issues no longer in the set, and write it back with its tag. A
 * published release is never edited, and no second draft is made beside it.
 * Every run converges on the complete set, so a run that lost a race is
 * repaired by the next.
 */
export async function runReleaseDraft(
  gh: GitHub,
  inputs: ReportInputs,
  milestone: MilestoneId,
  settings: ReleaseSettings,
): Promise<DraftOutcome> {
  const r = inputs.repo;
  const all = await listReleases(gh, r);
  const ours = all.filter((x) => holdsBlock(x.body, milestone.number));
  // Two closes that raced may each have made a draft: one holding CI's uploaded assets is the one kept (the notes go
  // where the files are), else the oldest; the others' entries join it.
  const drafts = ours.filter((x) => x.draft).sort((a, b) => Number(b.assets > 0) - Number(a.assets > 0) || a.id - b.id);
  const draft = drafts[0] ?? null;
  const extras = drafts.slice(1);
  const base = { milestone, added: [], removed: [], left: [], reports: [], merged: [], kept: [], movedOut: [] };
  if (draft === null && ours.length > 0) return { ...base, result: 'published', release: ours[0] };
  const closed = await listIssues(gh, r, { state: 'closed', milestone: milestone.number });
  // Issues closed as completed: a not-planned close is no release note.
  const wanted = closed.filter((i) => i.kind === 'issue' && (i.stateReason ?? 'completed') === 'completed');
  const existing: ReturnType<typeof readEntries> = [];
  for (const d of draft ? [draft, ...extras] : [])
    for (const e of readEntries(d.body ?? '', milestone.number)) if (!existing.some((x) => x.number === e.number)) existing.push(e);
  const have = new Set(existing.map((e) => e.number));
  const keep = new Set(wanted.map((i) => i.number));
  // The event's issue is read even when its entry is already there: the step's outputs describe its notes every run.
  const subject = inputs.scope.kind === 'issue' ? inputs.scope.issue : null;
  const reports = await mapLimit(
    wanted.filter((i) => !have.has(i.number) || i.number === subject),
    READ_CONCURRENCY,
    (i) => reportIssue(gh, r, i, inputs.trust),
  );
  const fresh = new Set(reports.map((x) => x.issue.number));
  const entries = [...existing.filter((e) => keep.has(e.number) && !fresh.has(e.number)), ...reports.map(releaseEntry)];
  const name = settings.name ?? milestone.title;
  const tag = settings.tag ?? tagFor(milestone.title);
  const room = MAX_RELEASE_BODY - withBlock(draft?.body ?? null, milestone.number, '').length;
  const { block, left } = composeBlock(milestone.number, name, entries, room);
  const body = withBlock(draft?.body ?? null, milestone.number, block);
  const changes = {
    added: reports.map((x) => x.issue.number).filter((n) => !left.includes(n) && !have.has(n)),
    removed: existing.filter((e) => !keep.has(e.number)).map((e) => e.number),
    left,
    reports,
  };
  // An issue of this milestone's set that another milestone's draft still lists was moved here (GitHub may send only
  // `milestoned`): its entry leaves that draft.
  const movedOut = await removeMoved(gh, inputs, all, milestone.number, keep, new Set([draft, ...extras].map((x) => x?.id)));
  if (draft && draft.body === body && draft.tag === tag && extras.length === 0)
    return { ...base, ...changes, movedOut, result: 'unchanged', release: draft };
  if (!draft) return { ...base, ...changes, movedOut, result: 'created', release: await createDraftRelease(gh, r, tag, name, body) };
  const release = draft.body === body && draft.tag === tag ? draft : await updateDraftRelease(gh, r, draft.id, tag, body);
  // The extra drafts, once their entries are in the kept one: deleted when they hold nothing but our block (nothing of
  // the maintainer's is lost); one with text of someone's around the block, or files CI uploaded to it, is left, and named.
  const merged: number[] = [];
  const kept: DraftOutcome['kept'] = [];
  for (const x of extras) {
    if (x.assets > 0 || withBlock(x.body, milestone.number, '').trim() !== '') kept.push({ id: x.id, assets: x.assets });
    else {
      await deleteRelease(gh, r, x.id);
      merged.push(x.id);
    }
  }
  return { ...base, ...changes, merged, kept, movedOut, result: 'updated', release };
}

/** Entries of `numbers` taken out of the drafts of other milestones (never a published release): what was removed where. */
async function removeMoved(
  gh: GitHub,
  inputs: ReportInputs,
  releases: readonly ReleaseInfo[],
  milestone: number,
  numbers: ReadonlySet<number>,
  skip: ReadonlySet<number | undefined>,
): Promise<DraftOutcome['movedOut']> {
  const out: DraftOutcome['movedOut'] = [];
  for (const x of releases) {
    if (!x.draft || skip.has(x.id)) continue;
    let body = x.body ?? '';
    const removed: number[] = [];
    for (const other of blockMilestones(body)) {
      if (other === milestone) continue;
      const before = new Set(readEntries(body, other).map((e) => e.number));
      const next = withoutEntries(body, other, numbers);
      if (next === null) continue;
      removed.push(...[...before].filter((n) => numbers.has(n)));
      body = next;
    }
    if (removed.length === 0) continue;
    await updateDraftRelease(gh, inputs.repo, x.id, x.tag, body);
    out.push({ release: x.url, issues: removed });
  }
  return out;
}

/** The milestone a draft is kept for: as the event named it, or read (an issue's, or one named by number or title); null when the issue has none. */
export async function releaseMilestone(gh: GitHub, r: Repo, ref: MilestoneId | MilestoneRef): Promise<MilestoneId | null> {
  if ('number' in ref) return ref;
  if ('ofIssueNumber' in ref) {
    const issue = await getIssue(gh, r, ref.ofIssueNumber);
    return issue.milestone;
  }
  const m = await resolveMilestone(gh, r, ref);
  return { number: m.number, title: m.title };
}
