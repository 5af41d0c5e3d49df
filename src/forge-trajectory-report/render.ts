/**
 * forge-trajectory-report's Markdown (one issue's release-note entry, milestone
 * notes), outputs and summary, and the policy: a missing trajectory fails the
 * step only under fail-if-missing; gaps in one are warnings.
 */
import { codeSpan } from '../codec/index.js';
import { inert, linkTarget, tableCell } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import type { ReportStepInputs } from './inputs.js';
import type { DraftOutcome, ReportOutcome, TrajectoryReport } from './logic.js';
import { entryBegin, entryEnd, groupOf, GROUP_ORDER, GROUP_TITLES } from './notes-format.js';

/** A list item `- ` / `* ` / `+ ` at the start of a line. */
const LIST_ITEM = /^\s*[-*+]\s+/;

/**
 * A labelled value as a list entry: on one line, or — when the value is itself
 * a bulleted list (`- guard in validator`) — as a nested list, one item a line.
 */
function labelled(label: string, value: string): string[] {
  const lines = value.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');
  if (lines.length > 0 && lines.every((l) => LIST_ITEM.test(l)))
    return [`- **${label}**:`, ...lines.map((l) => `  - ${inert(l.replace(LIST_ITEM, ''))}`)];
  return [`- **${label}**: ${inert(value)}`];
}

/** The release-note entry for one issue, wrapped in markers so a notes file can be updated in place. */
export function issueMarkdown(r: TrajectoryReport): string {
  const out = [entryBegin(r.issue.number), `### [#${r.issue.number}](${linkTarget(r.issue.url)}) ${inert(r.issue.title)}`, ''];
  const facts: string[] = [];
  if (r.investigator?.taskType) facts.push(`**Type**: ${inert(r.investigator.taskType)}`);
  if (r.investigator?.severity) facts.push(`**Severity**: ${inert(r.investigator.severity)}`);
  if (r.investigator?.verdict) facts.push(`**Verdict**: ${inert(r.investigator.verdict)}`);
  if (r.prNumber !== null) facts.push(`**PR**: [#${r.prNumber}](${linkTarget(r.prUrl ?? '')})`);
  if (r.branch) facts.push(`**Branch**: ${codeSpan(tableCell(r.branch))}`);
  if (r.completed) facts.push(`**Completed**: ${inert(r.completed)}`);
  if (facts.length) out.push(facts.join(' · '), '');
  if (r.decisions) out.push(...labelled('Decisions', r.decisions));
  if (r.anomalies) out.push(...labelled('Anomalies', r.anomalies));
  if (r.builder?.commits) out.push(`- **Commits**: ${inert(r.builder.commits)}`);
  if (r.decisions || r.anomalies || r.builder?.commits) out.push('');
  if (r.phases.length) {
    out.push('| Phase | Result | Notes |', '|---|---|---|');
    for (const p of r.phases) out.push(`| ${inert(p.phase)} | ${inert(p.result)} | ${inert(p.notes)} |`);
    out.push('');
  }
  if (r.missing.length) out.push(`> ⚠️ The trajectory has no ${r.missing.join(' and no ')}.`, '');
  out.push(entryEnd(r.issue.number));
  return out.join('\n');
}

/** Milestone notes: every closed issue, grouped by task type, each line linking the issue and its PR. */
export function milestoneMarkdown(title: string, reports: TrajectoryReport[]): string {
  const groups = new Map<string, TrajectoryReport[]>();
  for (const r of reports) {
    const type = groupOf(r);
    groups.set(type, [...(groups.get(type) ?? []), r]);
  }
  const out = [`## Release notes — ${inert(title)}`, '', `${reports.length} closed issue(s).`, ''];
  for (const g of GROUP_ORDER) {
    const list = groups.get(g);
    if (!list) continue;
    out.push(`### ${GROUP_TITLES[g]}`, '');
    for (const r of list.sort((a, b) => a.issue.number - b.issue.number)) {
      const pr = r.prNumber !== null ? ` — [PR #${r.prNumber}](${linkTarget(r.prUrl ?? '')})` : '';
      const note = r.found ? (r.missing.length ? ` (trajectory has no ${r.missing.join(', ')})` : '') : ' (no trajectory)';
      out.push(`- [#${r.issue.number}](${linkTarget(r.issue.url)}) ${inert(r.issue.title)}${pr}${note}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The notes for a run: the issue's entry, or the milestone's notes. */
export function outcomeMarkdown(outcome: ReportOutcome): string {
  if (outcome.milestoneTitle !== null) return milestoneMarkdown(outcome.milestoneTitle, outcome.reports);
  return outcome.found ? issueMarkdown(outcome.reports[0]) : '';
}

/** The step's outputs, as action.yml declares them. */
export const OUTPUTS = ['found', 'trajectory', 'markdown', 'issues', 'release-url'] as const;

function reportOutputs(outcome: ReportOutcome, markdown: string): Record<(typeof OUTPUTS)[number], ActionResult['outputs'][string]> {
  return {
    found: outcome.found,
    trajectory: JSON.stringify(outcome.milestoneTitle === null ? outcome.reports[0] : outcome.reports),
    markdown,
    issues: outcome.reports.length,
    'release-url': '',
  };
}

function reportSummary(outcome: ReportOutcome, markdown: string): string {
  if (outcome.found) return markdown;
  const passed = outcome.milestoneTitle === null ? outcome.reports[0]?.passedOver : null;
  return passed
    ? `## FORGE trajectory report — ${inert(outcome.scopeTitle)}\n\nNo trusted FORGE:TRAJECTORY: ${inert(passed)}.\n`
    : `## FORGE trajectory report — ${inert(outcome.scopeTitle)}\n\nNo FORGE:TRAJECTORY annotation found — skipping.\n`;
}

type Verdict = Pick<ActionResult, 'failure'> & { notices: string[]; warnings: string[] };

/** What to tell the user: a missing trajectory (a failure under fail-if-missing) and gaps in one. */
function verdict(inputs: ReportStepInputs, outcome: ReportOutcome): Verdict {
  const without = outcome.reports.filter((r) => !r.found).map((r) => `#${r.issue.number}`);
  if (inputs.scope.kind === 'milestone')
    return {
      failure: inputs.failIfMissing && without.length > 0 ? `No FORGE:TRAJECTORY on ${without.join(', ')} (fail-if-missing is set)` : null,
      notices: [],
      warnings: [],
    };
  const r = outcome.reports[0];
  if (!r.found && r.passedOver) {
    // One is there but does not count: say who wrote it and why, never "none found".
    if (inputs.failIfMissing)
      return { failure: `No trusted FORGE:TRAJECTORY on #${r.issue.number}: ${r.passedOver}`, notices: [], warnings: [] };
    return { failure: null, notices: [], warnings: [`No trusted FORGE:TRAJECTORY on #${r.issue.number}: ${r.passedOver}`] };
  }
  if (!r.found) {
    if (inputs.failIfMissing)
      return { failure: `No FORGE:TRAJECTORY annotation found on #${r.issue.number} (fail-if-missing is set)`, notices: [], warnings: [] };
    return { failure: null, notices: ['No FORGE:TRAJECTORY annotation found — skipping'], warnings: [] };
  }
  const warnings =
    r.missing.length > 0 ? [`The FORGE:TRAJECTORY on #${r.issue.number} has no ${r.missing.join(' and no ')}; reported as it is`] : [];
  return { failure: null, notices: [], warnings };
}

export function reportResult(inputs: ReportStepInputs, outcome: ReportOutcome, markdown: string): ActionResult {
  return { outputs: reportOutputs(outcome, markdown), summary: reportSummary(outcome, markdown), ...verdict(inputs, outcome) };
}

/** Draft-release mode: what was kept, what changed, and where the draft is. */
export function draftResult(inputs: ReportStepInputs, outcome: DraftOutcome | null): ActionResult {
  const empty = { found: false, trajectory: '[]', markdown: '', issues: 0, 'release-url': '' };
  if (outcome === null) {
    const what = inputs.scope.kind === 'issue' ? `#${inputs.scope.issue} has no milestone` : 'no milestone was found';
    return {
      outputs: empty,
      summary: `## FORGE release notes\n\n${what}: no draft release to keep.\n`,
      failure: null,
      notices: [`${what}: no draft release to keep`],
    };
  }
  const m = outcome.milestone;
  const url = outcome.release?.url ?? '';
  if (outcome.result === 'published')
    return {
      outputs: { ...empty, 'release-url': url },
      summary: `## FORGE release notes — ${inert(m.title)}\n\nThe release for this milestone is published: it is never edited, and no second draft is made.\n`,
      failure: null,
      notices: [`the release for milestone ${m.title} is published (${url}): left as it is`],
    };
  // What the draft now holds, whoever wrote it (this run or an earlier one): an entry with a trajectory is found.
  const body0 = outcome.release?.body ?? '';
  const entryLines = body0.split('\n').filter((l) => /^- \[#\d+\]/.test(l));
  const hasTrajectory = (l: string) => !l.includes('(no trajectory)');
  const found =
    inputs.scope.kind === 'issue'
      ? entryLines.some((l) => l.startsWith(`- [#${(inputs.scope as { issue: number }).issue}]`) && hasTrajectory(l))
      : entryLines.some(hasTrajectory);
  const words = [
    `${outcome.result} [the draft release](${linkTarget(url)}) for ${inert(m.title)}`,
    outcome.added.length ? `added ${outcome.added.map((n) => `#${n}`).join(', ')}` : '',
    outcome.removed.length ? `removed ${outcome.removed.map((n) => `#${n}`).join(', ')} (no longer closed as completed here)` : '',
  ].filter((w) => w !== '');
  const warnings = [
    ...(outcome.left.length
      ? [
          `${outcome.left.length} issue(s) do not fit GitHub's release body limit and are named in the draft instead: ${outcome.left.map((n) => `#${n}`).join(', ')}`,
        ]
      : []),
    ...outcome.kept.map(
      (k) =>
        `draft release ${k.id} also holds the notes of milestone ${m.title} (two closes raced): its entries are merged into this draft, but it holds ${k.assets > 0 ? `${k.assets} uploaded asset(s)` : 'text besides them'}, so it is left for you to delete`,
    ),
  ];
  for (const moved of outcome.movedOut)
    words.push(
      `removed ${moved.issues.map((n) => `#${n}`).join(', ')} from [the draft release](${linkTarget(moved.release)}) of the milestone ${moved.issues.length === 1 ? 'it was' : 'they were'} moved from`,
    );
  if (outcome.merged.length)
    words.push(
      `merged and deleted ${outcome.merged.length} extra draft(s) of the milestone that racing closes made (${outcome.merged.join(', ')})`,
    );
  const body = outcome.release?.body ?? '';
  return {
    outputs: {
      found,
      trajectory: JSON.stringify(outcome.reports),
      markdown: body,
      issues: (body.match(/<!-- forge-release-note:begin #/g) ?? []).length,
      'release-url': url,
    },
    summary: `## FORGE release notes — ${inert(m.title)}\n\n${words.join('; ')}.\n`,
    failure: null,
    notices: [],
    warnings,
  };
}
