/**
 * Turning a trajectory (and the INVESTIGATOR and BUILDER around it) into a
 * release-note entry. Pure: no GitHub calls here.
 */
import { codeSpan, getField, matchEnum, stripCodeSpan, TASK_TYPES, type Annotation, type Trajectory } from '../codec/index.js';
import { inert, tableCell } from '../common/markdown.js';

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
  trajectory: { annotation: Annotation; url: string; author: string | null } | null,
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
    author: trajectory?.author ?? null,
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

export const entryBegin = (n: number) => `<!-- forge-release-note:begin #${n} -->`;
export const entryEnd = (n: number) => `<!-- forge-release-note:end #${n} -->`;

/** The release-note entry for one issue, wrapped in markers so a notes file can be updated in place. */
export function issueMarkdown(r: TrajectoryReport): string {
  const out = [entryBegin(r.issue.number), `### [#${r.issue.number}](${r.issue.url}) ${inert(r.issue.title)}`, ''];
  const facts: string[] = [];
  if (r.investigator?.taskType) facts.push(`**Type**: ${inert(r.investigator.taskType)}`);
  if (r.investigator?.severity) facts.push(`**Severity**: ${inert(r.investigator.severity)}`);
  if (r.investigator?.verdict) facts.push(`**Verdict**: ${inert(r.investigator.verdict)}`);
  if (r.prNumber !== null) facts.push(`**PR**: [#${r.prNumber}](${r.prUrl})`);
  if (r.branch) facts.push(`**Branch**: ${codeSpan(tableCell(r.branch))}`);
  if (r.completed) facts.push(`**Completed**: ${inert(r.completed)}`);
  if (facts.length) out.push(facts.join(' · '), '');
  if (r.decisions) out.push(`- **Decisions**: ${inert(r.decisions)}`);
  if (r.anomalies) out.push(`- **Anomalies**: ${inert(r.anomalies)}`);
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

/** Features first, then the spec's §4.1 order. */
const GROUPS = ['Feature', ...TASK_TYPES.filter((t) => t !== 'Feature')];
const GROUP_TITLES: Record<string, string> = {
  Feature: 'Features',
  'Bug Fix': 'Bug fixes',
  Refactor: 'Refactors',
  Maintenance: 'Maintenance',
  Investigation: 'Investigations',
  Other: 'Other',
};

/** Milestone notes: every closed issue, grouped by task type, each line linking the issue and its PR. */
export function milestoneMarkdown(title: string, reports: TrajectoryReport[]): string {
  const groups = new Map<string, TrajectoryReport[]>();
  for (const r of reports) {
    const type = r.investigator?.taskType ? matchEnum(r.investigator.taskType, GROUPS) ?? 'Other' : 'Other';
    groups.set(type, [...(groups.get(type) ?? []), r]);
  }
  const out = [`## Release notes — ${inert(title)}`, '', `${reports.length} closed issue(s).`, ''];
  for (const g of [...GROUPS, 'Other']) {
    const list = groups.get(g);
    if (!list) continue;
    out.push(`### ${GROUP_TITLES[g]}`, '');
    for (const r of list.sort((a, b) => a.issue.number - b.issue.number)) {
      const pr = r.prNumber !== null ? ` — [PR #${r.prNumber}](${r.prUrl})` : '';
      const note = r.found ? (r.missing.length ? ` (trajectory has no ${r.missing.join(', ')})` : '') : ' (no trajectory)';
      out.push(`- [#${r.issue.number}](${r.issue.url}) ${inert(r.issue.title)}${pr}${note}`);
    }
    out.push('');
  }
  return out.join('\n');
}
