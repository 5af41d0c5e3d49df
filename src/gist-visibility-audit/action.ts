/** gist-visibility-audit — enforces the spec's rule that every FORGE gist is secret (§4.2). Wiring only. */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { readAuditInputs, type AuditStepInputs } from './inputs.js';
import { runGistAudit } from './logic/audit.js';
import { auditResult } from './render.js';

export const gistVisibilityAudit: ActionDefinition<AuditStepInputs> = {
  name: 'gist-visibility-audit',
  secrets: ['github-token', 'gist-token'],
  readInputs: readAuditInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    const anonymous = inputs.gistToken === null;
    const gists = createClient(inputs.gistToken ?? '', { log, anonymous });
    const { collected, result } = await runGistAudit({ gh, gists, repo: inputs.repo, log }, inputs, anonymous);
    for (const step of result.steps) log(`${inputs.dryRun ? '[dry-run] ' : ''}${step}`);
    return auditResult(inputs, collected, result);
  },
};
