/** forge-check's inputs: one schema (the common inputs plus its own), checked before any API call. */
import { splitList } from '../common/lists.js';
import { UsageError } from '../common/errors.js';
import { eventSubject, type EventInfo } from '../common/event.js';
import {
  bool,
  COMMON_INPUTS,
  duration,
  oneOf,
  optional,
  optionalOneOf,
  readInputs,
  resolveCommon,
  text,
  type Getter,
  type Parser,
} from '../common/inputs.js';
import { resolveAnswer, resolvePipeline, routeRules, stagesOn, type Pipeline, type PipelineAnswer } from '../common/pipeline.js';
import { parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { workspacePath } from '../common/paths.js';
import { repoName, type Repo } from '../common/repo.js';
import { parseRequired, requiredWarnings, VALIDATIONS, VERDICT_POLICIES, type GateSettings } from '../decision/evaluate.js';
import type { RepositoryFilter } from './repository/logic.js';

/**
 * item: the issue or PR of the event; pull-requests: the PR gate (forge-gate) —
 * only PRs are gated, and an issue no open PR closes is left alone;
 * repository: every matching issue.
 */
export const SCOPES = ['item', 'pull-requests', 'repository'] as const;
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
  /** What the step's inputs set; a null key comes from the pipeline file, else the built-in defaults (settle). */
  given: {
    required: string[] | null;
    trust: TrustPolicy | null;
    exemptAuthors: ReadonlySet<string> | null;
    exemptLabels: ReadonlySet<string> | null;
  };
  /** The required types of an issue on its own: the stages the pipeline writes on the issue (gate.required is a PR's). */
  requiredOnIssue: string[];
  /** Where the settings came from (`.github/forge.yml on main`); null for the built-in defaults. */
  pipelineSource: string | null;
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
  | { kind: 'group'; sha: string; headRef: string; base: string }
  | { kind: 'gone'; number: number; why: string }
  | { kind: 'none'; event: string };

/** Where the verdict is written as a commit status, when it is. */
export interface StatusSettings {
  context: string;
  /** The run's page, the status's link. */
  targetUrl: string | null;
  /** This run's id (GITHUB_RUN_ID): a status linked to a newer run of this repository is never overwritten. */
  runId: number | null;
}

/** Who and what is exempt from the gate (a dependency bump, a docs PR): logins and labels, lower-cased. */
export interface Exemptions {
  authors: ReadonlySet<string>;
  labels: ReadonlySet<string>;
}

/** One work item, or the PRs an event touches: each PR checked through the issues it closes. */
export interface ItemInputs extends SharedInputs {
  /** pull-requests: only PRs are gated (forge-gate); an issue that no open PR closes is left alone. */
  scope: 'item' | 'pull-requests';
  exempt: Exemptions;
  trigger: Trigger;
  /** Keep one comment with the verdict on each checked PR (or the issue). */
  comment: boolean;
  /** A commit status on each checked PR's head commit; null when `status: false`. */
  status: StatusSettings | null;
  /** The run's page, linked from the status comment and the status. */
  runUrl: string | null;
  /** The gate's name (status-context): its status and its comment's marker carry it, so two gates keep two of each. */
  gateName: string;
  staleReviews: StaleReviews;
  /**
   * This run's own push, when it runs for a pull_request `synchronize`: the
   * PR, the commit the push made its head, and when (the payload's
   * `pull_request.updated_at`). It dates the head for REVIEWER comments.
   */
  push: { pull: number; after: string; at: string } | null;
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

/** `required`: types or a preset; empty leaves it to the pipeline's chain. */
function requiredTypes(): Parser<string[] | null> {
  return (raw) => (raw.trim() === '' ? null : parseRequired(raw));
}

function labelList(): Parser<string[]> {
  return (raw) => splitList(raw);
}

/** A login as GitHub spells one (a bot's ends in [bot]); compared without case. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:_[A-Za-z0-9]{1,39})?(?:\[bot\])?$/;

/** `exempt-authors`: logins, comma- or newline-separated, an @ allowed; empty leaves it to the pipeline. */
function loginSet(): Parser<ReadonlySet<string> | null> {
  return (raw, name) => {
    if (raw.trim() === '') return null;
    const out = new Set<string>();
    for (const entry of splitList(raw)) {
      const login = entry.replace(/^@/, '');
      if (!LOGIN.test(login)) throw new UsageError(`input "${name}": ${JSON.stringify(entry)} is not a GitHub login`);
      out.add(login.toLowerCase());
    }
    return out;
  };
}

/** `exempt-labels`: label names (GitHub compares them without case); empty leaves it to the pipeline. */
function labelSet(): Parser<ReadonlySet<string> | null> {
  return (raw) => (raw.trim() === '' ? null : new Set(splitList(raw).map((l) => l.toLowerCase())));
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

/**
 * dismiss: a REVIEWER about an older head commit — in a review of it, or
 * posted before the current head reached the PR — is passed over, as GitHub's
 * "dismiss stale approvals" does; keep: it counts.
 */
export const STALE_REVIEWS = ['dismiss', 'keep'] as const;
export type StaleReviews = (typeof STALE_REVIEWS)[number];

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
  exemptAuthors: { input: 'exempt-authors', parse: loginSet() },
  verdicts: { input: 'verdicts', parse: oneOf(VERDICT_POLICIES, 'enforce') },
  staleReviews: { input: 'stale-reviews', parse: oneOf(STALE_REVIEWS, 'dismiss') },
  exemptLabels: { input: 'exempt-labels', parse: labelSet() },
};

type Raw = ReturnType<typeof readInputs<typeof SCHEMA>>;

/** Inputs that only mean something for one scope are refused in the other, rather than silently ignored. */
function checkScope(raw: Raw, get: Getter): void {
  if (raw.scope === 'repository') {
    if (raw.issueNumber !== null) throw new UsageError('issue-number does not apply to scope: repository (it checks every matching issue)');
    if (raw.comment) throw new UsageError('comment: true needs scope: item (the comment is kept on the checked issue or PR)');
    if (raw.status) throw new UsageError('status: true needs scope: item (the status is written on each checked PR)');
    if (raw.fullEvery !== null && raw.since === null) throw new UsageError('full-every: only with scope: repository and since: last-run');
    if (raw.exemptAuthors !== null || raw.exemptLabels !== null)
      throw new UsageError('exempt-authors and exempt-labels apply to a gate (scope: item or pull-requests), not to scope: repository');
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
  if (set.length > 0) throw new UsageError(`${set.join(', ')}: only with scope: repository (scope is ${raw.scope})`);
}

export function readCheckInputs(get: Getter, event: EventInfo): CheckInputs {
  const raw = readInputs(SCHEMA, get);
  checkScope(raw, get);
  const common = resolveCommon(raw, event);
  const reportFile = raw.reportFile === null ? null : workspacePath('report-file', raw.reportFile, event.workspace);
  const given = { required: raw.required, trust: common.trustInput, exemptAuthors: raw.exemptAuthors, exemptLabels: raw.exemptLabels };
  // Until the pipeline file is read (settle), the built-in defaults stand in for what the inputs leave empty.
  const defaults = resolvePipeline(null).pipeline;
  const shared: SharedInputs = {
    token: common.token,
    repo: common.repo,
    gate: {
      required: raw.required ?? defaults.chain.map((s) => s.type),
      validation: raw.validation,
      trust: common.trust,
      verdicts: raw.verdicts,
      // A given `required` is the route's chain too; left empty, the pipeline's chain is (settle).
      chain: raw.required ?? defaults.chain.map((s) => s.type),
      rules: routeRules(defaults),
      repository: repoName(common.repo),
    },
    failOnViolation: raw.failOnViolation,
    reportFile,
    inputWarnings: raw.required === null ? [] : requiredWarnings(raw.required),
    given,
    requiredOnIssue: raw.required ?? stagesOn(defaults, 'issue'),
    pipelineSource: null,
  };
  if (raw.scope === 'repository') {
    // An audit judges issues: the issue's stages are what it requires.
    shared.gate = { ...shared.gate, required: shared.requiredOnIssue };
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
  const runId = /^\d{1,20}$/.test(process.env.GITHUB_RUN_ID ?? '') ? Number(process.env.GITHUB_RUN_ID) : null;
  const status = raw.status ? { context: raw.statusContext, targetUrl: run, runId } : null;
  // An event that names no item (push, schedule, a dispatch without issue-number) touches
  // nothing: the logic says so in one notice and asks GitHub nothing.
  const trigger = triggerOf(event, common.issueNumber);
  return {
    ...shared,
    scope: raw.scope,
    exempt: exemptionsOf(given, defaults),
    trigger,
    comment: raw.comment,
    status,
    runUrl: run,
    gateName: raw.statusContext,
    staleReviews: raw.staleReviews,
    push: pushOf(event),
  };
}

/** A `synchronize` event's push: the PR, the new head, and when GitHub recorded the PR's change. */
function pushOf(event: EventInfo): ItemInputs['push'] {
  if (event.name !== 'pull_request' && event.name !== 'pull_request_target') return null;
  const p = event.payload as { action?: unknown; after?: unknown; pull_request?: { number?: unknown; updated_at?: unknown } };
  if (p.action !== 'synchronize' || typeof p.after !== 'string' || !/^[0-9a-f]{40}$/i.test(p.after)) return null;
  const pull = p.pull_request?.number;
  const at = p.pull_request?.updated_at;
  if (typeof pull !== 'number' || typeof at !== 'string' || Number.isNaN(Date.parse(at))) return null;
  return { pull, after: p.after.toLowerCase(), at };
}

/** The run's page: GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID, when the runner says all three. */
function runUrl(): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = process.env;
  return server && repository && run ? `${server}/${repository}/actions/runs/${run}` : null;
}

type Payload = {
  action?: unknown;
  workflow_run?: { head_sha?: unknown; head_branch?: unknown; head_repository?: { full_name?: unknown } | null };
  merge_group?: { head_sha?: unknown; head_ref?: unknown; base_ref?: unknown };
  issue?: { number?: unknown };
  changes?: { new_issue?: { html_url?: unknown; number?: unknown }; new_repository?: { full_name?: unknown } };
};

/** An issue that is no longer here: deleted, or transferred (the payload says where to). */
function goneIssue(event: EventInfo): Trigger | null {
  const p = event.payload as Payload;
  if (event.name !== 'issues' || typeof p.issue?.number !== 'number') return null;
  const number = p.issue.number;
  if (p.action === 'deleted') return { kind: 'gone', number, why: `#${number} was deleted` };
  if (p.action !== 'transferred') return null;
  const to = p.changes?.new_repository?.full_name;
  const url = p.changes?.new_issue?.html_url;
  const where = typeof url === 'string' ? url : typeof to === 'string' ? to : 'another repository';
  return { kind: 'gone', number, why: `#${number} was transferred to ${where}` };
}

/** The branch a merge group merges into, from its full ref (refs/heads/main → main). */
function branchOf(ref: string): string {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}

/** The trigger an event and the issue-number input name. */
function triggerOf(event: EventInfo, named: number | null): Trigger {
  const p = event.payload as Payload;
  const group = p.merge_group;
  if (event.name === 'merge_group' && typeof group?.head_sha === 'string' && /^[0-9a-f]{40}$/i.test(group.head_sha))
    return {
      kind: 'group',
      sha: group.head_sha,
      headRef: typeof group.head_ref === 'string' ? group.head_ref : '',
      base: typeof group.base_ref === 'string' ? branchOf(group.base_ref) : '',
    };
  const gone = goneIssue(event);
  if (gone && named === null) return gone;
  const run = p.workflow_run;
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

/** The exemptions in force: the inputs' when given, else the pipeline's (logins and labels lower-cased). */
function exemptionsOf(given: SharedInputs['given'], p: Pipeline): Exemptions {
  return {
    authors: given.exemptAuthors ?? new Set(p.exemptAuthors.map((l) => l.replace(/^@/, '').toLowerCase())),
    labels: given.exemptLabels ?? new Set(p.exemptLabels.map((l) => l.toLowerCase())),
  };
}

/** Whether the run must read the pipeline file: some setting is left to it. */
export function needsPipeline(inputs: CheckInputs): boolean {
  const g = inputs.given;
  return (
    g.required === null || g.trust === null || (inputs.scope !== 'repository' && (g.exemptAuthors === null || g.exemptLabels === null))
  );
}

/**
 * The inputs with the pipeline file's settings where the step left them
 * empty: input over file over the built-in defaults, key by key. A PR is held
 * to the whole chain; an issue on its own (and the repository audit) to the
 * stages the pipeline writes on the issue.
 */
export function settle<T extends CheckInputs>(inputs: T, file: PipelineAnswer): T {
  const resolved = resolveAnswer(file);
  const p = resolved.pipeline;
  const g = inputs.given;
  const onIssue = g.required ?? stagesOn(p, 'issue');
  const gate = {
    ...inputs.gate,
    required: inputs.scope === 'repository' ? onIssue : (g.required ?? p.chain.map((s) => s.type)),
    trust: g.trust ?? parseTrustPolicy(p.trustedAuthors),
    chain: g.required ?? p.chain.map((s) => s.type),
    rules: routeRules(p),
  };
  const settled = { ...inputs, gate, requiredOnIssue: onIssue, pipelineSource: resolved.source };
  return (inputs.scope === 'repository' ? settled : { ...settled, exempt: exemptionsOf(g, p) }) as T;
}
