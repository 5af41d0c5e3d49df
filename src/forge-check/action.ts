/** forge-check — the conformance gate (spec §7): inputs → logic → outputs and summary. */
import { writeWorkspaceFile } from '../common/paths.js';
import type { ActionDefinition, ActionResult } from '../common/runner.js';
import { createClient, type GitHub } from '../github/client.js';
import { readCheckInputs, type CheckInputs } from './inputs.js';
import { runCheck } from './logic.js';
import { runRepositoryCheck, type RepositoryInputs } from './repository.js';
import { markdownRepositoryReport } from './repository-render.js';
import { checkOutputs, markdownReport, repositoryOutputs } from './render.js';
import { statusCommentBody } from './status-comment.js';
import { keepStatusComment } from './sticky.js';

/** The same on every run, so an unchanged verdict leaves the comment untouched. */
const STATUS_FOOTER = 'Kept up to date by forge-check.';

function writeReport(path: string | null, json: string): void {
  if (path !== null) writeWorkspaceFile(path, `${json}\n`);
}

async function checkRepository(
  gh: GitHub,
  repository: RepositoryInputs,
  inputs: CheckInputs,
  log: (s: string) => void,
): Promise<ActionResult> {
  const { report, rechecked, notes } = await runRepositoryCheck(gh, repository, log);
  const outputs = repositoryOutputs(report, rechecked);
  writeReport(inputs.reportFile, String(outputs.report));
  const failing = report.issues.filter((e) => e.status === 'failing');
  const shown = failing
    .slice(0, 20)
    .map((e) => `#${e.number}`)
    .join(', ');
  const line =
    failing.length === 0
      ? null
      : `${failing.length} of ${report.issues.length} issues do not conform: ${shown}${failing.length > 20 ? `, and ${failing.length - 20} more` : ''} (see the job summary)`;
  return {
    outputs,
    summary: markdownRepositoryReport(report, rechecked, notes),
    failure: line && inputs.failOnViolation ? `FORGE conformance failed: ${line}` : null,
    warnings: [...notes, ...(line && !inputs.failOnViolation ? [line] : [])],
  };
}

export const forgeCheck: ActionDefinition<CheckInputs> = {
  name: 'forge-check',
  secrets: ['github-token'],
  readInputs: readCheckInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    // Set exactly when scope is repository.
    if (inputs.repository !== null) return checkRepository(gh, inputs.repository, inputs, log);
    const result = await runCheck(gh, inputs);
    const failing = !result.conforming;
    const outputs = checkOutputs(result);
    writeReport(inputs.reportFile, String(outputs.report));
    const warnings = [...result.notes, ...(failing && !inputs.failOnViolation ? result.problems : [])];
    const subject = inputs.pull ?? inputs.issue;
    if (inputs.comment && subject !== null) {
      const sticky = await keepStatusComment(gh, inputs.repo, subject, statusCommentBody(result, STATUS_FOOTER), inputs.trust);
      for (const step of sticky.steps) log(step);
      if (sticky.warning) warnings.push(sticky.warning);
      outputs['comment-url'] = sticky.url ?? '';
    }
    return {
      outputs,
      summary: markdownReport(result),
      failure: failing && inputs.failOnViolation ? `FORGE conformance failed: ${result.problems.join('; ')}` : null,
      warnings,
    };
  },
};
