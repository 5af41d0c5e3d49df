/**
 * The report of a repository-scope check: one entry per issue, the shape of
 * the `report` output, the checkpoint, `report-file` and `forge report merge`.
 * Pure data in and out; the renderers live in repository-render.ts.
 */
import { oneLine } from '../codec/index.js';
import { UsageError } from '../common/errors.js';
import type { ItemReport, TypeStatus } from './evaluate.js';

export type IssueStatus = 'failing' | 'conforming' | 'exempt';
export const ISSUE_STATUSES: readonly IssueStatus[] = ['failing', 'conforming', 'exempt'];

export interface IssueEntry {
  number: number;
  title: string;
  url: string;
  /** The workflow:* label (spec §6), as in the item report. */
  state: string;
  status: IssueStatus;
  /** Each required type's status. */
  types: Record<string, TypeStatus>;
  /** One line per type that is not ok. */
  problems: string[];
  /** GitHub's updated_at when the issue was read: an incremental run reads it again only when this moved. */
  updatedAt?: string;
  /** GitHub's count of its comments then: a deleted comment moves this, not always updated_at. */
  comments?: number;
}

export interface RepositoryReport {
  version: 1;
  repository: string;
  generatedAt: string;
  required: string[];
  validation: string;
  /** True when only the issues that changed since the checkpoint were read. */
  incremental: boolean;
  /** Which issues the audit covered (state, labels, milestone), so a merge can tell two audits of one repository apart. */
  filter?: { state: string; labels: string[]; milestone: string | null };
  counts: Record<IssueStatus, number>;
  /** Failing issues first, then by number. */
  issues: IssueEntry[];
}

export function entryOf(item: ItemReport, title: string, problems: string[]): IssueEntry {
  const status: IssueStatus = item.exempt ? 'exempt' : problems.length > 0 ? 'failing' : 'conforming';
  return {
    number: item.number,
    title,
    url: item.url,
    state: item.state,
    status,
    types: Object.fromEntries(item.types.map((t) => [t.type, t.status])),
    problems,
  };
}

const ORDER: Record<IssueStatus, number> = { failing: 0, conforming: 1, exempt: 2 };

export function sortEntries(entries: IssueEntry[]): IssueEntry[] {
  return entries.sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.number - b.number);
}

export function countStatuses(entries: readonly IssueEntry[]): Record<IssueStatus, number> {
  const counts: Record<IssueStatus, number> = { failing: 0, conforming: 0, exempt: 0 };
  for (const e of entries) counts[e.status]++;
  return counts;
}

type Json = Record<string, unknown>;

function isEntry(v: unknown): v is IssueEntry {
  const e = v as Json;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.number === 'number' &&
    typeof e.url === 'string' &&
    typeof e.status === 'string' &&
    (ISSUE_STATUSES as readonly string[]).includes(e.status) &&
    typeof e.types === 'object' &&
    e.types !== null &&
    Array.isArray(e.problems) &&
    e.problems.every((p) => typeof p === 'string')
  );
}

/** An item-scope report (forge-check's `report` on one issue or PR) read as entries. */
function entriesOfItemReport(items: unknown[], name: string): IssueEntry[] {
  return items.map((raw, i) => {
    const item = raw as ItemReport;
    if (typeof item?.number !== 'number' || !Array.isArray(item.types))
      throw new UsageError(`${name}: entry ${i + 1} is not a forge-check item report`);
    const label = `${item.kind === 'pull' ? 'PR' : 'issue'} #${item.number}`;
    const problems = item.types
      .filter((t) => t.status !== 'ok' && t.status !== 'not-required')
      .map((t) => `${label}: ${t.type} is ${t.status}`);
    return entryOf(item, '', problems);
  });
}

/**
 * A report as written by forge-check (repository scope, or an item-scope
 * array), checked field by field: a merge step reads files other jobs wrote.
 */
export function readReport(text: string, name: string): RepositoryReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${name}: not JSON (${(e as Error).message})`);
  }
  if (Array.isArray(data)) {
    const issues = sortEntries(entriesOfItemReport(data, name));
    return {
      version: 1,
      repository: '(item checks)',
      generatedAt: '',
      required: [],
      validation: '',
      incremental: false,
      counts: countStatuses(issues),
      issues,
    };
  }
  const r = data as Json;
  if (typeof r !== 'object' || r === null || r.version !== 1 || typeof r.repository !== 'string' || !Array.isArray(r.issues))
    throw new UsageError(`${name}: not a forge-check report (expected {"version": 1, "repository": …, "issues": […]})`);
  const bad = r.issues.findIndex((e) => !isEntry(e));
  if (bad >= 0) throw new UsageError(`${name}: issue entry ${bad + 1} is malformed`);
  const issues = sortEntries([...(r.issues as IssueEntry[])]);
  return {
    version: 1,
    repository: r.repository,
    generatedAt: typeof r.generatedAt === 'string' ? r.generatedAt : '',
    required: Array.isArray(r.required) ? r.required.filter((t): t is string => typeof t === 'string') : [],
    validation: typeof r.validation === 'string' ? r.validation : '',
    incremental: r.incremental === true,
    ...(isFilter(r.filter) ? { filter: r.filter } : {}),
    counts: countStatuses(issues),
    issues,
  };
}

function isFilter(v: unknown): v is NonNullable<RepositoryReport['filter']> {
  const f = v as Json;
  return (
    typeof f === 'object' &&
    f !== null &&
    typeof f.state === 'string' &&
    Array.isArray(f.labels) &&
    f.labels.every((l) => typeof l === 'string') &&
    (f.milestone === null || typeof f.milestone === 'string')
  );
}

export interface MergedReport {
  repositories: Array<{ repository: string; generatedAt: string; counts: Record<IssueStatus, number> }>;
  counts: Record<IssueStatus, number>;
  /** Every failing issue of every repository, repository by repository. */
  failing: Array<IssueEntry & { repository: string }>;
  /** What the merge left out, and why (the same audit given twice). */
  notes: string[];
  /** Repositories expected (--expect) with no report: their audit job failed or uploaded nothing. */
  missing: string[];
}

const describeFilter = (f: RepositoryReport['filter']) =>
  f
    ? `state ${f.state}${f.labels.length ? `, labels ${f.labels.join(',')}` : ''}${f.milestone ? `, milestone ${f.milestone}` : ''}`
    : 'no filter recorded';

/**
 * One report per repository: the same audit given twice (an artifact
 * downloaded twice, a re-run job) is counted once — the newest — and two
 * audits of one repository with different filters would count issues twice,
 * so they are refused.
 */
function onePerRepository(reports: readonly RepositoryReport[]): { kept: RepositoryReport[]; notes: string[] } {
  const byName = new Map<string, RepositoryReport>();
  const notes: string[] = [];
  for (const r of reports) {
    const key = r.repository.toLowerCase();
    const seen = byName.get(key);
    if (!seen) {
      byName.set(key, r);
      continue;
    }
    if (seen.filter && r.filter && JSON.stringify(seen.filter) !== JSON.stringify(r.filter))
      throw new UsageError(
        `report merge: ${oneLine(r.repository)} is given twice with different filters (${describeFilter(seen.filter)}; ${describeFilter(r.filter)}): merge one audit per repository`,
      );
    const newer = r.generatedAt > seen.generatedAt ? r : seen;
    byName.set(key, newer);
    notes.push(`${oneLine(r.repository)} was given twice: counted once, from the report generated at ${newer.generatedAt || '(unknown)'}`);
  }
  return { kept: [...byName.values()], notes };
}

export function mergeReports(given: readonly RepositoryReport[], expected: readonly string[] = []): MergedReport {
  const { kept: reports, notes } = onePerRepository(given);
  const counts: Record<IssueStatus, number> = { failing: 0, conforming: 0, exempt: 0 };
  const failing: MergedReport['failing'] = [];
  for (const r of reports) {
    for (const s of ISSUE_STATUSES) counts[s] += r.counts[s];
    for (const e of r.issues) if (e.status === 'failing') failing.push({ ...e, repository: r.repository });
  }
  const repositories = reports
    .map((r) => ({ repository: r.repository, generatedAt: r.generatedAt, counts: r.counts }))
    .sort((a, b) => b.counts.failing - a.counts.failing || a.repository.localeCompare(b.repository));
  const have = new Set(reports.map((r) => r.repository.toLowerCase()));
  const missing = [...new Set(expected.filter((x) => !have.has(x.toLowerCase())))];
  return { repositories, counts, failing, notes, missing };
}
