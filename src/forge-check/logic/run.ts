/**
 * forge-check's logic on items: which PRs (or which issue) the event touches,
 * each PR gathered with the issues it closes, the decision for each
 * (conformance/evaluate.ts), and each verdict written as a commit status when
 * asked. Typed inputs and the client in, one verdict per checked PR out. The
 * repository scope's logic is repository/logic.ts.
 */
import { errorMessage } from '../../common/errors.js';
import { evaluate, type CheckResult } from '../../conformance/evaluate.js';
import type { GitHub } from '../../github/client.js';
import { readPull, type PullInfo } from '../../github/reads.js';
import type { ItemInputs } from '../inputs.js';
import { gatherNamed, gatherPull, type Gathered, type ThreadCache } from './gather.js';
import { touchedBy, type Target } from './pulls.js';
import { keepStatus, statusOf, type StatusOutcome } from './status.js';

export interface Verdict {
  /** The PR or issue the verdict is for (where its status comment goes). */
  subject: number;
  /** The PR as read, when a PR was checked. */
  pull: PullInfo | null;
  result: CheckResult;
  status: StatusOutcome | null;
}

export interface CheckRun {
  verdicts: Verdict[];
  /** Why nothing or less was checked (notices). */
  notes: string[];
  /** Claims refused and writes that failed (warnings). */
  warnings: string[];
}

async function gather(gh: GitHub, inputs: ItemInputs, target: Target, cache: ThreadCache): Promise<Gathered> {
  if (target.kind === 'pull') return gatherPull(gh, inputs, target.number, target.named, cache);
  return gatherNamed(gh, inputs, target.number, cache);
}

export async function runCheck(gh: GitHub, inputs: ItemInputs): Promise<CheckRun> {
  const touched = await touchedBy(gh, inputs);
  const run: CheckRun = { verdicts: [], notes: touched.notes, warnings: [...touched.warnings] };
  const cache: ThreadCache = new Map();
  for (const target of touched.targets) {
    let gathered: Gathered;
    try {
      gathered = await gather(gh, inputs, target, cache);
    } catch (err) {
      // A PR whose verdict cannot be decided gets an `error` status, and the step fails (the runner reports why).
      if (target.kind === 'pull') await errorStatus(gh, inputs, target.number, err, run);
      throw err;
    }
    const { items, shared, pull, info, notes, passedOver } = gathered;
    const decided = evaluate(items, shared, { ...inputs.gate, pull, passedOver });
    const result = { ...decided, notes: [...notes, ...decided.notes] };
    const status =
      inputs.status && info ? await keepStatus(gh, inputs.repo, info.number, info.sha, inputs.status, statusOf(result, null)) : null;
    if (status?.warning) run.warnings.push(status.warning);
    run.verdicts.push({ subject: info?.number ?? items[0]?.number ?? target.number, pull: info, result, status });
  }
  return run;
}

/** The `error` status on a PR whose reads failed: read its head (if even that fails, nothing can be written). */
async function errorStatus(gh: GitHub, inputs: ItemInputs, number: number, err: unknown, run: CheckRun): Promise<void> {
  if (!inputs.status) return;
  try {
    const info = await readPull(gh, inputs.repo, number);
    const outcome = await keepStatus(gh, inputs.repo, number, info.sha, inputs.status, statusOf(null, errorMessage(err)));
    if (outcome.warning) run.warnings.push(outcome.warning);
  } catch {
    // The head commit cannot be read either: the step's failure says why.
  }
}
