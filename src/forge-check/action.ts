/**
 * forge-check — the conformance gate (spec §7). Wiring only: inputs, the
 * client, the logic of the scope asked for, its render, and the files and
 * comment the inputs ask for.
 */
import { writeWorkspaceFile } from '../common/paths.js';
import { VERSION } from '../common/version.js';
import type { ActionDefinition, ActionResult } from '../common/runner.js';
import { createClient, type GitHub } from '../github/client.js';
import { tokenLogin } from '../github/reads.js';
import { needsPipeline, readCheckInputs, settle, type CheckInputs, type ItemInputs, type RepositoryInputs } from './inputs.js';
import { readPipelineFile } from '../github/pipeline-read.js';
import { pipelineLine } from '../common/pipeline.js';
import { runCheck } from './logic/run.js';
import { statusOf } from './logic/status.js';
import { itemResult } from './render.js';
import { readCheckpoint, writeCheckpoint } from './repository/checkpoint.js';
import { checkSettings, runRepositoryCheck } from './repository/logic.js';
import { repositoryResult } from './repository/render.js';
import { statusCommentBody } from './status-comment/body.js';
import { keepStatusComment } from './status-comment/sticky.js';

/** The rules a checkpoint's statuses were decided by: a new version reads every issue again. */
const RULES = `forge-check ${VERSION}`;

/** The same on every run, so an unchanged verdict leaves the comment untouched. */
const STATUS_FOOTER = 'Kept up to date by forge-check.';

function writeReport(path: string | null, result: ActionResult): void {
  if (path !== null) writeWorkspaceFile(path, `${String(result.outputs.report)}\n`);
}

async function checkRepository(gh: GitHub, given: RepositoryInputs, log: (s: string) => void): Promise<ActionResult> {
  const inputs = needsPipeline(given) ? settle(given, await readPipelineFile(gh, given.repo)) : given;
  const check = {
    repo: inputs.repo,
    gate: inputs.gate,
    filter: inputs.filter,
    incremental: inputs.checkpoint !== null,
    titles: inputs.titles,
  };
  const settings = await checkSettings(gh, check);
  const policy = { rules: RULES, fullEveryMs: inputs.fullEveryMs, now: Date.now() };
  const previous = inputs.checkpoint !== null ? readCheckpoint(inputs.checkpoint, settings, policy) : null;
  const { report, rechecked, notes, info, checkpoint } = await runRepositoryCheck(gh, check, settings, previous, RULES, log);
  // Said once the repository was read: one the token cannot read answers the file's read with a 404 too.
  if (needsPipeline(given)) log(pipelineLine(inputs.pipelineSource));
  const result = repositoryResult(report, rechecked, notes, inputs.failOnViolation, info);
  if (inputs.checkpoint !== null && checkpoint !== null) writeCheckpoint(inputs.checkpoint, checkpoint);
  writeReport(inputs.reportFile, result);
  return result;
}

async function checkItem(gh: GitHub, given: ItemInputs, log: (s: string) => void): Promise<ActionResult> {
  const run = await runCheck(gh, given);
  const inputs = run.settled;
  if (needsPipeline(given)) log(pipelineLine(inputs.pipelineSource));
  if (run.read.requests > 0)
    log(`read GitHub in ${run.read.requests} GraphQL request(s), ${run.read.points} point(s) (GitHub's rateLimit cost)`);
  const result = itemResult(run, inputs.failOnViolation);
  writeReport(inputs.reportFile, result);
  // A merge group's PRs keep their comments: the queue's verdict is the group commit's status.
  if (inputs.comment && run.verdicts.length > 0 && run.group === null) {
    // The token's login as the snapshot read it (GraphQL's viewer answers an App installation token too).
    const own = { gate: inputs.gateName, trust: inputs.gate.trust, identity: run.viewer !== undefined ? run.viewer : await tokenLogin(gh) };
    for (const v of run.verdicts) {
      const body = statusCommentBody(v.result, STATUS_FOOTER, {
        pull: v.pull?.number ?? null,
        runUrl: inputs.runUrl,
        gate: inputs.gateName,
      });
      const sticky = await keepStatusComment(gh, inputs.repo, v.subject, body, own, v.pull !== null, v.comments);
      for (const step of sticky.steps) log(step);
      if (sticky.warning) result.warnings.push(sticky.warning);
      result.outputs['comment-url'] = sticky.url ?? '';
    }
  }
  // Every verdict of the run in the log, each PR by number — a re-gate of an issue's PRs names each one it judged.
  const STATUS_WORDS: Record<string, string> = {
    created: 'status written',
    unchanged: 'status already says so',
    superseded: "a newer run's status left standing",
    'not-written': 'status not written',
  };
  for (const v of run.verdicts) {
    const said = statusOf(v.result, null);
    const what = v.pull ? `PR #${v.subject}` : `#${v.subject}`;
    log(`${what}: ${said.state} — ${said.description}${v.status ? ` (${STATUS_WORDS[v.status.result] ?? v.status.result})` : ''}`);
  }
  if (run.group?.status?.result === 'created')
    log(`wrote the status on merge group ${run.group.sha.slice(0, 12)}: ${run.group.conforming ? 'success' : 'failure'}`);
  return result;
}

export const forgeCheck: ActionDefinition<CheckInputs> = {
  name: 'forge-check',
  secrets: ['github-token'],
  readInputs: readCheckInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    const result = inputs.scope === 'repository' ? await checkRepository(gh, inputs, log) : await checkItem(gh, inputs, log);
    return { ...result, warnings: [...inputs.inputWarnings, ...(result.warnings ?? [])] };
  },
};
