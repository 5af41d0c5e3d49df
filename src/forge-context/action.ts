/** forge-context — the reader (spec §5, §7.2). Wiring only: inputs, the clients, logic, the pack file, render. */
import { writeWorkspaceFile } from '../common/paths.js';
import type { ActionDefinition } from '../common/runner.js';
import { pipelineLine } from '../common/pipeline.js';
import { createClient, requestStats } from '../github/client.js';
import { readContextInputs, type ContextInputs } from './inputs.js';
import { runContext } from './logic.js';
import { contextResult } from './render.js';

export const forgeContext: ActionDefinition<ContextInputs> = {
  name: 'forge-context',
  secrets: ['github-token', 'gist-token'],
  readInputs: readContextInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    // Gist endpoints refuse the workflow's installation token: a user token when given, else anonymous reads.
    const gists = createClient(inputs.gistToken ?? '', { log, anonymous: inputs.gistToken === null });
    const outcome = await runContext(gh, gists, inputs, Date.now());
    log(pipelineLine(outcome.settings.pipeline.source));
    writeWorkspaceFile(inputs.outputFile, outcome.result.markdown);
    log(`wrote ${inputs.outputFile} (${outcome.result.markdown.length} characters); next phase: ${outcome.result.nextPhase}`);
    const live = outcome.result.running;
    if (live) log(`running: ${outcome.result.nextPhase} is claimed by ${live.holder} until ${live.expiresAt} (${live.url})`);
    log(`GitHub requests: ${requestStats(gh).requests} (GraphQL points: ${outcome.snapshot.points})`);
    return contextResult(inputs, outcome, inputs.outputFile);
  },
};
