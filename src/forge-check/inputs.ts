/** forge-check's inputs: one schema (the common inputs plus its own), checked before any API call. */
import { splitList } from '../common/lists.js';
import { UsageError } from '../common/errors.js';
import { eventSubject, type EventInfo } from '../common/event.js';
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
import { parseRequired, requiredWarnings, VALIDATIONS, type GateSettings } from '../conformance/evaluate.js';
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
  /** What looks wrong in the inputs without being an error (a near miss of a reserved type): warnings. */
  inputWarnings: string[];
}

/**
 * What the event points at, before GitHub is asked which PRs that touches:
 * a PR (pull_request*, a review, a comment on a PR), an issue (a comment on
 * it, an edit or a label — its open PRs are gated), a commit (workflow_run:
 * the PR whose head it is), or an item the workflow names (issue-number).
 */
export type Trigger =
  | { kind: 'pull'; number: number; named: number | null }
  | { kind: 'issue'; number: number }
  | { kind: 'commit'; sha: string; headRepository: string | null; headBranch: string | null; claimed: number | null }
  | { kind: 'named'; number: number }
  | { kind: 'none'; event: string };

/** Where the verdict is written as a commit status, when it is. */
export interface StatusSettings {
  context: string;
  /** The run's page, the status's link. */
  targetUrl: string | null;
}

/** One work item, or the PRs an event touches: each PR checked through the issues it closes. */
export interface ItemInputs extends SharedInputs {
  scope: 'item';
  trigger: Trigger;
  /** Keep one comment with the verdict on each checked PR (or the issue). */
  comment: boolean;
  /** A commit status on each checked PR's head commit; null when `status: false`. */
  status: StatusSettings | null;
  /** The run's page, linked from the status comment and the status. */
  runUrl: string | null;
  /** The gate's name (status-context): its status and its comment's marker carry it, so two gates keep two of each. */
  gateName: string;
}

/** Every matching issue of the repository. */
export interface RepositoryInputs extends SharedInputs {
  scope: 'repository';
  filter: RepositoryFilter;
  /** Incremental: the checkpoint's absolute path; null for a full audit that keeps no checkpoint. */
  checkpoint: string | null;
  /** Read everything when the last full read is older than this (milliseconds); null for never. */
  fullEveryMs: number | null;
  /** Issue titles in the summary and report (false for an org audit of private repositories run from a public one). */
  titles: boolean;
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

/** GitHub keeps a status context of up to 255 characters; one line, so it reads in the checks list. */
function statusContext(): Parser<string> {
  return (raw, name) => {
    const v = raw.trim() === '' ? DEFAULT_STATUS_CONTEXT : raw.trim();
    if (v.length > 255 || /[\r\n]/.test(v)) throw new UsageError(`input "${name}" must be one line of at most 255 characters`);
    return v;
  };
}

export const DEFAULT_STATUS_CONTEXT = 'FORGE conformance';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `full-every`: a period such as `7d`, `12h` or `30m`; empty for never. */
function duration(): Parser<number | null> {
  return (raw, name) => {
    const v = raw.trim();
    if (v === '') return null;
    const m = /^(\d{1,6})\s*([mhd])$/.exec(v);
    if (!m || Number(m[1]) === 0) throw new UsageError(`input "${name}" must be a period such as 7d, 12h or 30m, got ${JSON.stringify(v)}`);
    return Number(m[1]) * UNIT_MS[m[2]];
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
  status: { input: 'status', parse: bool(false) },
  fullEvery: { input: 'full-every', parse: duration() },
  reportTitles: { input: 'report-titles', parse: bool(true) },
  statusContext: { input: 'status-context', parse: statusContext() },
};

type Raw = ReturnType<typeof readInputs<typeof SCHEMA>>;

/** Inputs that only mean something for one scope are refused in the other, rather than silently ignored. */
function checkScope(raw: Raw, get: Getter): void {
  if (raw.scope === 'repository') {
    if (raw.issueNumber !== null) throw new UsageError('issue-number does not apply to scope: repository (it checks every matching issue)');
    if (raw.comment) throw new UsageError('comment: true needs scope: item (the comment is kept on the checked issue or PR)');
    if (raw.status) throw new UsageError('status: true needs scope: item (the status is written on each checked PR)');
    if (raw.fullEvery !== null && raw.since === null) throw new UsageError('full-every: only with scope: repository and since: last-run');
    return;
  }
  const only = [
    ['state', raw.state !== null],
    ['labels', raw.labels.length > 0],
    ['milestone', raw.milestone !== null],
    ['since', raw.since !== null],
    ['full-every', raw.fullEvery !== null],
    ['report-titles', !raw.reportTitles],
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
    inputWarnings: requiredWarnings(raw.required),
  };
  if (raw.scope === 'repository') {
    const checkpoint = raw.since === 'last-run' ? workspacePath('checkpoint', raw.checkpoint, event.workspace) : null;
    if (checkpoint !== null && reportFile === checkpoint) throw new UsageError('report-file and checkpoint must be different files');
    return {
      ...shared,
      scope: 'repository',
      filter: { state: raw.state ?? 'all', labels: raw.labels, milestone: raw.milestone },
      checkpoint,
      fullEveryMs: raw.fullEvery,
      titles: raw.reportTitles,
    };
  }
  const run = runUrl();
  const status = raw.status ? { context: raw.statusContext, targetUrl: run } : null;
  const trigger = triggerOf(event, common.issueNumber);
  // An event that never names an item (workflow_dispatch, schedule, push) needs issue-number; a
  // workflow_run that names no commit touches nothing, and says so.
  if (trigger.kind === 'none' && event.name !== 'workflow_run')
    throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue or pull request`);
  return { ...shared, scope: 'item', trigger, comment: raw.comment, status, runUrl: run, gateName: raw.statusContext };
}

/** The run's page: GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID, when the runner says all three. */
function runUrl(): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = process.env;
  return server && repository && run ? `${server}/${repository}/actions/runs/${run}` : null;
}

type Payload = {
  workflow_run?: { head_sha?: unknown; head_branch?: unknown; head_repository?: { full_name?: unknown } | null };
};

/** The trigger an event and the issue-number input name. */
function triggerOf(event: EventInfo, named: number | null): Trigger {
  const run = (event.payload as Payload).workflow_run;
  if (event.name === 'workflow_run' && typeof run?.head_sha === 'string' && run.head_sha !== '') {
    const repo = run.head_repository?.full_name;
    return {
      kind: 'commit',
      sha: run.head_sha,
      headRepository: typeof repo === 'string' ? repo : null,
      headBranch: typeof run.head_branch === 'string' ? run.head_branch : null,
      claimed: named,
    };
  }
  const subject = eventSubject(event);
  // On a PR's event, issue-number adds the workflow author's issue to the PR's own.
  if (subject.pull !== null) return { kind: 'pull', number: subject.pull, named };
  if (named !== null) return { kind: 'named', number: named };
  if (subject.issue !== null) return { kind: 'issue', number: subject.issue };
  return { kind: 'none', event: event.name };
}
