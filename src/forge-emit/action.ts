/** forge-emit — the conforming producer (spec §7.1, §11). Wiring only: inputs, the body file, compose, logic, render. */
import { readWorkspaceFile } from '../common/paths.js';
import type { ActionDefinition } from '../common/runner.js';
import { createClient } from '../github/client.js';
import { composeAnnotation } from '../common/compose-annotation.js';
import { readEmitInputs, type BodySource, type EmitStepInputs } from './inputs.js';
import { runEmit } from './logic.js';
import { emitResult } from './render.js';

function bodyText(body: BodySource): string | undefined {
  if (body.kind === 'file') return readWorkspaceFile(body.path, 'body-file', body.given);
  return body.kind === 'text' ? body.text : undefined;
}

export const forgeEmit: ActionDefinition<EmitStepInputs> = {
  name: 'forge-emit',
  secrets: ['github-token'],
  readInputs: readEmitInputs,
  async execute(inputs, _event, log) {
    // Composed and checked before the client makes its first request.
    const annotation = composeAnnotation(inputs.type, inputs.content, bodyText(inputs.body));
    const outcome = await runEmit(createClient(inputs.token, { log }), inputs, annotation);
    for (const step of outcome.steps) log(`${inputs.dryRun ? '[dry-run] ' : ''}${step}`);
    return emitResult(inputs, annotation, outcome);
  },
};
