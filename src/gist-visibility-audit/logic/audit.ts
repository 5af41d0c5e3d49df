/**
 * The gist audit in order (spec §4.2): look up every referenced gist, report
 * public gists (CRITICAL) and dangling or non-gist references (WARNING), and —
 * when asked — migrate public gists to secret ones and label the issues.
 */
import type { AuditContext, AuditOptions } from './settings.js';
import { collectReferences, type AuditScope, type Collected, type Reference } from './collect.js';
import type { TrustPolicy } from '../../common/trust.js';
import type { PipelineAnswer } from '../../common/pipeline.js';
import { findingsFor, issuesToLabel, migrationPlan, notCheckedFindings, type GistFinding } from './findings.js';
import { onThisGitHub } from '../../common/gist-urls.js';
import { lookUp } from './lookup.js';
import { labelIssues, remediateAll } from './remediate.js';

export interface AuditResult {
  findings: GistFinding[];
  /** Distinct gists whose state was learned (public, secret or 404), index gists included. */
  checked: number;
  publicCount: number;
  missingCount: number;
  /** Distinct gists on another GitHub host: reported, not checked (this API cannot see them). */
  notChecked: number;
  /** Set when the audit could not finish: an unfinished audit is never a pass. */
  unfinished: string | null;
  /** Public gists still public at the end. */
  publicRemaining: number;
  steps: string[];
  /** A write that failed after others succeeded: what failed, and what had been done. */
  writeFailure: string | null;
}

export type { AuditContext, AuditOptions } from './settings.js';

export async function runAudit(ctx: AuditContext, refs: Reference[], opts: AuditOptions): Promise<AuditResult> {
  // A gist on another GitHub (a github.com gist seen from GHES or GHE.com) is not this API's to see: not "dangling",
  // not asked for — reported as not checked.
  const server = opts.serverUrl ?? 'https://github.com';
  const foreign = refs.filter((r) => r.id !== null && !onThisGitHub(r.url, server));
  const here = refs.filter((r) => !foreign.includes(r));
  const lookup = await lookUp(ctx.gists, here, { anonymous: opts.anonymous, own: opts.ownGists ?? null }, ctx.log);
  const findings = [...findingsFor(lookup.refs, lookup.states), ...notCheckedFindings(foreign, server)];
  const steps: string[] = [];
  const publicIds = [...lookup.states].filter(([, s]) => s.kind === 'found' && s.gist.public).map(([id]) => id);
  const canRemediate = opts.remediate && publicIds.length > 0 && lookup.unfinished === null;
  const { remediated, migrations } = canRemediate
    ? await remediateAll(ctx, migrationPlan(publicIds, lookup.refs), lookup.states, findings, opts, steps)
    : { remediated: new Set<string>(), migrations: [] };
  const stillPublic = new Set(publicIds.filter((id) => !remediated.has(id)));
  const writeFailure = opts.label
    ? await labelIssues(ctx, issuesToLabel(lookup.refs, stillPublic), opts.label, opts.dryRun, migrations, steps)
    : null;
  return {
    findings,
    checked: lookup.states.size,
    publicCount: publicIds.length,
    missingCount: [...lookup.states.values()].filter((s) => s.kind === 'missing').length,
    notChecked: new Set(foreign.map((r) => r.id)).size,
    unfinished: lookup.unfinished,
    publicRemaining: stillPublic.size,
    steps,
    writeFailure,
  };
}

/** What the step asks for: where to look, whose word counts, and what to do about public gists. */
export interface GistAuditInputs {
  scope: AuditScope;
  trust: TrustPolicy;
  /** Set when trust is left to the pipeline file (read with an issue's thread). */
  fromPipeline?: (answer: PipelineAnswer) => TrustPolicy;
  remediate: boolean;
  dryRun: boolean;
  label: string | null;
}

/** Collect the references (the memory index only with a gist-token), then audit them. */
export async function runGistAudit(
  ctx: AuditContext,
  inputs: GistAuditInputs,
  anonymous: boolean,
): Promise<{ collected: Collected; result: AuditResult }> {
  const collected = await collectReferences(ctx.gh, {
    repo: ctx.repo,
    scope: inputs.scope,
    trust: inputs.trust,
    fromPipeline: inputs.fromPipeline,
    gistClient: anonymous ? null : ctx.gists,
  });
  const result = await runAudit(ctx, collected.refs, {
    remediate: inputs.remediate,
    dryRun: inputs.dryRun,
    label: inputs.label,
    anonymous,
    ownGists: collected.ownGists ?? null,
    // The GitHub the run is on: the runner names it (GitHub Enterprise Server, GHE.com, github.com).
    serverUrl: process.env.GITHUB_SERVER_URL || 'https://github.com',
  });
  return { collected, result };
}
