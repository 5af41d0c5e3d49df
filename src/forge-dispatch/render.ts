/**
 * forge-dispatch's outputs and job summary. The step fails only for what it
 * could not do (a bad pipeline file or workflow: the runner's error line); an
 * item it could not read is named, `inconclusive` is true, and the rest stand.
 */
import { inert, tableCell } from '../common/markdown.js';
import type { ActionResult } from '../common/runner.js';
import type { DispatchInputs } from './inputs.js';
import type { DispatchOutcome } from './logic.js';

/** The step's outputs, as action.yml declares them. */
export const OUTPUTS = ['dispatched', 'escalated', 'not-admitted', 'board-url', 'board-file', 'inconclusive'] as const;

/** The board as JSON (the board-file output): each open item as the board shows it, and what could not be read. */
export function boardData(outcome: DispatchOutcome) {
  return {
    items: [...outcome.board].sort((a, b) => a.number - b.number),
    unread: outcome.unread,
    dispatched: outcome.dispatched,
    escalated: outcome.escalated,
    notAdmitted: outcome.notAdmitted,
  };
}

export function dispatchResult(inputs: DispatchInputs, outcome: DispatchOutcome, boardFile = ''): ActionResult {
  const rows = outcome.items.map((i) => `| #${i.number} | ${tableCell(i.next)} | ${i.action} | ${tableCell(inert(i.detail || i.why))} |`);
  const summary = [
    `## FORGE dispatch${inputs.dryRun ? ' (dry run)' : ''}`,
    '',
    `${outcome.dispatched.length} started, ${outcome.escalated.length} handed to a person, ${outcome.notAdmitted.length} waiting for a maintainer to admit, ${outcome.items.length} item(s) read${outcome.unread.length > 0 ? `, ${outcome.unread.length} not read` : ''}.`,
    '',
    ...(rows.length > 0 ? ['| item | next phase | action | why |', '|---|---|---|---|', ...rows, ''] : []),
    ...(outcome.unread.length > 0
      ? ['**Not read** (the rest was still acted on):', '', ...outcome.unread.map((u) => `- ${inert(u)}`), '']
      : []),
    // The board, as the issue holds it (without its marker), when this sweep wrote one.
    ...(outcome.boardText ? ['', outcome.boardText.split('\n').slice(1).join('\n').replace(/^# /, '### ')] : []),
  ].join('\n');
  return {
    outputs: {
      dispatched: JSON.stringify(outcome.dispatched),
      escalated: JSON.stringify(outcome.escalated),
      'not-admitted': JSON.stringify(outcome.notAdmitted),
      'board-url': outcome.boardUrl,
      'board-file': boardFile,
      inconclusive: outcome.unread.length > 0,
    },
    summary,
    failure: null,
    warnings: outcome.unread.map((u) => `not read: ${u}`),
  };
}
