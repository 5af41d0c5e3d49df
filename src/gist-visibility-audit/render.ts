/**
 * The gist audit's outputs, job summary and policy: a failed write, an
 * unfinished audit, or (under fail-on-public) a public gist fails the step;
 * dangling and non-gist references are warnings.
 */
import { inert, linkTarget, tableCell } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import type { Collected } from './logic/collect.js';
import type { AuditStepInputs } from './inputs.js';
import type { AuditResult } from './logic/audit.js';
import { DELETE_FAILED } from './logic/remediate.js';

/** The step's outputs, as action.yml declares them. */
export const OUTPUTS = ['checked', 'public', 'missing', 'findings'] as const;

function auditOutputs(result: AuditResult): Record<(typeof OUTPUTS)[number], ActionResult['outputs'][string]> {
  return { checked: result.checked, public: result.publicCount, missing: result.missingCount, findings: JSON.stringify(result.findings) };
}

const MAX_FINDING_ROWS = 200;

/** The gist column: URLs come from anyone's comment, so the link target is the parsed URL and any text is inert. */
function gistCell(f: AuditResult['findings'][number]): string {
  if (f.id === null) return inert(f.url);
  try {
    return `[${f.id}](${linkTarget(new URL(f.url).href)})`;
  } catch {
    return inert(f.url);
  }
}

function auditSummary(inputs: AuditStepInputs, collected: Collected, result: AuditResult): string {
  const verdict = result.unfinished
    ? '⚠️ unfinished'
    : result.publicRemaining > 0
      ? `❌ ${result.publicRemaining} public gist(s)`
      : result.publicCount > 0
        ? '✅ all public gists remediated'
        : '✅ no public gists';
  const out = [`## FORGE gist visibility audit — ${verdict}`, ''];
  out.push(
    `Scope: ${inputs.scope.kind} (${collected.searched.join('; ')}). Gists checked: ${result.checked}; public: ${result.publicCount}; missing: ${result.missingCount}${result.notChecked > 0 ? `; not checked (on another GitHub host): ${result.notChecked}` : ''}.`,
    '',
  );
  if (result.notChecked > 0)
    out.push(
      `> ${result.notChecked} gist(s) live on another GitHub host than the one this run's API answers for: whether they are secret is not checked — see each finding.`,
      '',
    );
  if (result.unfinished) out.push(`> The audit could not finish: ${result.unfinished}. Only the gists listed were checked.`, '');
  if (result.writeFailure) out.push(`> A write failed: ${tableCell(result.writeFailure)}`, '');
  for (const n of collected.notes) out.push(`> ${n}`, '');
  if (result.findings.length > 0) {
    out.push('| Severity | Gist | Type | Source | Trusted | Remediated | Detail |', '|---|---|---|---|---|---|---|');
    // Strangers can post links by the thousand: the table is capped, the outputs hold every finding.
    for (const f of result.findings.slice(0, MAX_FINDING_ROWS))
      out.push(
        `| ${f.severity} | ${gistCell(f)} | \`${f.type}\` | ${inert(f.source)} | ${f.trusted ? 'yes' : 'no'} | ${f.remediated ? 'yes' : 'no'} | ${inert(f.detail)} |`,
      );
    if (result.findings.length > MAX_FINDING_ROWS)
      out.push('', `… and ${result.findings.length - MAX_FINDING_ROWS} more findings (all of them are in the \`findings\` output).`);
    out.push('');
  }
  if (result.steps.length > 0)
    out.push(`${inputs.dryRun ? 'Plan (dry run, nothing written)' : 'Steps'}:`, '', ...result.steps.map((a) => `- ${inert(a)}`), '');
  return out.join('\n');
}

/** Why the step fails, if it does: a write that failed, an audit that could not finish, or public gists. */
function failureOf(inputs: AuditStepInputs, result: AuditResult): string | null {
  if (result.writeFailure) return `gist audit: ${result.writeFailure}`;
  if (result.unfinished) return `gist audit unfinished after ${result.checked} gist(s): ${result.unfinished}`;
  if (result.publicRemaining === 0 || !inputs.failOnPublic) return null;
  const open = result.findings.filter((f) => f.severity === 'CRITICAL' && !f.remediated);
  const ids = [...new Set(open.map((f) => f.id))];
  // A migration that stopped at the last step left a secret copy and the public gist both: the error line says so.
  const undeleted = [...new Map(open.filter((f) => f.detail.includes(DELETE_FAILED)).map((f) => [f.id, f])).values()].map(
    (f) => `deleting public gist ${f.id} failed — it is still public (${f.detail.slice(f.detail.indexOf(DELETE_FAILED)).slice(0, 400)})`,
  );
  return `${result.publicRemaining} public FORGE gist(s): ${ids.join(', ')} — FORGE gists must be secret (spec §4.2)${undeleted.length ? `; ${undeleted.join('; ')}` : ''}`;
}

/** Reading gists without a gist-token: what the user should know. */
const ANONYMOUS_NOTICE = 'No gist-token: reading gists anonymously (60 requests an hour). The workflow GITHUB_TOKEN cannot read gists.';

export function auditResult(inputs: AuditStepInputs, collected: Collected, result: AuditResult): ActionResult {
  return {
    outputs: auditOutputs(result),
    summary: auditSummary(inputs, collected, result),
    failure: failureOf(inputs, result),
    notices: [...(inputs.gistToken === null ? [ANONYMOUS_NOTICE] : []), ...collected.notes],
    warnings: result.findings.filter((f) => f.severity === 'WARNING').map((f) => `${f.url}: ${f.detail} (${f.source})`),
  };
}
