/** gist-visibility-audit — enforces the spec's rule that every FORGE gist is secret (§4.2). */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { collectReferences } from './collect.js';
import { readAuditInputs, type AuditStepInputs } from './inputs.js';
import { runAudit, type AuditResult } from './logic.js';
import { auditOutputs, auditSummary } from './render.js';

/** Why the step fails, if it does: a write that failed, an audit that could not finish, or public gists. */
function failureOf(inputs: AuditStepInputs, result: AuditResult): string | null {
  if (result.writeFailure) return `gist audit: ${result.writeFailure}`;
  if (result.unfinished) return `gist audit unfinished after ${result.checked} gist(s): ${result.unfinished}`;
  if (result.publicRemaining === 0 || !inputs.failOnPublic) return null;
  const ids = [...new Set(result.findings.filter((f) => f.severity === 'CRITICAL' && !f.remediated).map((f) => f.id))];
  return `${result.publicRemaining} public FORGE gist(s): ${ids.join(', ')} — FORGE gists must be secret (spec §4.2)`;
}

export const gistVisibilityAudit: ActionDefinition<AuditStepInputs> = {
  name: 'gist-visibility-audit',
  secrets: ['github-token', 'gist-token'],
  readInputs: readAuditInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    const anonymous = inputs.gistToken === null;
    const gists = createClient(inputs.gistToken ?? '', { log, anonymous });
    const notices = anonymous
      ? ['No gist-token: reading gists anonymously (60 requests an hour). The workflow GITHUB_TOKEN cannot read gists.']
      : [];
    const collected = await collectReferences(gh, {
      repo: inputs.repo,
      scope: inputs.scope,
      trust: inputs.trust,
      gistClient: anonymous ? null : gists,
    });
    const result = await runAudit({ gh, gists, repo: inputs.repo, log }, collected.refs, {
      remediate: inputs.remediate,
      dryRun: inputs.dryRun,
      label: inputs.label,
      anonymous,
      ownGists: collected.ownGists ?? null,
    });
    for (const step of result.steps) log(`${inputs.dryRun ? '[dry-run] ' : ''}${step}`);
    return {
      outputs: auditOutputs(result),
      summary: auditSummary(inputs, collected, result),
      failure: failureOf(inputs, result),
      notices: [...notices, ...collected.notes],
      warnings: result.findings.filter((f) => f.severity === 'WARNING').map((f) => `${f.url}: ${f.detail} (${f.source})`),
    };
  },
};
