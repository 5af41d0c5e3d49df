/** forge-trajectory-report's inputs: one schema (the common inputs plus its own), checked before any API call. */
import { UsageError } from '../common/errors.js';
import type { EventInfo } from '../common/event.js';
import { bool, COMMON_INPUTS, oneOf, optional, readInputs, resolveCommon, type Getter } from '../common/inputs.js';
import { workspacePath } from '../common/paths.js';
import type { MilestoneRef } from '../github/reads.js';
import type { ReportInputs, ReportScope } from './logic.js';

export interface ReportStepInputs extends ReportInputs {
  token: string;
  /** The notes file, resolved inside the workspace; null when not asked for. */
  outputFile: string | null;
  failIfMissing: boolean;
}

export const SCHEMA = {
  ...COMMON_INPUTS,
  scope: { input: 'scope', parse: oneOf(['issue', 'milestone'] as const, 'issue') },
  milestone: { input: 'milestone', parse: optional() },
  outputFile: { input: 'output-file', parse: optional() },
  failIfMissing: { input: 'fail-if-missing', parse: bool(false) },
};

export function readReportInputs(get: Getter, event: EventInfo): ReportStepInputs {
  const raw = readInputs(SCHEMA, get);
  const common = resolveCommon(raw, event);
  const issue = common.issueNumber ?? common.subject.issue ?? common.subject.pull;
  let scope: ReportScope;
  if (raw.scope === 'issue') {
    if (issue === null) throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue`);
    scope = { kind: 'issue', issue };
  } else {
    const milestone: MilestoneRef | null =
      raw.milestone !== null ? { name: raw.milestone } : issue !== null ? { ofIssueNumber: issue } : null;
    if (milestone === null) throw new UsageError('scope: milestone needs the "milestone" input, or an issue whose milestone to use');
    scope = { kind: 'milestone', milestone };
  }
  return {
    token: common.token,
    repo: common.repo,
    scope,
    trust: common.trust,
    // Checked before any API call; the resolved path is what gets written.
    outputFile: raw.outputFile === null ? null : workspacePath('output-file', raw.outputFile, event.workspace),
    failIfMissing: raw.failIfMissing,
  };
}
