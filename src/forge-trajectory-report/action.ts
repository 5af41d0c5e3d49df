/** forge-trajectory-report — the §9.2 consumer: release notes from FORGE:TRAJECTORY on issue close. Wiring only. */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { readReportInputs, type ReportStepInputs } from './inputs.js';
import { runReport } from './logic.js';
import { writeEntry, writeWhole } from './notes-file.js';
import { outcomeMarkdown, reportResult } from './render.js';

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
    return reportResult(inputs, outcome, markdown);
  },
};
