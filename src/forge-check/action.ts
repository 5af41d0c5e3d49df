/**
 * forge-check — the conformance gate (spec §7). Inputs are parsed here,
 * the threads read through the GitHub layer, the decision made by evaluate().
 */
import { eventTarget } from '../common/event.js';
import { bool, oneOf, optional, positiveInt, readInputs, required, type Getter } from '../common/inputs.js';
import { UsageError } from '../common/errors.js';
import type { ActionDefinition, ActionResult, EventInfo } from '../common/runner.js';
import type { WorkItem } from '../common/work-item.js';
import { isTrusted, parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { createClient, type GitHub } from '../github/client.js';
import { parseRepository, type Repo } from '../github/repo.js';
import { listReviews, readPullClosing, readThread } from '../github/reads.js';
import { evaluate, parseRequired, VALIDATIONS, type CheckResult, type PullContext, type Validation } from './evaluate.js';
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
export async function gatherItems(gh: GitHub, inputs: CheckInputs): Promise<Gathered> {
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
  if (pull === null) return { items: [first as WorkItem], shared: [], pull: null, notes: [] };
  const pr = first ?? (await readThread(gh, inputs.repo, pull));
  pr.comments.push(...(await listReviews(gh, inputs.repo, pull)));
  const { head, closes } = await readPullClosing(gh, inputs.repo, pull);
  const notes: string[] = [];
  let numbers: number[] = [];
  if (closes.length > 0 && !isTrusted(inputs.trust, pr.author)) {
    notes.push(
      `PR #${pull} is by ${pr.author.login ?? '(unknown)'} (${pr.author.association}), who is not in trusted-authors: its closing references (${listNumbers(closes)}) are not followed, so the PR is checked on its own`,
    );
  } else {
    numbers = [...closes];
  }
  // The workflow's own issue-number input is the workflow author's choice, not the PR author's.
  if (explicit !== null && explicit !== pull && !numbers.includes(explicit)) numbers.push(explicit);
  if (numbers.length > MAX_CLOSING_REFERENCES) {
    notes.push(`PR #${pull} names ${numbers.length} issues; only the first ${MAX_CLOSING_REFERENCES} are checked — not followed: ${listNumbers(numbers.slice(MAX_CLOSING_REFERENCES))}`);
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

export async function runCheck(gh: GitHub, inputs: CheckInputs): Promise<CheckResult> {
  const { items, shared, pull, notes } = await gatherItems(gh, inputs);
  const result = evaluate(items, shared, { required: inputs.required, validation: inputs.validation, trust: inputs.trust, pull });
  result.notes.unshift(...notes);
  return result;
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
      warnings: [...result.notes, ...(!result.conforming && !inputs.failOnViolation ? result.problems : [])],
    };
  },
};
