/**
 * Which PRs an event touches. Whatever the event, the verdict belongs to a
 * PR's head commit: a comment or an edit on an issue re-gates every open PR
 * that closes it; a workflow_run names a commit, and the PR is the one whose
 * head that commit is — never a number the triggering run could have forged.
 */
import { errorMessage } from '../../common/errors.js';
import { repoName } from '../../common/repo.js';
import type { GitHub } from '../../github/client.js';
import { openPullsClosing } from '../../github/links.js';
import { openPullsByHead, pullsForCommit, readPull } from '../../github/reads.js';
import type { Trigger } from '../inputs.js';
import type { ItemInputs } from '../inputs.js';

/** What to check: PRs (with the workflow's own issue, if named), an issue on its own, or an item to read first. */
export type Target =
  | { kind: 'pull'; number: number; named: number | null }
  | { kind: 'issue'; number: number }
  | { kind: 'named'; number: number };

export interface Touched {
  targets: Target[];
  /** Why nothing or less was checked: shown as notices. */
  notes: string[];
  /** A claim the gate refused (a forged issue-number on workflow_run): shown as warnings. */
  warnings: string[];
}

/** The open PRs of this repository that close issue #number; the issue itself when there are none. */
async function forIssue(gh: GitHub, inputs: ItemInputs, number: number): Promise<Touched> {
  const here = repoName(inputs.repo).toLowerCase();
  try {
    const pulls = await openPullsClosing(gh, inputs.repo, number);
    const ours = pulls.filter((p) => p.repository.toLowerCase() === here);
    const elsewhere = pulls.filter((p) => p.repository.toLowerCase() !== here);
    const notes = elsewhere.length
      ? [`#${number} is also closed by ${elsewhere.map((p) => `${p.repository}#${p.number}`).join(', ')}: gated in their own repositories`]
      : [];
    if (ours.length === 0) return { targets: [{ kind: 'issue', number }], notes, warnings: [] };
    return { targets: ours.map((p) => ({ kind: 'pull', number: p.number, named: null })), notes, warnings: [] };
  } catch (err) {
    return {
      targets: [{ kind: 'issue', number }],
      notes: [`the open PRs that close #${number} could not be read from GitHub (${errorMessage(err)}): #${number} is checked on its own`],
      warnings: [],
    };
  }
}

/**
 * The open PR whose head commit is `sha`: GitHub's commit→PR list, and for a
 * fork's commit (which that list leaves out) the open PRs from the head
 * repository's branch whose head is still `sha`.
 */
async function forCommit(gh: GitHub, inputs: ItemInputs, t: Extract<Trigger, { kind: 'commit' }>): Promise<Touched> {
  let numbers = await pullsForCommit(gh, inputs.repo, t.sha);
  if (numbers.length === 0 && t.headRepository && t.headBranch) {
    const owner = t.headRepository.split('/')[0];
    numbers = (await openPullsByHead(gh, inputs.repo, owner, t.headBranch)).filter((p) => p.sha === t.sha).map((p) => p.number);
  }
  const warnings: string[] = [];
  if (t.claimed !== null && !numbers.includes(t.claimed)) {
    // The number came from the triggering run (an artifact a fork can write): believed only when GitHub agrees.
    let why = 'it is not an open PR of this repository';
    try {
      const claimed = await readPull(gh, inputs.repo, t.claimed);
      why = `its head is ${claimed.sha.slice(0, 12) || '(none)'}`;
    } catch {
      // Not a PR (or not readable): the reason above stands.
    }
    warnings.push(`issue-number ${t.claimed} is ignored: the workflow_run is for commit ${t.sha.slice(0, 12)}, and ${why}`);
  }
  if (numbers.length === 0)
    return { targets: [], notes: [`no open PR has commit ${t.sha.slice(0, 12)} as its head: nothing to gate`], warnings };
  return { targets: numbers.map((number) => ({ kind: 'pull', number, named: null })), notes: [], warnings };
}

export async function touchedBy(gh: GitHub, inputs: ItemInputs): Promise<Touched> {
  const t = inputs.trigger;
  switch (t.kind) {
    case 'pull':
      return { targets: [{ kind: 'pull', number: t.number, named: t.named }], notes: [], warnings: [] };
    case 'named':
      return { targets: [{ kind: 'named', number: t.number }], notes: [], warnings: [] };
    case 'issue':
      return forIssue(gh, inputs, t.number);
    case 'commit':
      return forCommit(gh, inputs, t);
    default:
      return { targets: [], notes: [`the "${t.event}" event names no commit, PR or issue: nothing to gate`], warnings: [] };
  }
}
