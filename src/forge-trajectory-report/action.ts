/** forge-trajectory-report — the §9.2 consumer: release notes from FORGE:TRAJECTORY on issue close. */
import { eventTarget } from '../common/event.js';
import { bool, oneOf, optional, positiveInt, readInputs, required, type Getter } from '../common/inputs.js';
import { UsageError } from '../common/errors.js';
import { workspacePath } from '../common/paths.js';
import type { ActionDefinition, EventInfo } from '../common/runner.js';
import { parseTrustPolicy } from '../common/trust.js';
import { createClient } from '../github/client.js';
import { parseRepository } from '../github/repo.js';
import { runReport, type ReportInputs } from './logic.js';

type Inputs = ReportInputs & { token: string };

const schema = {
  token: { input: 'github-token', parse: required() },
  repository: { input: 'repository', parse: optional() },
  issueNumber: { input: 'issue-number', parse: positiveInt() },
  scope: { input: 'scope', parse: oneOf(['issue', 'milestone'] as const, 'issue') },
  milestone: { input: 'milestone', parse: optional() },
  trusted: { input: 'trusted-authors', parse: optional() },
  outputFile: { input: 'output-file', parse: optional() },
  failIfMissing: { input: 'fail-if-missing', parse: bool(false) },
};

function readReportInputs(get: Getter, event: EventInfo): Inputs {
  const raw = readInputs(schema, get);
  const target = eventTarget(event);
  const issue = raw.issueNumber ?? target.issue ?? target.pull;
  if (raw.scope === 'issue' && issue === null) throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue`);
  if (raw.scope === 'milestone' && raw.milestone === null && issue === null)
    throw new UsageError('scope: milestone needs the "milestone" input, or an issue whose milestone to use');
  return {
    token: raw.token,
    repo: parseRepository(raw.repository ?? event.repository),
    scope: raw.scope,
    issue,
    milestone: raw.milestone,
    trust: parseTrustPolicy(raw.trusted ?? undefined),
    // Checked before any API call; the resolved path is what gets written.
    outputFile: raw.outputFile === null ? null : workspacePath('output-file', raw.outputFile, event.workspace),
    failIfMissing: raw.failIfMissing,
  };
}

export const forgeTrajectoryReport: ActionDefinition<Inputs> = {
  name: 'forge-trajectory-report',
  secrets: ['github-token'],
  readInputs: readReportInputs,
  async execute(inputs, event, log) {
    const gh = createClient(inputs.token, { log });
    const outcome = await runReport(gh, inputs, (p) => p);
    const notices: string[] = [];
    const warnings: string[] = [];
    let failure: string | null = null;
    if (inputs.scope === 'issue') {
      const r = outcome.reports[0];
      if (!r.found) {
        if (inputs.failIfMissing) failure = `No FORGE:TRAJECTORY annotation found on #${r.issue.number} (fail-if-missing is set)`;
        else notices.push('No FORGE:TRAJECTORY annotation found — skipping');
      } else if (r.missing.length > 0) {
        warnings.push(`The FORGE:TRAJECTORY on #${r.issue.number} has no ${r.missing.join(' and no ')}; reported as it is`);
      }
    } else if (inputs.failIfMissing) {
      const without = outcome.reports.filter((r) => !r.found).map((r) => `#${r.issue.number}`);
      if (without.length > 0) failure = `No FORGE:TRAJECTORY on ${without.join(', ')} (fail-if-missing is set)`;
    }
    if (outcome.outputFile) log(`${outcome.outputFile.action} the release notes in ${outcome.outputFile.path}`);
    const summary = outcome.found
      ? outcome.markdown
      : `## FORGE trajectory report — ${outcome.scopeTitle}\n\nNo FORGE:TRAJECTORY annotation found — skipping.\n`;
    return {
      outputs: {
        found: outcome.found,
        trajectory: JSON.stringify(inputs.scope === 'issue' ? outcome.reports[0] : outcome.reports),
        markdown: outcome.markdown,
        issues: outcome.reports.length,
      },
      summary,
      failure,
      notices,
      warnings,
    };
  },
};
