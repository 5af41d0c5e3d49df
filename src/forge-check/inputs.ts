/** forge-check's inputs: one schema (the common inputs plus its own), checked before any API call. */
import { splitList } from '../common/lists.js';
import { UsageError } from '../common/errors.js';
import type { EventInfo } from '../common/event.js';
import {
  bool,
  COMMON_INPUTS,
  oneOf,
  optional,
  optionalOneOf,
  readInputs,
  resolveCommon,
  text,
  type Getter,
  type Parser,
} from '../common/inputs.js';
import { workspacePath } from '../common/paths.js';
import type { Repo } from '../common/repo.js';
import { parseRequired, VALIDATIONS, type GateSettings } from '../conformance/evaluate.js';
import type { RepositoryFilter } from './repository/logic.js';

export const SCOPES = ['item', 'repository'] as const;
export type Scope = (typeof SCOPES)[number];
const STATES = ['all', 'open', 'closed'] as const;

interface SharedInputs {
  token: string;
  repo: Repo;
  /** What the decision holds every item to: written once, whatever the scope. */
  gate: GateSettings;
  failOnViolation: boolean;
  /** Where to write the `report` JSON as well (absolute, inside the workspace). */
  reportFile: string | null;
}

/** One work item: a PR (checked through the issues it closes) or an issue. */
export interface ItemInputs extends SharedInputs {
  scope: 'item';
  pull: number | null;
  issue: number | null;
  /** Keep one comment with the verdict on the checked issue or PR. */
  comment: boolean;
}

/** Every matching issue of the repository. */
export interface RepositoryInputs extends SharedInputs {
  scope: 'repository';
  filter: RepositoryFilter;
  /** Incremental: the checkpoint's absolute path; null for a full audit that keeps no checkpoint. */
  checkpoint: string | null;
}

export type CheckInputs = ItemInputs | RepositoryInputs;

/** `required`: types or a preset; empty is `minimal`. */
function requiredTypes(): Parser<string[]> {
  return (raw) => parseRequired(raw);
}

function labelList(): Parser<string[]> {
  return (raw) => splitList(raw);
}

/** `milestone`: a number, a title, `*` (any milestone) or `none`. */
function milestoneFilter(): Parser<string | null> {
  return (raw) => {
    const v = raw.trim().replace(/^#(?=\d+$)/, '');
    return v === '' ? null : v;
  };
}

/** The default place of the incremental checkpoint, relative to the workspace. */
export const DEFAULT_CHECKPOINT = '.forge/check-checkpoint.json';

export const SCHEMA = {
  ...COMMON_INPUTS,
  required: { input: 'required', parse: requiredTypes() },
  validation: { input: 'validation', parse: oneOf(VALIDATIONS, 'strict') },
  failOnViolation: { input: 'fail-on-violation', parse: bool(true) },
  scope: { input: 'scope', parse: oneOf(SCOPES, 'item') },
  state: { input: 'state', parse: optionalOneOf(STATES) },
  labels: { input: 'labels', parse: labelList() },
  milestone: { input: 'milestone', parse: milestoneFilter() },
  since: { input: 'since', parse: optionalOneOf(['last-run'] as const) },
  checkpoint: { input: 'checkpoint', parse: text(DEFAULT_CHECKPOINT) },
  reportFile: { input: 'report-file', parse: optional() },
  comment: { input: 'comment', parse: bool(false) },
};

type Raw = ReturnType<typeof readInputs<typeof SCHEMA>>;

/** Inputs that only mean something for one scope are refused in the other, rather than silently ignored. */
function checkScope(raw: Raw, get: Getter): void {
  if (raw.scope === 'repository') {
    if (raw.issueNumber !== null) throw new UsageError('issue-number does not apply to scope: repository (it checks every matching issue)');
    if (raw.comment) throw new UsageError('comment: true needs scope: item (the comment is kept on the checked issue or PR)');
    return;
  }
  const only = [
    ['state', raw.state !== null],
    ['labels', raw.labels.length > 0],
    ['milestone', raw.milestone !== null],
    ['since', raw.since !== null],
    ['checkpoint', get('checkpoint').trim() !== '' && raw.checkpoint !== DEFAULT_CHECKPOINT],
  ] as const;
  const set = only.filter(([, isSet]) => isSet).map(([name]) => name);
  if (set.length > 0) throw new UsageError(`${set.join(', ')}: only with scope: repository (scope is item)`);
}

export function readCheckInputs(get: Getter, event: EventInfo): CheckInputs {
  const raw = readInputs(SCHEMA, get);
  checkScope(raw, get);
  const common = resolveCommon(raw, event);
  const reportFile = raw.reportFile === null ? null : workspacePath('report-file', raw.reportFile, event.workspace);
  const shared: SharedInputs = {
    token: common.token,
    repo: common.repo,
    gate: { required: raw.required, validation: raw.validation, trust: common.trust },
    failOnViolation: raw.failOnViolation,
    reportFile,
  };
  if (raw.scope === 'repository') {
    const checkpoint = raw.since === 'last-run' ? workspacePath('checkpoint', raw.checkpoint, event.workspace) : null;
    if (checkpoint !== null && reportFile === checkpoint) throw new UsageError('report-file and checkpoint must be different files');
    return {
      ...shared,
      scope: 'repository',
      filter: { state: raw.state ?? 'all', labels: raw.labels, milestone: raw.milestone },
      checkpoint,
    };
  }
  const issue = common.issueNumber ?? common.subject.issue;
  if (issue === null && common.subject.pull === null)
    throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue or pull request`);
  return { ...shared, scope: 'item', pull: common.subject.pull, issue, comment: raw.comment };
}
