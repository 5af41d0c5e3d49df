/** forge-trajectory-report — the §9.2 consumer: release notes from FORGE:TRAJECTORY on issue close. Wiring only. */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { pipelineTrust } from '../github/pipeline-read.js';
import { pipelineLine, trustOfAnswer } from '../common/pipeline.js';
import { readReportInputs, type ReportStepInputs } from './inputs.js';
import { releaseMilestone, runReleaseDraft, runReport } from './logic.js';
import { writeEntry, writeWhole } from './notes-file.js';
import { draftResult, outcomeMarkdown, reportResult } from './render.js';

export const forgeTrajectoryReport: ActionDefinition<ReportStepInputs> = {
  name: 'forge-trajectory-report',
  secrets: ['github-token'],
  readInputs: readReportInputs,
  async execute(given, _event, log) {
    const gh = createClient(given.token, { log });
    // Whose trajectory is believed: the input, else the pipeline file's trusted-authors, else the default. An issue's
    // report reads the file in the thread's own request; a milestone's or a draft's reads it first (one request).
    const folded = !given.release && given.scope.kind === 'issue' && given.trustInput === null;
    const inputs = folded ? given : { ...given, trust: await pipelineTrust(gh, given.repo, given.trustInput, log) };
    if (inputs.release) {
      // Draft-release mode: no checkout, no commit, no file — the notes live in the milestone's draft release.
      const milestone = await releaseMilestone(gh, inputs.repo, inputs.release.milestone);
      const outcome = milestone === null ? null : await runReleaseDraft(gh, inputs, milestone, inputs.release);
      if (outcome?.release && outcome.result !== 'unchanged' && outcome.result !== 'published')
        log(`${outcome.result} the draft release ${outcome.release.url}`);
      return draftResult(inputs, outcome);
    }
    const outcome = await runReport(
      gh,
      inputs,
      folded
        ? (answer) => {
            log(pipelineLine(answer?.source ?? null));
            return trustOfAnswer(answer);
          }
        : undefined,
    );
    const markdown = outcomeMarkdown(outcome);
    if (inputs.outputFile && outcome.milestoneTitle !== null)
      log(`${writeWhole(inputs.outputFile, markdown)} the release notes in ${inputs.outputFile}`);
    else if (inputs.outputFile && outcome.found)
      log(`${writeEntry(inputs.outputFile, outcome.reports[0].issue.number, markdown)} the release notes in ${inputs.outputFile}`);
    return reportResult(inputs, outcome, markdown);
  },
};
