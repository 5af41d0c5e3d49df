/** forge-dispatch — the router that acts. Wiring only: inputs, the client, logic, render. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipelineLine } from '../common/pipeline.js';
import type { ActionDefinition } from '../common/runner.js';
import { createClient, requestStats } from '../github/client.js';
import { readDispatchInputs, type DispatchInputs } from './inputs.js';
import { runDispatch } from './logic.js';
import { boardData, dispatchResult } from './render.js';

export const forgeDispatch: ActionDefinition<DispatchInputs> = {
  name: 'forge-dispatch',
  secrets: ['github-token'],
  readInputs: readDispatchInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    const outcome = await runDispatch(gh, inputs, Date.now());
    log(pipelineLine(outcome.pipeline.source));
    for (const line of outcome.log) log(line);
    for (const i of outcome.items) log(`#${i.number}: next phase ${i.next} — ${i.action}${i.detail ? `: ${i.detail}` : ''}`);
    log(`GitHub requests: ${requestStats(gh).requests}`);
    // The board as data, for a step after this one: every item, what it waits for, and the doctor's findings.
    let boardFile = '';
    if (inputs.scope === 'repository') {
      const dir = join(process.env.RUNNER_TEMP || process.cwd(), 'forge-dispatch');
      mkdirSync(dir, { recursive: true });
      boardFile = join(dir, 'board.json');
      writeFileSync(boardFile, `${JSON.stringify(boardData(outcome), null, 2)}\n`);
    }
    return dispatchResult(inputs, outcome, boardFile);
  },
};
