/**
 * forge-trajectory-report's logic (spec §9.2, made useful): locate the newest
 * complete, trusted FORGE:TRAJECTORY of an issue, reading the thread from its
 * last page backwards, and build release notes for an issue or a milestone.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse, type Annotation } from '../codec/index.js';
import type { ThreadComment, WorkItem } from '../common/work-item.js';
import { isTrusted, type TrustPolicy } from '../common/trust.js';
import type { GitHub } from '../github/client.js';
import type { Repo } from '../github/repo.js';
import { commentsPage, listIssues, getIssue } from '../github/reads.js';
import { resolveMilestone } from '../github/reads.js';
import { buildReport, entryBegin, entryEnd, issueMarkdown, milestoneMarkdown, type TrajectoryReport } from './report.js';

interface Found {
  annotation: Annotation;
  url: string;
  author: string | null;
}

/** Newest first: the last complete annotation of `type` by a trusted author in these comments. */
function newest(comments: ThreadComment[], type: string, trust: TrustPolicy): Found | null {
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i];
    if (!c.body.includes(`FORGE:${type}`) || !isTrusted(trust, c.author)) continue;
    const all = parse(c.body).filter((a) => a.type === type && a.sentinelState === 'complete');
    if (all.length > 0) return { annotation: all[all.length - 1], url: c.url, author: c.author.login };
  }
  return null;
}

export interface ThreadRead {
  trajectory: Found | null;
  investigator: Found | null;
  builder: Found | null;
  requests: number;
}

/**
 * A trajectory is written last: read page 1 (which names the last page), then
 * the last page, and back, stopping at the first page that holds one. The
 * INVESTIGATOR and BUILDER are taken from the pages read on the way.
 */
export async function readTrajectoryThread(gh: GitHub, repo: Repo, number: number, trust: TrustPolicy): Promise<ThreadRead> {
  const first = await commentsPage(gh, repo, number, 1);
  let requests = 1;
  const tail: ThreadComment[][] = [];
  let trajectory: Found | null = null;
  for (let page = first.last; page > 1 && trajectory === null; page--) {
    const { comments } = await commentsPage(gh, repo, number, page);
    requests++;
    tail.unshift(comments);
    trajectory = newest(comments, 'TRAJECTORY', trust);
  }
  if (trajectory === null) trajectory = newest(first.comments, 'TRAJECTORY', trust);
  const read = [first.comments, ...tail].flat();
  return { trajectory, investigator: newest(read, 'INVESTIGATOR', trust), builder: newest(read, 'BUILDER', trust), requests };
}

export async function reportIssue(gh: GitHub, repo: Repo, item: WorkItem, trust: TrustPolicy): Promise<TrajectoryReport> {
  const thread = await readTrajectoryThread(gh, repo, item.number, trust);
  return buildReport(
    { number: item.number, title: item.title, url: item.url },
    thread.trajectory,
    thread.investigator?.annotation ?? null,
    thread.builder?.annotation ?? null,
  );
}

/** A small worker pool: the throttling plugin still paces the requests. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}

export interface ReportInputs {
  repo: Repo;
  scope: 'issue' | 'milestone';
  issue: number | null;
  milestone: string | null;
  trust: TrustPolicy;
  outputFile: string | null;
  failIfMissing: boolean;
}

export interface ReportOutcome {
  found: boolean;
  reports: TrajectoryReport[];
  markdown: string;
  scopeTitle: string;
  outputFile: { path: string; action: 'appended' | 'replaced' } | null;
}

/** Where `line` stands as a whole line of `text`, from `from` on; -1 when it does not. */
function lineIndexOf(text: string, line: string, from: number): number {
  for (let at = text.indexOf(line, from); at >= 0; at = text.indexOf(line, at + 1)) {
    const startsLine = at === 0 || text[at - 1] === '\n';
    const after = text[at + line.length];
    if (startsLine && (after === undefined || after === '\n' || after === '\r')) return at;
  }
  return -1;
}

/** Append (or replace in place) the entry for one issue: running twice never duplicates it. */
export function writeEntry(path: string, number: number, entry: string): 'appended' | 'replaced' {
  mkdirSync(dirname(path), { recursive: true });
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  // Markers count only as whole lines: entry text is inert (no `<` survives), so
  // only this action writes them, and a marker quoted mid-line is never one.
  const begin = lineIndexOf(current, entryBegin(number), 0);
  const end = begin >= 0 ? lineIndexOf(current, entryEnd(number), begin) : -1;
  if (begin >= 0 && end >= 0) {
    writeFileSync(path, current.slice(0, begin) + entry + current.slice(end + entryEnd(number).length));
    return 'replaced';
  }
  const sep = current === '' || current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  writeFileSync(path, current + sep + entry + '\n');
  return 'appended';
}

export async function runReport(gh: GitHub, inputs: ReportInputs, resolvePath: (p: string) => string): Promise<ReportOutcome> {
  if (inputs.scope === 'issue') {
    const item = await getIssue(gh, inputs.repo, inputs.issue as number);
    const report = await reportIssue(gh, inputs.repo, item, inputs.trust);
    const markdown = report.found ? issueMarkdown(report) : '';
    let outputFile: ReportOutcome['outputFile'] = null;
    if (report.found && inputs.outputFile) {
      const path = resolvePath(inputs.outputFile);
      outputFile = { path: inputs.outputFile, action: writeEntry(path, item.number, markdown) };
    }
    return { found: report.found, reports: [report], markdown, scopeTitle: `#${item.number}`, outputFile };
  }

  const issue = inputs.milestone === null ? await getIssue(gh, inputs.repo, inputs.issue as number) : { number: 0, milestone: null };
  const milestone = await resolveMilestone(gh, inputs.repo, inputs.milestone, issue);
  const issues = await listIssues(gh, inputs.repo, { state: 'closed', milestone: milestone.number });
  const reports = await mapLimit(issues, 8, (i) => reportIssue(gh, inputs.repo, i, inputs.trust));
  const markdown = milestoneMarkdown(milestone.title, reports);
  let outputFile: ReportOutcome['outputFile'] = null;
  if (inputs.outputFile) {
    const path = resolvePath(inputs.outputFile);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, markdown + '\n');
    outputFile = { path: inputs.outputFile, action: 'replaced' };
  }
  return { found: reports.some((r) => r.found), reports, markdown, scopeTitle: `milestone ${milestone.title}`, outputFile };
}
