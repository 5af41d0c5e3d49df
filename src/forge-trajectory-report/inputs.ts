/** forge-trajectory-report's inputs: one schema (the common inputs plus its own), checked before any API call. */
import type { TrustPolicy } from '../common/trust.js';
import { UsageError } from '../common/errors.js';
import type { EventInfo } from '../common/event.js';
import { bool, COMMON_INPUTS, oneOf, optional, readInputs, resolveCommon, type Getter } from '../common/inputs.js';
import { workspacePath } from '../common/paths.js';
import type { MilestoneRef } from '../github/reads.js';
import type { MilestoneId, ReleaseSettings, ReportInputs, ReportScope } from './logic.js';

export interface ReportStepInputs extends ReportInputs {
  token: string;
  /** trusted-authors as given; null when empty (the pipeline file decides, then the built-in default). */
  trustInput: TrustPolicy | null;
  /** The notes file, resolved inside the workspace; null when not asked for. */
  outputFile: string | null;
  failIfMissing: boolean;
  /** release: draft — keep the milestone's draft release; null for release: none. */
  release: (ReleaseSettings & { milestone: MilestoneId | MilestoneRef }) | null;
}

type MilestonePayload = { number?: unknown; title?: unknown } | null | undefined;

/** A milestone the event already names (an issue's close, a milestone event): no request needed. */
function milestoneOf(m: MilestonePayload): MilestoneId | null {
  return m && typeof m.number === 'number' && typeof m.title === 'string' ? { number: m.number, title: m.title } : null;
}

export const SCHEMA = {
  ...COMMON_INPUTS,
  scope: { input: 'scope', parse: oneOf(['issue', 'milestone'] as const, 'issue') },
  milestone: { input: 'milestone', parse: optional() },
  outputFile: { input: 'output-file', parse: optional() },
  failIfMissing: { input: 'fail-if-missing', parse: bool(false) },
  release: { input: 'release', parse: oneOf(['none', 'draft'] as const, 'none') },
  releaseName: { input: 'release-name', parse: optional() },
  releaseTag: { input: 'release-tag', parse: optional() },
};

/** A tag git would take: no blanks, no `~^:?*[\`, no `..`, not starting or ending with `/` or `.`. */
function checkTag(tag: string | null): string | null {
  if (tag !== null && (/[\s~^:?*[\\]|\.\.|^[/.]|[/.]$|@\{/.test(tag) || tag.length > 200))
    throw new UsageError(`release-tag ${JSON.stringify(tag)} is not a tag name git accepts`);
  return tag;
}

export function readReportInputs(get: Getter, event: EventInfo): ReportStepInputs {
  const raw = readInputs(SCHEMA, get);
  const common = resolveCommon(raw, event);
  const issue = common.issueNumber ?? common.subject.issue ?? common.subject.pull;
  const payload = event.payload as { issue?: { number?: unknown; milestone?: MilestonePayload }; milestone?: MilestonePayload };
  // The event's own milestone saves a request (a milestone event, an issue's close); issue-number naming another
  // issue reads that issue's.
  const fromEvent =
    milestoneOf(payload.milestone) ??
    (common.issueNumber === null || common.issueNumber === payload.issue?.number ? milestoneOf(payload.issue?.milestone) : null);
  let scope: ReportScope;
  // release: draft on a milestone event (no issue in it) keeps that milestone's draft: no scope expression needed.
  const wanted =
    raw.scope === 'issue' && issue === null && raw.release === 'draft' && milestoneOf(payload.milestone) !== null ? 'milestone' : raw.scope;
  if (wanted === 'issue') {
    if (issue === null) throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue`);
    scope = { kind: 'issue', issue };
  } else {
    const milestone: MilestoneRef | null =
      raw.milestone !== null
        ? { name: raw.milestone }
        : fromEvent !== null
          ? { name: String(fromEvent.number) }
          : issue !== null
            ? { ofIssueNumber: issue }
            : null;
    if (milestone === null) throw new UsageError('scope: milestone needs the "milestone" input, or an issue whose milestone to use');
    scope = { kind: 'milestone', milestone };
  }
  if (raw.release === 'none' && (raw.releaseName !== null || raw.releaseTag !== null))
    throw new UsageError('release-name and release-tag apply to release: draft');
  const releaseMilestone: MilestoneId | MilestoneRef =
    scope.kind === 'milestone'
      ? raw.milestone === null && fromEvent
        ? fromEvent
        : scope.milestone
      : (fromEvent ?? { ofIssueNumber: scope.issue });
  const release = raw.release === 'draft' ? { tag: checkTag(raw.releaseTag), name: raw.releaseName, milestone: releaseMilestone } : null;
  return {
    token: common.token,
    repo: common.repo,
    scope,
    release,
    trust: common.trust,
    trustInput: common.trustInput,
    // Checked before any API call; the resolved path is what gets written.
    outputFile: raw.outputFile === null ? null : workspacePath('output-file', raw.outputFile, event.workspace),
    failIfMissing: raw.failIfMissing,
  };
}
