/**
 * Repository-scope reports as Markdown (the job summary, `forge report merge`)
 * and as plain text: counts by status first, then the failing issues, then
 * the rest folded away. Titles and problems are untrusted text: every cell
 * goes through tableCell.
 */
import { codeSpan, oneLine } from '../codec/index.js';
import { inert, linkTarget, tableCell } from '../common/markdown.js';
import { ISSUE_STATUSES, type IssueEntry, type IssueStatus, type MergedReport, type RepositoryReport } from './report.js';

const ICON: Record<IssueStatus, string> = { failing: '❌ failing', conforming: '✅ conforming', exempt: '➖ exempt' };

/** Rows per table: a summary of 10,000 issues must stay readable and under GitHub's 1 MiB. */
export const MAX_ROWS = 300;

function countsTable(counts: Record<IssueStatus, number>): string[] {
  const total = ISSUE_STATUSES.reduce((n, s) => n + counts[s], 0);
  return [
    '| Status | Issues |',
    '|---|---|',
    ...ISSUE_STATUSES.map((s) => `| ${ICON[s]} | ${counts[s]} |`),
    `| **total** | **${total}** |`,
    '',
  ];
}

/** A link target only when it is an http(s) URL, written so nothing in it can end the link early. */
function safeUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? linkTarget(u.href) : null;
  } catch {
    return null;
  }
}

function issueLink(e: IssueEntry, repository?: string): string {
  const name = inert(repository ? `${repository}#${e.number}` : `#${e.number}`);
  const target = safeUrl(e.url);
  return `${target ? `[${name}](${target})` : name}${e.title ? ` ${inert(e.title.slice(0, 120))}` : ''}`;
}

/** A workflow label as a code span that no text can break out of. */
function stateCell(state: string): string {
  return codeSpan(oneLine(state).replace(/\|/g, '¦'));
}

/** "issue #12: BUILDER is missing" → "BUILDER is missing": the row already names the issue. */
function problemsOf(e: IssueEntry): string {
  return e.problems.map((p) => p.replace(/^(?:issue|PR) #\d+: /, '')).join('; ');
}

function problemsCell(e: IssueEntry): string {
  return inert(problemsOf(e).slice(0, 600));
}

function rows<T>(list: readonly T[], render: (t: T) => string, what: string): string[] {
  const out = list.slice(0, MAX_ROWS).map(render);
  if (list.length > MAX_ROWS) out.push('', `… and ${list.length - MAX_ROWS} more ${what} (all of them are in the \`report\` JSON).`);
  return out;
}

export function markdownRepositoryReport(report: RepositoryReport, rechecked: number, notes: readonly string[]): string {
  const failing = report.issues.filter((e) => e.status === 'failing');
  const others = report.issues.filter((e) => e.status !== 'failing');
  const out: string[] = [
    `## FORGE conformance of ${inert(report.repository)}: ${failing.length === 0 ? '✅ conforming' : `❌ ${failing.length} failing`}`,
    '',
    `Required: ${report.required.map((t) => `\`${t}\``).join(', ')} (validation: ${report.validation}). ` +
      `${report.issues.length} issue(s) in the report; ${rechecked} read ${report.incremental ? 'this run (changed since the last run)' : 'this run'}.`,
    '',
  ];
  for (const n of notes) out.push(`> ${tableCell(n)}`, '');
  out.push(...countsTable(report.counts));
  if (failing.length > 0) {
    out.push('### Failing issues', '', '| Issue | State | Problems |', '|---|---|---|');
    out.push(...rows(failing, (e) => `| ${issueLink(e)} | ${stateCell(e.state)} | ${problemsCell(e)} |`, 'failing issues'), '');
  }
  if (others.length > 0) {
    out.push(
      `<details><summary>${others.length} conforming or exempt issue(s)</summary>`,
      '',
      '| Issue | Status | State |',
      '|---|---|---|',
    );
    out.push(...rows(others, (e) => `| ${issueLink(e)} | ${ICON[e.status]} | ${stateCell(e.state)} |`, 'issues'), '', '</details>', '');
  }
  return out.join('\n');
}

/** The verdict of a merge: failing issues, or expected repositories with no report, are never "conforming". */
function mergedVerdict(merged: MergedReport): string {
  const parts = [
    merged.counts.failing > 0 ? `${merged.counts.failing} failing` : '',
    merged.missing.length > 0 ? `${merged.missing.length} report(s) missing` : '',
  ].filter((p) => p !== '');
  return parts.length === 0 ? '✅ conforming' : `❌ ${parts.join(', ')}`;
}

export function markdownMergedReport(merged: MergedReport): string {
  const out: string[] = [
    `## FORGE conformance across ${merged.repositories.length} repositories: ${mergedVerdict(merged)}`,
    '',
    ...(merged.missing.length > 0
      ? [`> **No report from ${merged.missing.map((m) => inert(m)).join(', ')}**: their audit job failed or uploaded nothing.`, '']
      : []),
    ...merged.notes.flatMap((n) => [`> ${inert(n)}`, '']),
    ...countsTable(merged.counts),
    '| Repository | Failing | Conforming | Exempt | Audited at |',
    '|---|---|---|---|---|',
    ...merged.repositories.map(
      (r) => `| ${inert(r.repository)} | ${r.counts.failing} | ${r.counts.conforming} | ${r.counts.exempt} | ${inert(r.generatedAt)} |`,
    ),
    '',
  ];
  if (merged.failing.length > 0) {
    out.push('### Failing issues', '', '| Issue | State | Problems |', '|---|---|---|');
    out.push(
      ...rows(merged.failing, (e) => `| ${issueLink(e, e.repository)} | ${stateCell(e.state)} | ${problemsCell(e)} |`, 'failing issues'),
      '',
    );
  }
  return out.join('\n');
}

export function textMergedReport(merged: MergedReport): string {
  // Report files come from other jobs' artifacts: every value is held to one line.
  const out = [
    ...merged.missing.map((m) => `missing: ${oneLine(m)} (no report: its audit job failed or uploaded nothing)`),
    ...merged.notes.map((n) => `note: ${oneLine(n)}`),
  ];
  out.push(
    ...merged.repositories.map(
      (r) => `${oneLine(r.repository)}: ${r.counts.failing} failing, ${r.counts.conforming} conforming, ${r.counts.exempt} exempt`,
    ),
  );
  for (const e of merged.failing) out.push(`  ${oneLine(e.repository)}#${e.number}: ${oneLine(problemsOf(e))}`);
  out.push(
    `total: ${merged.counts.failing} failing, ${merged.counts.conforming} conforming, ${merged.counts.exempt} exempt in ${merged.repositories.length} repositories`,
  );
  return out.join('\n');
}
