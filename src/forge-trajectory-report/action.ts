/** forge-trajectory-report — the §9.2 consumer: release notes from FORGE:TRAJECTORY on issue close. */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { readReportInputs, type ReportStepInputs } from './inputs.js';
import { runReport, type ReportOutcome } from './logic.js';
import { writeEntry, writeWhole } from './notes-file.js';
import { outcomeMarkdown, reportOutputs, reportSummary } from './render.js';

/** What to tell the user: a missing trajectory (a failure under fail-if-missing) and gaps in one. */
function verdict(inputs: ReportStepInputs, outcome: ReportOutcome): { failure: string | null; notices: string[]; warnings: string[] } {
  const without = outcome.reports.filter((r) => !r.found).map((r) => `#${r.issue.number}`);
  if (inputs.scope.kind === 'milestone')
    return {
      failure: inputs.failIfMissing && without.length > 0 ? `No FORGE:TRAJECTORY on ${without.join(', ')} (fail-if-missing is set)` : null,
      notices: [],
      warnings: [],
    };
  const r = outcome.reports[0];
  if (!r.found) {
    if (inputs.failIfMissing)
      return { failure: `No FORGE:TRAJECTORY annotation found on #${r.issue.number} (fail-if-missing is set)`, notices: [], warnings: [] };
    return { failure: null, notices: ['No FORGE:TRAJECTORY annotation found — skipping'], warnings: [] };
  }
  const warnings =
    r.missing.length > 0 ? [`The FORGE:TRAJECTORY on #${r.issue.number} has no ${r.missing.join(' and no ')}; reported as it is`] : [];
  return { failure: null, notices: [], warnings };
}

export const forgeTrajectoryReport: ActionDefinition<ReportStepInputs> = {
  name: 'forge-trajectory-report',
  secrets: ['github-token'],
  readInputs: readReportInputs,
  async execute(inputs, _event, log) {
    const outcome = await runReport(createClient(inputs.token, { log }), inputs);
    const markdown = outcomeMarkdown(outcome);
    if (inputs.outputFile && outcome.milestoneTitle !== null)
      log(`${writeWhole(inputs.outputFile, markdown)} the release notes in ${inputs.outputFile}`);
    else if (inputs.outputFile && outcome.found)
      log(`${writeEntry(inputs.outputFile, outcome.reports[0].issue.number, markdown)} the release notes in ${inputs.outputFile}`);
    return { outputs: reportOutputs(outcome, markdown), summary: reportSummary(outcome, markdown), ...verdict(inputs, outcome) };
  },
};
