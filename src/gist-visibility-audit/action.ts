/** gist-visibility-audit — enforces the spec's rule that every FORGE gist is secret (§4.2). Wiring only. */
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { pipelineTrust } from '../github/pipeline-read.js';
import { pipelineLine, trustOfAnswer, type PipelineAnswer } from '../common/pipeline.js';
import { readAuditInputs, type AuditStepInputs } from './inputs.js';
import { runGistAudit } from './logic/audit.js';
import { auditResult } from './render.js';

export const gistVisibilityAudit: ActionDefinition<AuditStepInputs> = {
  name: 'gist-visibility-audit',
  secrets: ['github-token', 'gist-token'],
  readInputs: readAuditInputs,
  async execute(given, _event, log) {
    const gh = createClient(given.token, { log });
    // Whose pointers are acted on: the input, else the pipeline file's trusted-authors, else the default. An issue's
    // audit reads the file in the thread's own request; a milestone's or the repository's reads it first.
    const folded = given.scope.kind === 'issue' && given.trustInput === null;
    const inputs = folded
      ? {
          ...given,
          fromPipeline: (answer: PipelineAnswer) => {
            log(pipelineLine(answer?.source ?? null));
            return trustOfAnswer(answer);
          },
        }
      : { ...given, trust: await pipelineTrust(gh, given.repo, given.trustInput, log) };
    const anonymous = inputs.gistToken === null;
    const gists = createClient(inputs.gistToken ?? '', { log, anonymous });
    const { collected, result } = await runGistAudit({ gh, gists, repo: inputs.repo, log }, inputs, anonymous);
    for (const step of result.steps) log(`${inputs.dryRun ? '[dry-run] ' : ''}${step}`);
    return auditResult(inputs, collected, result);
  },
};
