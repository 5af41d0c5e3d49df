/**
 * forge-context's inputs, parsed and checked into one typed value before any
 * API call: which item, which stage is about to run, the chain, the budget,
 * where the pack goes, and whose annotations count.
 */
import { quote } from '../codec/index.js';
import { UsageError } from '../common/errors.js';
import { bool, COMMON_INPUTS, duration, optional, readInputs, resolveCommon, text, type Getter, type Parser } from '../common/inputs.js';
import { workspacePath } from '../common/paths.js';
import type { EventInfo } from '../common/event.js';
import type { Repo } from '../common/repo.js';
import type { TrustPolicy } from '../common/trust.js';
import { parseChain, parseStage } from '../decision/context.js';

/** The default pack size, in characters: about 15,000 tokens, a fraction of any current model's window. */
export const DEFAULT_BUDGET = 60_000;
/** Below this a pack holds little more than its headings: a budget so small is a mistake. */
const MIN_BUDGET = 2_000;
/** GitHub's own limit on an output is 1 MB; the pack goes to a file, and this bounds what is read into memory for it. */
const MAX_BUDGET = 5_000_000;
export const DEFAULT_OUTPUT_FILE = '.forge/context.md';
export const DEFAULT_STALL_AFTER_MS = 6 * 3_600_000;

export interface ContextInputs {
  token: string;
  repo: Repo;
  number: number;
  stage: string | null;
  /** The chain input, parsed; null when empty (the pipeline file decides). */
  chain: string[] | null;
  budget: number;
  /** Absolute, checked to stay inside the workspace. */
  outputFile: string;
  /** trusted-authors as given; null when empty (the pipeline file decides). */
  trust: TrustPolicy | null;
  /** stall-after as given; null when empty (the pipeline file decides). */
  stallAfterMs: number | null;
  /** Read the gists included pointers name (anonymously, or with gistToken). */
  gists: boolean;
  gistToken: string | null;
}

function budget(): Parser<number> {
  return (raw, name) => {
    const v = raw.trim().replace(/[_,]/g, '');
    if (v === '') return DEFAULT_BUDGET;
    if (!/^\d{1,9}$/.test(v) || Number(v) < MIN_BUDGET || Number(v) > MAX_BUDGET)
      throw new UsageError(`input "${name}" must be a number of characters from ${MIN_BUDGET} to ${MAX_BUDGET}, got ${quote(raw.trim())}`);
    return Number(v);
  };
}

export const SCHEMA = {
  ...COMMON_INPUTS,
  stage: { input: 'stage', parse: optional() },
  chain: { input: 'chain', parse: optional() },
  budget: { input: 'budget', parse: budget() },
  outputFile: { input: 'output-file', parse: text(DEFAULT_OUTPUT_FILE) },
  stallAfter: { input: 'stall-after', parse: duration() },
  gists: { input: 'read-gists', parse: bool(true) },
  gistToken: { input: 'gist-token', parse: optional() },
};

export function readContextInputs(get: Getter, event: EventInfo): ContextInputs {
  const raw = readInputs(SCHEMA, get);
  const common = resolveCommon(raw, event);
  const number = common.issueNumber ?? common.subject.issue ?? common.subject.pull;
  if (number === null)
    throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue or pull request: set issue-number`);
  return {
    token: common.token,
    repo: common.repo,
    number,
    stage: parseStage(raw.stage ?? ''),
    chain: raw.chain === null ? null : parseChain(raw.chain),
    budget: raw.budget,
    outputFile: workspacePath('output-file', raw.outputFile, event.workspace),
    trust: common.trustInput,
    stallAfterMs: raw.stallAfter,
    gists: raw.gists,
    gistToken: raw.gistToken,
  };
}
