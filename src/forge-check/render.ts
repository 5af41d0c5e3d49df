/** The gate's decision as outputs, a Markdown summary, and plain columns for the CLI. */
import type { ActionResult } from '../common/runner.js';
import type { CheckResult, TypeStatus } from './evaluate.js';
import type { RepositoryReport } from './repository-report.js';
import { tableCell } from '../common/markdown.js';

/** How a type's status is shown in tables (the job summary and the status comment). */
export const STATUS_ICON: Record<TypeStatus, string> = {
  ok: '✅ ok',
  missing: '❌ missing',
  incomplete: '⏳ incomplete',
  invalid: '⚠️ invalid',
  'not-required': '➖ not required',
};

/**
 * GitHub refuses a job summary over 1 MiB, and strangers can post tags by the
 * thousand: lists of ignored annotations and error texts are capped, the
 * verdict tables never are.
 */
export const MAX_IGNORED_ROWS = 25;
const MAX_CELL = 1500;

function capped(text: string): string {
  return text.length <= MAX_CELL ? text : `${text.slice(0, MAX_CELL)}… (${text.length - MAX_CELL} more characters)`;
}

export function markdownReport(result: CheckResult): string {
  const out: string[] = [];
  out.push(`## FORGE conformance: ${result.conforming ? '✅ conforming' : '❌ not conforming'}`, '');
  for (const n of result.notes) out.push(`> ${tableCell(n)}`, '');
  for (const item of result.items) {
    const kind = item.kind === 'pull' ? 'PR' : 'Issue';
    out.push(`### ${kind} [#${item.number}](${item.url}) — state \`${item.state}\`${item.terminal ? ' (terminal)' : ''}`, '');
    if (item.exempt) out.push(`> ${item.exempt}`, '');
    out.push('| Type | Status | Author | Link | Errors |', '|---|---|---|---|---|');
    for (const t of item.types) {
      const link = t.url ? `[comment](${t.url})` : '';
      out.push(
        `| \`${t.type}\` | ${STATUS_ICON[t.status]} | ${t.author ? `@${tableCell(t.author)}` : ''} | ${link} | ${tableCell(capped(t.errors.join('; ')))} |`,
      );
    }
    out.push('');
    if (item.ignored.length > 0) {
      out.push(`<details><summary>${item.ignored.length} annotation(s) ignored (untrusted authors, or not about this PR)</summary>`, '');
      out.push('| Type | Author | Link | Why |', '|---|---|---|---|');
      for (const i of item.ignored.slice(0, MAX_IGNORED_ROWS))
        out.push(
          `| \`${tableCell(capped(i.type))}\` | ${tableCell(i.author ?? '')} | [comment](${i.url}) | ${tableCell(capped(i.reason))} |`,
        );
      if (item.ignored.length > MAX_IGNORED_ROWS)
        out.push('', `… and ${item.ignored.length - MAX_IGNORED_ROWS} more (all of them are in the \`report\` output).`);
      out.push('', '</details>', '');
    }
  }
  return out.join('\n');
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function textReport(result: CheckResult): string {
  const out: string[] = result.notes.map((n) => `note: ${n}`);
  for (const item of result.items) {
    out.push(`${item.kind === 'pull' ? 'PR' : 'issue'} #${item.number}  state: ${item.state}${item.terminal ? ' (terminal)' : ''}`);
    if (item.exempt) out.push(`  ${item.exempt}`);
    const rows = item.types.map((t) => [t.type, t.status, t.author ?? '-', t.errors.join('; ')]);
    const w0 = Math.max(4, ...rows.map((r) => r[0].length));
    const w1 = Math.max(6, ...rows.map((r) => r[1].length));
    const w2 = Math.max(6, ...rows.map((r) => r[2].length));
    out.push(`  ${pad('TYPE', w0)}  ${pad('STATUS', w1)}  ${pad('AUTHOR', w2)}  ERRORS`);
    for (const r of rows) out.push(`  ${pad(r[0], w0)}  ${pad(r[1], w1)}  ${pad(r[2], w2)}  ${r[3]}`.trimEnd());
    for (const i of item.ignored) out.push(`  ignored ${i.type} by ${i.author ?? '?'} (${i.association}): ${i.reason}`);
  }
  out.push(result.conforming ? 'conforming' : `not conforming:\n${result.problems.map((p) => `  - ${p}`).join('\n')}`);
  return out.join('\n');
}

/** The step's outputs, as action.yml declares them. */
export const OUTPUTS = [
  'conforming',
  'missing',
  'incomplete',
  'invalid',
  'state',
  'terminal',
  'report',
  'checked',
  'rechecked',
  'failing',
  'comment-url',
] as const;

export type CheckOutputs = Record<(typeof OUTPUTS)[number], ActionResult['outputs'][string]>;

/** An item fails when any required type is not ok. */
function isFailing(item: CheckResult['items'][number]): boolean {
  return item.types.some((t) => t.status !== 'ok' && t.status !== 'not-required');
}

export function checkOutputs(result: CheckResult): CheckOutputs {
  return {
    conforming: result.conforming,
    missing: result.missing.join(','),
    incomplete: result.incomplete.join(','),
    invalid: result.invalid.join(','),
    state: result.state,
    terminal: result.terminal,
    report: JSON.stringify(result.items),
    checked: result.items.length,
    rechecked: result.items.length,
    failing: result.items.filter(isFailing).length,
    'comment-url': '',
  };
}

/** The same outputs for a repository: the type lists gather every failing issue's types. */
export function repositoryOutputs(report: RepositoryReport, rechecked: number): CheckOutputs {
  const typesWith = (status: string) => [
    ...new Set(
      report.issues.flatMap((e) =>
        Object.entries(e.types)
          .filter(([, s]) => s === status)
          .map(([t]) => t),
      ),
    ),
  ];
  return {
    conforming: report.counts.failing === 0,
    missing: typesWith('missing').join(','),
    incomplete: typesWith('incomplete').join(','),
    invalid: typesWith('invalid').join(','),
    state: 'none',
    terminal: false,
    report: JSON.stringify(report),
    checked: report.issues.length,
    rechecked,
    failing: report.counts.failing,
    'comment-url': '',
  };
}
