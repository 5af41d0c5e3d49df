/**
 * forge-check on one item: the decision as outputs, the job summary, and the
 * policy — a failure under fail-on-violation, otherwise the problems as warnings.
 */
import { linkTarget, tableCell } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import { STATUS_ICON, type CheckResult } from '../decision/evaluate.js';
import type { CheckRun } from './logic/run.js';

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
  if (result.exempt) {
    const item = result.items[0];
    const what = item ? `${item.kind === 'pull' ? 'PR' : 'Issue'} [#${item.number}](${linkTarget(item.url)})` : 'The item';
    return `## FORGE conformance: ✅ exempt\n\n${what} is ${tableCell(result.exempt)}: no FORGE annotations are required.\n`;
  }
  const out: string[] = [];
  out.push(`## FORGE conformance: ${result.conforming ? '✅ conforming' : '❌ not conforming'}`, '');
  for (const n of result.notes) out.push(`> ${tableCell(n)}`, '');
  for (const item of result.items) {
    const kind = item.kind === 'pull' ? 'PR' : 'Issue';
    out.push(`### ${kind} [#${item.number}](${linkTarget(item.url)}) — state \`${item.state}\`${item.terminal ? ' (terminal)' : ''}`, '');
    if (item.exempt) out.push(`> ${item.exempt}`, '');
    out.push('| Type | Status | Author | Link | Errors |', '|---|---|---|---|---|');
    for (const t of item.types) {
      const link = t.url ? `[comment](${linkTarget(t.url)})` : '';
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
          `| \`${tableCell(capped(i.type))}\` | ${tableCell(i.author ?? '')} | [comment](${linkTarget(i.url)}) | ${tableCell(capped(i.reason))} |`,
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
  'blocked',
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
    blocked: (result.blocked ?? []).join('; '),
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

/** Every checked PR's verdict as one: conforming only when each is; the type lists and the report gather them all. */
function combined(run: CheckRun): CheckResult {
  const results = run.verdicts.map((v) => v.result);
  const union = (pick: (r: CheckResult) => string[]) => [...new Set(results.flatMap(pick))];
  return {
    conforming: results.every((r) => r.conforming),
    blocked: union((r) => r.blocked ?? []),
    missing: union((r) => r.missing),
    incomplete: union((r) => r.incomplete),
    invalid: union((r) => r.invalid),
    state: results[0]?.state ?? 'none',
    terminal: results[0]?.terminal ?? false,
    // Each item report says which PR it was judged for when more than one PR was checked.
    items: run.verdicts.flatMap((v) =>
      run.verdicts.length > 1 && v.pull ? v.result.items.map((i) => ({ ...i, pull: v.pull?.number })) : v.result.items,
    ),
    problems: results.flatMap((r) => r.problems),
    notes: results.flatMap((r) => r.notes),
  };
}

/** The summary's heading: one verdict, several PRs, or a merge group's commit. */
function heading(run: CheckRun, all: CheckResult): string {
  if (run.group) {
    const prs = run.group.pulls.map((n) => `#${n}`).join(', ');
    return `## FORGE conformance: ${all.conforming ? '✅' : '❌'} merge group \`${run.group.sha.slice(0, 12)}\` (PR ${prs})`;
  }
  return `## FORGE conformance: ${all.conforming ? '✅' : '❌'} ${run.verdicts.length} PRs checked`;
}

/** The item check's result for the runner; the status comments' outcomes are added by the wiring. */
export function itemResult(run: CheckRun, failOnViolation: boolean): ActionResult & { warnings: string[]; notices: string[] } {
  const all = combined(run);
  // A merge group is judged whole: a PR in it that could not be read fails it too.
  if (run.group && !run.group.conforming && all.conforming)
    Object.assign(all, {
      conforming: false,
      problems: [
        ...all.problems,
        run.group.error ? `the merge group could not be decided: ${run.group.error}` : 'a PR in the merge group could not be checked',
      ],
    });
  // Waiting for the pipeline's agent on every PR is no failure of the step: the status says pending, and the merge waits.
  // A merge group is judged whole and now: it never waits.
  const awaiting =
    !run.group && !all.conforming && run.verdicts.length > 0 && run.verdicts.every((v) => v.result.conforming || v.result.awaiting);
  const failing = !all.conforming && !awaiting;
  const notices = new Set(run.verdicts.flatMap((v) => v.notices));
  const runNotes = run.notes.map((n) => `> ${tableCell(n)}`).join('\n\n');
  const summary =
    run.verdicts.length === 0
      ? `## FORGE conformance: nothing to check\n\n${runNotes}\n`
      : run.verdicts.length === 1 && !run.group
        ? markdownReport(run.verdicts[0].result)
        : [
            heading(run, all),
            '',
            ...(runNotes ? [runNotes, ''] : []),
            ...run.verdicts.map((v) => markdownReport(v.result).replace(/^## FORGE conformance:/, `## PR #${v.subject}:`)),
          ].join('\n');
  return {
    outputs: checkOutputs(all),
    summary,
    failure: failing && failOnViolation ? `FORGE conformance failed: ${all.problems.join('; ')}` : null,
    notices: [
      ...run.notes,
      ...notices,
      ...(awaiting
        ? [
            `pending: ${[...new Set(run.verdicts.flatMap((v) => (v.result.awaiting ? [v.result.awaiting] : [])))].join(', ')} runs next, and the pipeline's agent runs it`,
          ]
        : []),
    ],
    warnings: [...run.warnings, ...all.notes.filter((n) => !notices.has(n)), ...(failing && !failOnViolation ? all.problems : [])],
  };
}
