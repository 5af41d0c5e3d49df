/**
 * forge-check's logic on one item: which threads the run is about — the
 * issue, or a PR with the issues it closes — read through the GitHub layer,
 * then the decision (conformance/evaluate.ts). Typed inputs and the client
 * in, a result out. The repository scope's logic is repository/logic.ts.
 */
import { counts } from '../common/trust.js';
import type { WorkItem } from '../common/work-item.js';
import { evaluate, type CheckResult, type PullContext } from '../conformance/evaluate.js';
import type { GitHub } from '../github/client.js';
import { listReviews, readPullClosing, readThread } from '../github/reads.js';
import type { ItemInputs } from './inputs.js';

/** A PR body can name any number of issues; each costs requests, so at most this many are followed. */
export const MAX_CLOSING_REFERENCES = 20;

export interface Gathered {
  items: WorkItem[];
  shared: WorkItem[];
  /** Set when a PR is checked: its number and head branch (the branch a BUILDER must be for). */
  pull: PullContext | null;
  /** What the gate decided not to follow, and why: shown in the summary and as warnings. */
  notes: string[];
}

/**
 * Which threads to check: a PR's closed issues (with the PR's own annotations),
 * else the item itself. Closing references are typed by the PR's author, as
 * easily as a FORGE tag: they are followed only when that author is trusted.
 */
async function gatherItems(gh: GitHub, inputs: ItemInputs): Promise<Gathered> {
  let pull = inputs.pull;
  let explicit: number | null = inputs.issue;
  let pr: WorkItem | null = null;
  if (pull === null && explicit !== null) {
    const item = await readThread(gh, inputs.repo, explicit);
    // issue-number may name a PR: then it is checked as one.
    if (item.kind === 'issue') return { items: [item], shared: [], pull: null, notes: [] };
    pr = item;
    pull = explicit;
    explicit = null;
  }
  if (pull === null) return { items: [], shared: [], pull: null, notes: [] };
  pr ??= await readThread(gh, inputs.repo, pull);
  pr.comments.push(...(await listReviews(gh, inputs.repo, pull)));
  const { head, closes } = await readPullClosing(gh, inputs.repo, pull);
  const notes: string[] = [];
  let numbers: number[] = [];
  if (closes.length > 0 && !counts('closing-reference', pr.author, inputs.gate.trust)) {
    notes.push(
      `PR #${pull} is by ${pr.author.login ?? '(unknown)'} (${pr.author.association}), who is not in trusted-authors: its closing references (${listNumbers(closes)}) are not followed, so the PR is checked on its own`,
    );
  } else {
    numbers = [...closes];
  }
  // The workflow's own issue-number input is the workflow author's choice, not the PR author's.
  if (explicit !== null && explicit !== pull && !numbers.includes(explicit)) numbers.push(explicit);
  if (numbers.length > MAX_CLOSING_REFERENCES) {
    notes.push(
      `PR #${pull} names ${numbers.length} issues; only the first ${MAX_CLOSING_REFERENCES} are checked — not followed: ${listNumbers(numbers.slice(MAX_CLOSING_REFERENCES))}`,
    );
    numbers = numbers.slice(0, MAX_CLOSING_REFERENCES);
  }
  const context = { number: pull, head };
  if (numbers.length === 0) return { items: [pr], shared: [], pull: context, notes };
  const items: WorkItem[] = [];
  for (const n of numbers) items.push(await readThread(gh, inputs.repo, n));
  return { items, shared: [pr], pull: context, notes };
}

function listNumbers(numbers: number[]): string {
  const shown = numbers.slice(0, 30).map((n) => `#${n}`);
  return numbers.length > shown.length ? `${shown.join(', ')} and ${numbers.length - shown.length} more` : shown.join(', ');
}

export async function runCheck(gh: GitHub, inputs: ItemInputs): Promise<CheckResult> {
  const { items, shared, pull, notes } = await gatherItems(gh, inputs);
  const result = evaluate(items, shared, { ...inputs.gate, pull });
  return { ...result, notes: [...notes, ...result.notes] };
}
