/**
 * The conformance decision (spec §7): for each work item, is every required
 * type present, complete, valid and written by a trusted author — and does the
 * route (next-phase.ts), on the same threads, let it pass? Pure: the
 * forge-check action and `forge check` both call this; only the reading differs.
 */
import { anyTerminal, codeSpan, currentState, ENDED_WITHOUT_BUILD, getField, stripCodeSpan } from '../codec/index.js';
import { collectAnnotations, type Ignored, type Located } from '../common/trusted-annotations.js';
import type { Approval, WorkItem } from '../common/work-item.js';
import { counts, type TrustPolicy } from '../common/trust.js';
import type { BlockingField, StaleAction } from '../common/pipeline.js';
import { collectCandidates } from './collect.js';
import { staleStages } from './digest.js';
import { route, routeHoldsGate, type NextPhase, type StaleStage } from './next-phase.js';
import { select } from './select.js';
import { RANK, type TypeStatus } from './status.js';
import { reviewDomain, reviewerName, verdictOf } from './verdicts.js';

export { RANK, STATUS_ICON, type TypeStatus } from './status.js';
export { PRESETS, VALIDATIONS, parseRequired, requiredWarnings, type Validation } from './required.js';
import type { Validation } from './required.js';

export interface TypeReport {
  type: string;
  status: TypeStatus;
  /** The annotation that decided the status (the best one found), if any. */
  author: string | null;
  url: string | null;
  errors: string[];
}

export interface ItemReport {
  number: number;
  kind: 'issue' | 'pull';
  url: string;
  state: string;
  terminal: boolean;
  /** Set when the item ended without a build and so is not held to `required`. */
  exempt: string | null;
  types: TypeReport[];
  annotations: Array<{
    type: string;
    state: string;
    valid: boolean;
    author: string | null;
    association: string;
    url: string;
    errors: string[];
  }>;
  ignored: Array<Omit<Ignored, 'author'> & { author: string | null; association: string }>;
}

export interface CheckResult {
  conforming: boolean;
  /** Types present and complete whose verdict blocks (REVIEWER's CHANGES_REQUESTED, INVESTIGATOR's INVALID). */
  blocked?: string[];
  missing: string[];
  incomplete: string[];
  invalid: string[];
  state: string;
  terminal: boolean;
  items: ItemReport[];
  /** One line per problem, for the failure message. */
  problems: string[];
  /** What the gate did not follow or count, and why (untrusted PR author, too many references, …). */
  notes: string[];
  /** Set when the gated item is exempt (exempt-authors, exempt-labels): why, starting with `exempt`. */
  exempt?: string;
  /** What the route says runs next on the same threads (next-phase.ts): the gate never passes what it holds. */
  route?: NextPhase;
  /** Stages written against an upstream that changed since. */
  stale?: StaleStage[];
  /**
   * Set when all that keeps the item from conforming is the next stage, which the pipeline's agent runs (its workflow
   * is mapped): that stage. A gate says pending, not failure: nobody has to act, the pipeline is on it.
   */
  awaiting?: string;
}

function statusOf(a: Located, validation: Validation): TypeStatus {
  if (a.annotation.sentinelState !== 'complete') return 'incomplete';
  if (validation === 'presence') return 'ok';
  if (!a.annotation.valid) return 'invalid';
  return validation === 'template' && a.annotation.templateGaps.length > 0 ? 'invalid' : 'ok';
}

/** What to tell the maintainer about the annotation that decided a type's status. */
function problemsOf(a: Located, status: TypeStatus, validation: Validation): string[] {
  if (status === 'ok') return [];
  const { errors, templateGaps } = a.annotation;
  return validation === 'template' ? [...errors, ...templateGaps] : errors;
}

/** The PR a gate runs for: a BUILDER counts for it only on the PR itself or for its head branch. */
export interface PullContext {
  number: number;
  head: string;
  /**
   * False when the head branch lives in a fork whose owner is not trusted: a
   * BUILDER's bare branch name names a branch of this repository, and a fork's
   * branch of the same name does not borrow it.
   */
  headHere?: boolean;
  /** owner/name of the head repository, for the reason when it is not here. */
  headRepository?: string | null;
  /** Its head commit's id, and its submitted approving reviews: what a sign-off is judged by. */
  sha?: string;
  approvals?: readonly Approval[];
}

/** Whether the verdicts annotations carry are enforced (CHANGES_REQUESTED, INVALID block) or only their presence counts. */
export type VerdictPolicy = 'enforce' | 'ignore';
export const VERDICT_POLICIES: readonly VerdictPolicy[] = ['enforce', 'ignore'];

/** What every item is held to: the required types, how strictly, and whose annotations count. */
export interface GateSettings {
  required: string[];
  validation: Validation;
  trust: TrustPolicy;
  /** Default enforce. */
  verdicts?: VerdictPolicy;
  /** The pipeline's chain, in its order (the route's stages); default `required`. */
  chain?: readonly string[];
  /** The pipeline file's rules: blocking field values per type, and what a stale stage does (default rerun). */
  rules?: {
    blocks?: ReadonlyMap<string, readonly BlockingField[]>;
    stale?: StaleAction;
    reviewerOn?: 'issue' | 'pull';
    /** The stages the pipeline file maps to a workflow: an agent runs them, so a gate waiting on one says pending. */
    mapped?: ReadonlySet<string>;
    /** A person other than the BUILDER's author must approve the PR's head (the pipeline file's `sign-off`). */
    signOff?: boolean;
  };
  /**
   * owner/name of the repository the items are in, as GitHub spells it: the
   * annotations' ids in a Context digest name it. Without it, no stage is
   * judged stale (a digest cannot be recomputed).
   */
  repository?: string;
}

export interface EvaluateOptions extends GateSettings {
  pull?: PullContext | null;
  /** Annotations the gathering passed over (a dismissed review), reported with every item. */
  passedOver?: Ignored[];
  /**
   * Trusted REVIEWERs about an older head commit: not present for the head,
   * but the newest of a domain still decides whether it blocks — a push alone
   * never lifts CHANGES_REQUESTED; a REVIEWER of the head does.
   */
  staleReviewers?: Located[];
}

/**
 * A gate's evidence must be about what it gates: a BUILDER on an issue the PR
 * closes counts only when its Branch is the PR's head branch. Others are
 * moved to `ignored`, with the reason.
 */
function splitForeignBuilds(item: WorkItem, found: Located[], pull: PullContext): { kept: Located[]; foreign: Ignored[] } {
  const kept: Located[] = [];
  const foreign: Ignored[] = [];
  for (const a of found) {
    if (a.annotation.type !== 'BUILDER' || isThePull(item, pull)) {
      kept.push(a);
      continue;
    }
    const branch = stripCodeSpan(getField(a.annotation.fields, 'Branch') ?? '').trim();
    const named = branch !== '' && branch === pull.head;
    if (named && pull.headHere !== false) {
      kept.push(a);
      continue;
    }
    // Both names are shown as code spans sized to their content: a branch
    // name (the PR's is the stranger's) may hold backticks or markup.
    const reason = named
      ? `BUILDER on #${a.item} is for ${codeSpan(branch)} of this repository; this PR's ${codeSpan(pull.head)} is in ${codeSpan(pull.headRepository ?? 'another repository')}`
      : `BUILDER on #${a.item} is for ${branch ? codeSpan(branch) : '(no branch)'}; this PR is ${codeSpan(pull.head)}`;
    foreign.push({ kind: 'foreign-build', type: 'BUILDER', item: a.item, url: a.url, author: a.author, reason });
  }
  return { kept, foreign };
}

/** An item is (repository, number): another repository's #5 is never PR #5. */
function isThePull(item: WorkItem, pull: PullContext): boolean {
  return !item.foreign && item.number === pull.number;
}

/**
 * REVIEWER is written on the pull request (§4): one on an issue the PR
 * closes is about no code this PR holds, and is passed over.
 */
function splitMisplacedReviews(
  item: WorkItem,
  found: Located[],
  pull: PullContext,
  on: 'issue' | 'pull' = 'pull',
): { kept: Located[]; misplaced: Ignored[] } {
  // The pipeline file may place REVIEWER on the issue (`on: issue`): there it is where the team writes it.
  if (isThePull(item, pull) || on === 'issue') return { kept: found, misplaced: [] };
  const kept = found.filter((a) => a.annotation.type !== 'REVIEWER');
  const misplaced = found
    .filter((a) => a.annotation.type === 'REVIEWER')
    .map(
      (a): Ignored => ({
        kind: 'wrong-place',
        type: 'REVIEWER',
        item: a.item,
        url: a.url,
        author: a.author,
        reason: `REVIEWER on #${a.item} is passed over: REVIEWER is written on the pull request (§4), not on the issue it closes`,
      }),
    );
  return { kept, misplaced };
}

/** When an annotation was written: its comment's (or review's) time; a body counts as oldest. */
function writtenAt(a: Located): string {
  return a.comment?.createdAt ?? '';
}

/** The newest complete annotation of `type` among `found` with `pick` true, by when it was written (later in the thread wins a tie). */
function newest(found: readonly Located[], type: string, pick: (a: Located) => string): Map<string, Located> {
  const out = new Map<string, Located>();
  for (const a of found) {
    if (a.annotation.type !== type || a.annotation.sentinelState !== 'complete') continue;
    const key = pick(a);
    const seen = out.get(key);
    if (!seen || writtenAt(a) >= writtenAt(seen)) out.set(key, a);
  }
  return out;
}

interface Block {
  type: string;
  /** Short, for the status description: `REVIEWER (SECURITY) requests changes`. */
  short: string;
  /** The problem line, naming where. */
  line: string;
}

/**
 * What the evidence says, not only that it is there: per review domain the
 * newest trusted REVIEWER decides, and CHANGES_REQUESTED blocks; an
 * INVESTIGATOR that found the issue INVALID blocks a PR that closes it.
 */
function blockingVerdicts(
  label: string,
  item: WorkItem,
  found: readonly Located[],
  pull: PullContext | null,
  stale: readonly Located[] = [],
): Block[] {
  const out: Block[] = [];
  for (const [domain, a] of newest([...stale, ...found], 'REVIEWER', (a) => reviewDomain(a.annotation)))
    if (verdictOf(a.annotation) === 'CHANGES_REQUESTED')
      out.push(
        stale.includes(a)
          ? {
              type: 'REVIEWER',
              short: `${reviewerName(domain)} requests changes`,
              line: `${label}: ${reviewerName(domain)} by ${a.author.login ?? '(unknown)'} requested changes on an older commit, and nobody has reviewed the head since: a push alone does not lift it — ${a.url}`,
            }
          : {
              type: 'REVIEWER',
              short: `${reviewerName(domain)} requests changes`,
              line: `${label}: ${reviewerName(domain)} by ${a.author.login ?? '(unknown)'} requests changes (CHANGES_REQUESTED) — ${a.url}`,
            },
      );
  if (pull !== null && !isThePull(item, pull)) {
    const investigation = newest(
      found.filter((a) => a.item === item.number),
      'INVESTIGATOR',
      () => '',
    ).get('');
    if (investigation && verdictOf(investigation.annotation) === 'INVALID')
      out.push({
        type: 'INVESTIGATOR',
        short: `INVESTIGATOR found #${item.number} INVALID`,
        line: `${label}: INVESTIGATOR by ${investigation.author.login ?? '(unknown)'} found the issue INVALID (it should be closed, not built) — ${investigation.url}`,
      });
  }
  return out;
}

/** The best annotation of `type` among those found decides its status: complete and valid beats invalid beats incomplete. */
function bestOf(found: readonly Located[], type: string, validation: Validation): TypeReport {
  let best: Located | null = null;
  let bestStatus: TypeStatus = 'missing';
  for (const a of found) {
    if (a.annotation.type !== type) continue;
    const s = statusOf(a, validation);
    if (best === null || RANK[s] > RANK[bestStatus]) {
      best = a;
      bestStatus = s;
    }
  }
  return {
    type,
    status: bestStatus,
    author: best?.author.login ?? null,
    url: best?.url ?? null,
    errors: best ? problemsOf(best, bestStatus, validation) : [],
  };
}

/** Why a type counts as missing although someone wrote one: another PR's build, a stale review, or an untrusted author. */
function missingBecause(type: string, ignored: readonly Ignored[]): string {
  const passedOver = ignored.filter((i) => i.type === type);
  const foreign = passedOver.filter((i) => i.kind !== 'untrusted').map((i) => i.reason);
  if (foreign.length > 0) return ` (${foreign.slice(0, 3).join('; ')}${foreign.length > 3 ? `; and ${foreign.length - 3} more` : ''})`;
  return passedOver.length > 0 ? ' (only untrusted authors wrote one; ignored)' : '';
}

/** The failure line for a type that is not ok, or null. */
function problemOf(label: string, t: TypeReport, ignored: readonly Ignored[]): string | null {
  if (t.status === 'missing') return `${label}: ${t.type} is missing${missingBecause(t.type, ignored)}`;
  if (t.status === 'incomplete') return `${label}: ${t.type} is not complete — ${t.errors[0] ?? 'no completion sentinel'}`;
  if (t.status === 'invalid') return `${label}: ${t.type} is invalid — ${t.errors.join('; ')}`;
  return null;
}

interface ItemVerdict {
  report: ItemReport;
  problems: string[];
  notes: string[];
  blocked: string[];
}

function evaluateItem(item: WorkItem, sharedFound: ReturnType<typeof collectAnnotations>[], options: EvaluateOptions): ItemVerdict {
  const notes: string[] = [];
  const own = collectAnnotations(item, options.trust);
  const pull = options.pull ?? null;
  const builds = pull ? splitForeignBuilds(item, own.found, pull) : { kept: own.found, foreign: [] };
  const reviews = pull ? splitMisplacedReviews(item, builds.kept, pull, options.rules?.reviewerOn) : { kept: builds.kept, misplaced: [] };
  const found = [...reviews.kept, ...sharedFound.flatMap((s) => s.found)];
  const ignored = [
    ...own.ignored,
    ...builds.foreign,
    ...reviews.misplaced,
    ...sharedFound.flatMap((s) => s.ignored),
    ...(options.passedOver ?? []),
  ];
  const endedLabel = item.labels.find((l) => ENDED_WITHOUT_BUILD.has(l)) ?? null;
  // An issue that ended without a build is exempt — but a PR closing it *is* a build.
  const forPull = pull !== null && !isThePull(item, pull);
  const exempt = endedLabel && !forPull ? `${endedLabel}: the work ended without a build, so required types are not checked (§7.2)` : null;
  if (endedLabel && forPull)
    notes.push(
      `#${item.number} is labelled ${endedLabel} (ended without a build), but PR #${pull.number} closes it and is a build: held to required`,
    );

  const types: TypeReport[] = options.required.map((type) =>
    exempt ? { type, status: 'not-required' as const, author: null, url: null, errors: [] } : bestOf(found, type, options.validation),
  );
  const label = `${item.kind === 'pull' ? 'PR' : 'issue'} #${item.number}`;
  const blocks = exempt || options.verdicts === 'ignore' ? [] : blockingVerdicts(label, item, found, pull, options.staleReviewers ?? []);
  for (const b of blocks) {
    const t = types.find((x) => x.type === b.type);
    if (t && t.status === 'ok') {
      t.status = 'blocked';
      t.errors = [...t.errors, b.short];
    }
  }
  const problems = [...types.map((t) => problemOf(label, t, ignored)).filter((p): p is string => p !== null), ...blocks.map((b) => b.line)];
  const report: ItemReport = {
    number: item.number,
    kind: item.kind,
    url: item.url,
    state: currentState(item.labels),
    terminal: anyTerminal(item.labels),
    exempt,
    types,
    annotations: found.map((a) => ({
      type: a.annotation.type,
      state: a.annotation.sentinelState,
      valid: a.annotation.valid,
      author: a.author.login,
      association: a.author.association,
      url: a.url,
      errors: a.annotation.errors,
    })),
    ignored: ignored.map(({ author, ...rest }) => ({ ...rest, author: author.login, association: author.association })),
  };
  return { report, problems, notes, blocked: blocks.map((b) => b.short) };
}

/**
 * Evaluate `items` (the issues being checked). `shared` are extra threads
 * whose annotations count for every item — the PR itself, where REVIEWER lives.
 */
export function evaluate(items: WorkItem[], shared: WorkItem[], options: EvaluateOptions): CheckResult {
  const sharedFound = shared.map((s) => collectAnnotations(s, options.trust));
  const verdicts = items.map((item) => evaluateItem(item, sharedFound, options));
  const reports = verdicts.map((v) => v.report);
  const typesWith = (status: TypeStatus) => [
    ...new Set(reports.flatMap((r) => r.types.filter((t) => t.status === status).map((t) => t.type))),
  ];
  const problems = verdicts.flatMap((v) => v.problems);
  const blocked = verdicts.flatMap((v) => v.blocked);
  const routed = routeOfGate(items, shared, options, reports);
  if (routed.hold !== null) {
    problems.push(routed.hold.line);
    blocked.push(routed.hold.short);
  }
  const signOff = signOffMissing(options, reports, verdicts);
  if (signOff !== null) {
    problems.push(signOff.line);
    blocked.push(signOff.short);
  }
  for (const s of routed.stale) {
    problems.push(
      `${s.type} is stale — it was written against context ${s.recorded}, and what it reads is now ${s.current}: it runs again — ${s.url}`,
    );
    blocked.push(`${s.type} is stale`);
  }
  const first = reports[0];
  const awaiting = problems.length > 0 ? awaitingAgent(routed, options, verdicts, reports) : null;
  return {
    conforming: problems.length === 0,
    ...(awaiting ? { awaiting } : {}),
    ...(routed.route ? { route: routed.route } : {}),
    ...(routed.stale.length > 0 ? { stale: routed.stale } : {}),
    blocked: [...new Set(blocked)],
    missing: typesWith('missing'),
    incomplete: typesWith('incomplete'),
    invalid: typesWith('invalid'),
    state: first?.state ?? 'none',
    terminal: first?.terminal ?? false,
    items: reports,
    problems,
    notes: verdicts.flatMap((v) => v.notes),
  };
}

/**
 * The pipeline file's sign-off: a PR is held until a trusted person — not a bot, and not whoever wrote its BUILDER —
 * approved its head commit. Null when it is not asked for, not a PR, exempt, or given.
 */
function signOffMissing(
  options: EvaluateOptions,
  reports: readonly ItemReport[],
  verdicts: readonly ItemVerdict[],
): { line: string; short: string } | null {
  const pull = options.pull;
  if (!options.rules?.signOff || !pull || reports.some((r) => r.exempt !== null) || verdicts.length === 0) return null;
  const builders = new Set(
    reports.flatMap((r) => r.annotations.filter((a) => a.type === 'BUILDER' && a.author).map((a) => (a.author as string).toLowerCase())),
  );
  const given = (pull.approvals ?? []).find(
    (a) =>
      a.author.login !== null &&
      !a.author.login.endsWith('[bot]') &&
      !builders.has(a.author.login.toLowerCase()) &&
      counts('review', a.author, options.trust) &&
      (pull.sha === undefined || a.commit === pull.sha),
  );
  if (given) return null;
  const by = builders.size > 0 ? ` other than ${[...builders].join(', ')}, who wrote the BUILDER` : '';
  return {
    short: 'sign-off missing',
    line: `PR #${pull.number}: the pipeline asks a person's sign-off (sign-off: true): an approving review of its head commit by a trusted person${by}; none yet`,
  };
}

/**
 * The stage an agent is about to run, when it is all that keeps the item from conforming: the route's next phase is
 * a stage the pipeline maps to a workflow, and every problem is that stage, or one after it an agent runs too, not
 * written yet (or written partially).
 * Anything else — a verdict that blocks, an invalid or stale annotation, another stage missing, needs-human, close —
 * needs someone, and stays a failure.
 */
function awaitingAgent(
  routed: ReturnType<typeof routeOfGate>,
  options: EvaluateOptions,
  verdicts: readonly ItemVerdict[],
  reports: readonly ItemReport[],
): string | null {
  const next = routed.route?.phase;
  if (!next || !options.rules?.mapped?.has(next) || routed.stale.length > 0) return null;
  if (verdicts.some((v) => v.blocked.length > 0)) return null;
  // What is still open is that stage and the ones after it, each run by an agent, each not written yet (or partially).
  const chain = options.chain ?? options.required;
  const from = chain.indexOf(next);
  const open = reports.flatMap((r) => r.types.filter((t) => t.status !== 'ok' && t.status !== 'not-required'));
  const agentsRun = (t: TypeReport) =>
    (t.status === 'missing' || t.status === 'incomplete') && options.rules?.mapped?.has(t.type) === true && chain.indexOf(t.type) >= from;
  return open.every(agentsRun) ? next : null;
}

/**
 * The route on the threads the gate read — the same rules forge-context
 * routes by (next-phase.ts) — and what of it holds the gate: a work item the
 * route sends to `close`, to a person, or to a stage up to the build never
 * passes; nor does one with a stale stage when the file says `stale: rerun`.
 * An exempt item, and a gate told to ignore verdicts, are held by nothing here.
 */
function routeOfGate(
  items: readonly WorkItem[],
  shared: readonly WorkItem[],
  options: EvaluateOptions,
  reports: readonly ItemReport[],
): { route: NextPhase | null; hold: Block | null; stale: StaleStage[] } {
  if (options.verdicts === 'ignore' || reports.some((r) => r.exempt !== null) || items.length === 0)
    return { route: null, hold: null, stale: [] };
  const repository = options.repository ?? '';
  const threads = [...items, ...shared.filter((s) => !items.includes(s))].map((item) => ({
    item,
    repository: item.foreign ?? repository,
    scope: 'own' as const,
  }));
  const sel = select(collectCandidates(threads, options.trust));
  const chain = options.chain ?? options.required;
  const stale = options.repository && options.rules?.stale !== 'ignore' ? staleStages(sel, chain) : [];
  const labels = items.flatMap((i) => i.labels);
  const next = route({ chain, labels, sel, blocks: options.rules?.blocks, stale, reviewerOn: options.rules?.reviewerOn });
  // Held already by the gate's own rules: a stage it finds missing or not ok, a change request, a stale stage.
  const said =
    next.rule === 'changes requested' ||
    stale.some((s) => s.type === next.phase) ||
    reports.some((r) =>
      r.types.some((t) => t.status !== 'ok' && (t.type === next.phase || (next.phase === 'close' && t.type === 'INVESTIGATOR'))),
    );
  if (!routeHoldsGate(chain, next.phase) || said) return { route: next, hold: null, stale };
  const where = items.map((i) => `${i.kind === 'pull' ? 'PR' : 'issue'} #${i.number}`).join(', ');
  const short = next.phase === 'close' || next.phase === 'needs-human' ? `routed to ${next.phase}` : `${next.phase} runs next`;
  return {
    route: next,
    hold: { type: next.phase, short, line: `${where}: the pipeline routes this work item to ${next.phase} — ${next.why}` },
    stale,
  };
}
