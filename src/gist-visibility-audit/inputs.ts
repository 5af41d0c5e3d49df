/** The gist audit's inputs: one schema (the common inputs plus its own), checked before any API call. */
import { quote } from '../codec/index.js';
import { UsageError } from '../common/errors.js';
import type { EventInfo } from '../common/event.js';
import { bool, COMMON_INPUTS, optional, optionalOneOf, readInputs, resolveCommon, type Getter } from '../common/inputs.js';
import type { TrustPolicy } from '../common/trust.js';
import type { MilestoneRef } from '../github/reads.js';
import type { Repo } from '../common/repo.js';
import type { AuditScope } from './logic/collect.js';

export interface AuditStepInputs {
  token: string;
  gistToken: string | null;
  repo: Repo;
  scope: AuditScope;
  trust: TrustPolicy;
  /** trusted-authors as given; null when empty (the pipeline file decides, then the built-in default). */
  trustInput: TrustPolicy | null;
  failOnPublic: boolean;
  label: string | null;
  remediate: boolean;
  dryRun: boolean;
}

export const SCHEMA = {
  ...COMMON_INPUTS,
  gistToken: { input: 'gist-token', parse: optional() },
  scope: { input: 'scope', parse: optionalOneOf(['issue', 'milestone', 'repository'] as const) },
  milestone: { input: 'milestone', parse: optional() },
  failOnPublic: { input: 'fail-on-public', parse: bool(true) },
  label: { input: 'label-on-violation', parse: optional() },
  remediate: { input: 'remediate', parse: bool(false) },
  dryRun: { input: 'dry-run', parse: bool(false) },
};

export function readAuditInputs(get: Getter, event: EventInfo): AuditStepInputs {
  const raw = readInputs(SCHEMA, get);
  const common = resolveCommon(raw, event);
  const issue = common.issueNumber ?? common.subject.issue ?? common.subject.pull;
  // Default: the issue on issue events, the whole repository otherwise (a nightly schedule).
  const kind = raw.scope ?? (issue !== null ? 'issue' : 'repository');
  let scope: AuditScope;
  if (kind === 'issue') {
    if (issue === null) throw new UsageError(`scope: issue needs issue-number (the "${event.name}" event carries no issue)`);
    scope = { kind, issue };
  } else if (kind === 'milestone') {
    const milestone: MilestoneRef | null =
      raw.milestone !== null ? { name: raw.milestone } : issue !== null ? { ofIssueNumber: issue } : null;
    if (milestone === null) throw new UsageError('scope: milestone needs the "milestone" input or an issue-number');
    scope = { kind, milestone };
  } else {
    scope = { kind };
  }
  if (raw.remediate && raw.gistToken === null) throw new UsageError('remediate: true needs gist-token (a user token with the gist scope)');
  if (raw.label !== null && !/^[^,\n]{1,50}$/.test(raw.label))
    throw new UsageError(`label-on-violation: ${quote(raw.label)} is not a label name`);
  return {
    token: common.token,
    gistToken: raw.gistToken,
    repo: common.repo,
    scope,
    trust: common.trust,
    trustInput: common.trustInput,
    failOnPublic: raw.failOnPublic,
    label: raw.label,
    remediate: raw.remediate,
    dryRun: raw.dryRun,
  };
}
