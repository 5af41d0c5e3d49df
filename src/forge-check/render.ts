/**
 * forge-check on one item: the decision as outputs, the job summary, and the
 * policy — a failure under fail-on-violation, otherwise the problems as warnings.
 */
import { tableCell } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import { STATUS_ICON, type CheckResult } from '../conformance/evaluate.js';

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

/** The item check's result for the runner; the status comment's outcome is added by the wiring. */
export function itemResult(result: CheckResult, failOnViolation: boolean): ActionResult & { warnings: string[] } {
  const failing = !result.conforming;
  return {
    outputs: checkOutputs(result),
    summary: markdownReport(result),
    failure: failing && failOnViolation ? `FORGE conformance failed: ${result.problems.join('; ')}` : null,
    warnings: [...result.notes, ...(failing && !failOnViolation ? result.problems : [])],
  };
}
