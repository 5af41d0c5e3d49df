/** forge-emit — the conforming producer (spec §7.1, §11). Wiring only: inputs, the body file, compose, logic, render. */
import { readWorkspaceFile } from '../common/paths.js';
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { composeAnnotation } from '../common/compose-annotation.js';
import { InvalidAnnotation } from '../common/compose-annotation.js';
import { UsageError } from '../common/errors.js';
import { emitNeedsPipeline, fieldsFromFile, readEmitInputs, settleEmit, type BodySource, type EmitStepInputs } from './inputs.js';
import { readPipelineFile } from '../github/pipeline-read.js';
import { pipelineLine } from '../common/pipeline.js';
import { reviewedCommit, runEmit, withReviewedCommit, withRun } from './logic.js';
import { emitResult } from './render.js';

function bodyText(body: BodySource): string | undefined {
  if (body.kind === 'file') return readWorkspaceFile(body.path, 'body-file', body.given);
  return body.kind === 'text' ? body.text : undefined;
}

export const forgeEmit: ActionDefinition<EmitStepInputs> = {
  name: 'forge-emit',
  secrets: ['github-token'],
  readInputs: readEmitInputs,
  async execute(given, _event, log) {
    let inputs = given;
    // Composed and checked before the client makes its first request.
    const file = inputs.fieldsFile;
    // The run that writes it is recorded in it: the same run and attempt writes it once, whatever token it uses.
    const content = withRun(
      file ? fieldsFromFile(inputs.content, readWorkspaceFile(file.path, 'fields-file', file.given), file.given) : inputs.content,
      inputs.run,
    );
    let annotation: ReturnType<typeof composeAnnotation>;
    try {
      annotation = composeAnnotation(inputs.type, content, bodyText(inputs.body));
    } catch (e) {
      // What the agent's file holds is often what is wrong: the error says where the fields came from.
      const where = file ? ` (fields from fields-file ${JSON.stringify(file.given)})` : '';
      if (file && e instanceof InvalidAnnotation) throw new InvalidAnnotation(`${e.message}${where}`);
      if (file && e instanceof UsageError) throw new UsageError(`${e.message}${where}`);
      throw e;
    }
    const gh = createClient(inputs.token, { log });
    // A REVIEWER on a PR names the commit the run reviewed (composed again with it).
    const head = await reviewedCommit(gh, inputs, content);
    if (head !== null) annotation = composeAnnotation(inputs.type, withReviewedCommit(content, head), bodyText(inputs.body));
    // The pipeline file (who is trusted, which label this stage's completion moves to): one request, before any write.
    if (emitNeedsPipeline(inputs)) inputs = settleEmit(inputs, await readPipelineFile(gh, inputs.repo));
    const outcome = await runEmit(gh, inputs, annotation);
    // Said once the item was read: a repository the token cannot read answers the file's read with a 404 too, and is
    // never reported as one without a pipeline file.
    if (emitNeedsPipeline(given)) log(pipelineLine(inputs.pipelineSource));
    for (const step of outcome.steps) log(`${inputs.dryRun ? '[dry-run] ' : ''}${step}`);
    return emitResult(inputs, annotation, outcome);
  },
};
