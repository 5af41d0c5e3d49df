/** forge-check's inputs: one schema (the common inputs plus its own), checked before any API call. */
import { UsageError } from '../common/errors.js';
import type { EventInfo } from '../common/event.js';
import { bool, COMMON_INPUTS, oneOf, readInputs, resolveCommon, type Getter, type Parser } from '../common/inputs.js';
import type { TrustPolicy } from '../common/trust.js';
import type { Repo } from '../github/repo.js';
import { parseRequired, VALIDATIONS, type Validation } from './evaluate.js';

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

/** `required`: types or a preset; empty is `minimal`. */
function requiredTypes(): Parser<string[]> {
  return (raw) => parseRequired(raw);
}

export const SCHEMA = {
  ...COMMON_INPUTS,
  required: { input: 'required', parse: requiredTypes() },
  validation: { input: 'validation', parse: oneOf(VALIDATIONS, 'strict') },
  failOnViolation: { input: 'fail-on-violation', parse: bool(true) },
};

export function readCheckInputs(get: Getter, event: EventInfo): CheckInputs {
  const raw = readInputs(SCHEMA, get);
  const common = resolveCommon(raw, event);
  const issue = common.issueNumber ?? common.subject.issue;
  if (issue === null && common.subject.pull === null)
    throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue or pull request`);
  return {
    token: common.token,
    repo: common.repo,
    pull: common.subject.pull,
    issue,
    required: raw.required,
    validation: raw.validation,
    trust: common.trust,
    failOnViolation: raw.failOnViolation,
  };
}
