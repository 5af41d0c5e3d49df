/**
 * Repository-scope reports as Markdown (the job summary, `forge report merge`)
 * and as plain text: counts by status first, then the failing issues, then
 * the rest folded away. Titles and problems are untrusted text: every cell
 * goes through tableCell.
 */
import { inert, tableCell } from '../common/markdown.js';
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

function issueLink(e: IssueEntry, repository?: string): string {
  const name = repository ? `${repository}#${e.number}` : `#${e.number}`;
  return `[${tableCell(name)}](${e.url})${e.title ? ` ${inert(e.title.slice(0, 120))}` : ''}`;
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
    `## FORGE conformance of ${tableCell(report.repository)}: ${failing.length === 0 ? '✅ conforming' : `❌ ${failing.length} failing`}`,
    '',
    `Required: ${report.required.map((t) => `\`${t}\``).join(', ')} (validation: ${report.validation}). ` +
      `${report.issues.length} issue(s) in the report; ${rechecked} read ${report.incremental ? 'this run (changed since the last run)' : 'this run'}.`,
    '',
  ];
  for (const n of notes) out.push(`> ${tableCell(n)}`, '');
  out.push(...countsTable(report.counts));
  if (failing.length > 0) {
    out.push('### Failing issues', '', '| Issue | State | Problems |', '|---|---|---|');
    out.push(...rows(failing, (e) => `| ${issueLink(e)} | \`${tableCell(e.state)}\` | ${problemsCell(e)} |`, 'failing issues'), '');
  }
  if (others.length > 0) {
    out.push(
      `<details><summary>${others.length} conforming or exempt issue(s)</summary>`,
      '',
      '| Issue | Status | State |',
      '|---|---|---|',
    );
    out.push(...rows(others, (e) => `| ${issueLink(e)} | ${ICON[e.status]} | \`${tableCell(e.state)}\` |`, 'issues'), '', '</details>', '');
  }
  return out.join('\n');
}

export function markdownMergedReport(merged: MergedReport): string {
  const out: string[] = [
    `## FORGE conformance across ${merged.repositories.length} repositories: ${merged.counts.failing === 0 ? '✅ conforming' : `❌ ${merged.counts.failing} failing`}`,
    '',
    ...countsTable(merged.counts),
    '| Repository | Failing | Conforming | Exempt | Audited at |',
    '|---|---|---|---|---|',
    ...merged.repositories.map(
      (r) =>
        `| ${tableCell(r.repository)} | ${r.counts.failing} | ${r.counts.conforming} | ${r.counts.exempt} | ${tableCell(r.generatedAt)} |`,
    ),
    '',
  ];
  if (merged.failing.length > 0) {
    out.push('### Failing issues', '', '| Issue | State | Problems |', '|---|---|---|');
    out.push(
      ...rows(
        merged.failing,
        (e) => `| ${issueLink(e, e.repository)} | \`${tableCell(e.state)}\` | ${problemsCell(e)} |`,
        'failing issues',
      ),
      '',
    );
  }
  return out.join('\n');
}

export function textMergedReport(merged: MergedReport): string {
  const out = merged.repositories.map(
    (r) => `${r.repository}: ${r.counts.failing} failing, ${r.counts.conforming} conforming, ${r.counts.exempt} exempt`,
  );
  for (const e of merged.failing) out.push(`  ${e.repository}#${e.number}: ${problemsOf(e)}`);
  out.push(
    `total: ${merged.counts.failing} failing, ${merged.counts.conforming} conforming, ${merged.counts.exempt} exempt in ${merged.repositories.length} repositories`,
  );
  return out.join('\n');
}
