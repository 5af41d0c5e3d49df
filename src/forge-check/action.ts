/**
 * forge-check — the conformance gate (spec §7). Inputs are parsed here,
 * the threads read through the GitHub layer, the decision made by evaluate().
 */
import { eventTarget } from '../common/event.js';
import { bool, oneOf, optional, positiveInt, readInputs, required, type Getter } from '../common/inputs.js';
import { UsageError } from '../common/lists.js';
import type { ActionDefinition, ActionResult, EventInfo } from '../common/runner.js';
import type { WorkItem } from '../common/thread.js';
import { parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { createClient, type GitHub } from '../github/client.js';
import { parseRepository, type Repo } from '../github/repo.js';
import { listReviews, readPullClosing, readThread } from '../github/thread.js';
import { evaluate, parseRequired, VALIDATIONS, type CheckResult, type Validation } from './evaluate.js';
import { markdownReport } from './render.js';

export interface CheckInputs {
  token: string;
  repo: Repo;
  /** The work item the run is about: a PR (checked through the issues it closes) or an issue. */
  pull: number | null;
  issue: number | null;
  required: string[];
  validation: Validation;
  trust: TrustPolicy;
  failOnViolation: boolean;
}

const schema = {
  token: { input: 'github-token', parse: required() },
  repository: { input: 'repository', parse: optional() },
  issueNumber: { input: 'issue-number', parse: positiveInt() },
  required: { input: 'required', parse: optional() },
  validation: { input: 'validation', parse: oneOf(VALIDATIONS, 'strict') },
  trusted: { input: 'trusted-authors', parse: optional() },
  failOnViolation: { input: 'fail-on-violation', parse: bool(true) },
};

export function readCheckInputs(get: Getter, event: EventInfo): CheckInputs {
  const raw = readInputs(schema, get);
  const target = eventTarget(event);
  const issue = raw.issueNumber ?? target.issue;
  if (issue === null && target.pull === null)
    throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue or pull request`);
  return {
    token: raw.token,
    repo: parseRepository(raw.repository ?? event.repository),
    pull: target.pull,
    issue,
    required: parseRequired(raw.required ?? undefined),
    validation: raw.validation,
    trust: parseTrustPolicy(raw.trusted ?? undefined),
    failOnViolation: raw.failOnViolation,
  };
}

/** Which threads to check: a PR's closed issues (with the PR's own annotations), else the item itself. */
export async function gatherItems(gh: GitHub, inputs: CheckInputs): Promise<{ items: WorkItem[]; shared: WorkItem[] }> {
  let pull = inputs.pull;
  let explicit: number | null = inputs.issue;
  let first: WorkItem | null = null;
  if (pull === null && explicit !== null) {
    first = await readThread(gh, inputs.repo, explicit);
    if (first.kind === 'pull') {
      pull = explicit;
      explicit = null;
    }
  }
  if (pull === null) return { items: [first as WorkItem], shared: [] };
  const pr = first ?? (await readThread(gh, inputs.repo, pull));
  pr.comments.push(...(await listReviews(gh, inputs.repo, pull)));
  const numbers = await readPullClosing(gh, inputs.repo, pull);
  if (explicit !== null && explicit !== pull && !numbers.includes(explicit)) numbers.push(explicit);
  if (numbers.length === 0) return { items: [pr], shared: [] };
  const items: WorkItem[] = [];
  for (const n of numbers) items.push(await readThread(gh, inputs.repo, n));
  return { items, shared: [pr] };
}

export async function runCheck(gh: GitHub, inputs: CheckInputs): Promise<CheckResult> {
  const { items, shared } = await gatherItems(gh, inputs);
  return evaluate(items, shared, { required: inputs.required, validation: inputs.validation, trust: inputs.trust });
}

export function checkOutputs(result: CheckResult): ActionResult['outputs'] {
  return {
    conforming: result.conforming,
    missing: result.missing.join(','),
    incomplete: result.incomplete.join(','),
    invalid: result.invalid.join(','),
    state: result.state,
    terminal: result.terminal,
    report: JSON.stringify(result.items),
  };
}

export const forgeCheck: ActionDefinition<CheckInputs> = {
  name: 'forge-check',
  secrets: ['github-token'],
  readInputs: readCheckInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    const result = await runCheck(gh, inputs);
    const failure =
      !result.conforming && inputs.failOnViolation
        ? `FORGE conformance failed: ${result.problems.join('; ')}`
        : null;
    return {
      outputs: checkOutputs(result),
      summary: markdownReport(result),
      failure,
      warnings: !result.conforming && !inputs.failOnViolation ? result.problems : [],
    };
  },
};
