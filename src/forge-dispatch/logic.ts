/**
 * forge-dispatch's logic: the router that acts. Read the pipeline file and
 * check every workflow it maps a stage to (before anything is written); then,
 * per work item, read it as forge-context does and take the one route
 * (decision/next-phase.ts): a mapped stage with no live claim is claimed (a
 * FORGE:CLAIM, read back: the earliest claim wins) and its workflow started
 * with workflow_dispatch; a stage out of attempts goes to a person; `close`
 * and `needs-human` are acted on when the file's `act-on` says so. GitHub is
 * the only store: claims and attempts are read from the thread.
 */
import { currentState, emit, NEEDS_HUMAN, TERMINAL_LABELS } from '../codec/index.js';
import { NEEDS_HUMAN_WHY } from '../decision/next-phase.js';
import { sameText } from '../common/line-ends.js';
import { UsageError } from '../common/errors.js';
import { formatPeriod } from '../common/periods.js';
import { resolveAnswer, routeRules, type PipelineAnswer, type Resolved, type Stage } from '../common/pipeline.js';
import { counts, parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { taggedAuthors, trustedOfType } from '../common/trusted-annotations.js';
import { admissionOf, admitPolicy, admittingLabels, admittingLabelsOn, authorAdmitted, type Admission } from '../decision/admission.js';
import type { RunState, WorkItem } from '../common/work-item.js';
import { claimOf, withOwnClaims } from '../decision/claims.js';
import type { Candidate } from '../decision/collect.js';
import {
  buildContext,
  candidatesOf,
  claimedStage,
  stageRuns,
  workItemRequest,
  type ContextRequest,
  type StageRuns,
} from '../decision/context.js';
import { requestStats, type GitHub } from '../github/client.js';
import { readContextSnapshot, type ContextSnapshot } from '../github/context-read.js';
import { ApiError } from '../github/errors.js';
import { readPipelineFile } from '../github/pipeline-read.js';
import { createOnce } from '../github/create-once.js';
import { lastRemovedByPerson, whoLabelled } from '../github/label-events.js';
import { resolvePermissions } from '../github/permissions.js';
import { listComments, writtenByToken } from '../github/reads.js';
import { readViewer } from '../github/viewer.js';
import { listIssues } from '../github/repo-reads.js';
import { sweepRepository, type SweptPull } from '../github/sweep-read.js';
import { readRun } from '../github/runs.js';
import { checkWorkflow, dispatchWorkflow, type StartedRun } from '../github/workflows.js';
import { addLabels, closeIssue, createComment, createIssue, deleteComment, updateComment, updateIssueBody } from '../github/writes.js';
import { BOARD_MARKER, boardMarkdown, labelContradiction, waitOf, type BoardItem } from './board.js';
import type { DispatchInputs } from './inputs.js';

export interface Dispatched {
  number: number;
  stage: string;
  workflow: string;
  claim: string;
  /** The stage run GitHub started ('' when it did not name it, or in a dry run). */
  run?: string;
}

export interface Escalated {
  number: number;
  stage: string;
  attempts: number;
}

/** What happened to one work item, for the summary and the log. */
export interface ItemOutcome {
  number: number;
  next: string;
  why: string;
  /**
   * dispatched, running (a live claim), escalated, closed, needs-human, claimed-elsewhere, not-admitted (a stage to
   * start, but no person admitted the item), or waiting (nothing to start).
   */
  action:
    | 'dispatched'
    | 'running'
    | 'escalated'
    | 'closed'
    | 'needs-human'
    | 'claimed-elsewhere'
    | 'not-admitted'
    | 'limited'
    | 'rate-limited'
    | 'waiting';
  detail: string;
}

export interface DispatchOutcome {
  /** The board issue's URL when this sweep wrote or found it current; '' otherwise. */
  boardUrl: string;
  /** The board's text as this sweep made it ('' when no board was asked for). */
  boardText: string;
  /** What the board said of each item (scope repository). */
  board: BoardItem[];
  pipeline: Resolved;
  items: ItemOutcome[];
  dispatched: Dispatched[];
  escalated: Escalated[];
  /** Items that could not be read: named, the rest still acted on. */
  unread: string[];
  /** Items with a stage to start that no person admitted: number and how to admit it. */
  notAdmitted: Array<{ number: number; why: string; how: string }>;
  /** Lines for the step's log (a dispatch answer read back, a run GitHub did not name). */
  log: string[];
}

/** The work item as the route sees it, and where the dispatcher writes about it (the issue; a PR's first issue). */
interface Read {
  result: ReturnType<typeof buildContext>;
  req: ContextRequest;
  target: WorkItem;
  defaultBranch: string | null;
}

/** The work item as the route sees it, from its snapshot (read alone, or in the repository sweep). */
function readOf(snapshot: ContextSnapshot, trust: TrustPolicy, p: Resolved): Read {
  const req = workItemRequest(snapshot, {
    chain: p.pipeline.chain.map((s) => s.type),
    stage: null,
    budget: 200_000,
    trust,
    unreadable: [],
    rules: routeRules(p.pipeline),
  });
  // Claims, labels and closes go on this repository's issue: an issue of another repository a PR links is never the
  // target (its number here names another issue).
  return {
    result: buildContext(req),
    req,
    target: req.issues.find((i) => !i.foreign) ?? snapshot.subject,
    defaultBranch: snapshot.defaultBranch,
  };
}

async function readItem(gh: GitHub, inputs: DispatchInputs, number: number, trust: TrustPolicy, p: Resolved): Promise<Read> {
  const snapshot = await readContextSnapshot(gh, inputs.repo, number, followAs(gh, inputs, trust));
  return readOf(await withRoles(gh, inputs, snapshot, trust), trust, p);
}

/** A PR's closing keywords count when its author is trusted (their role read first, for `permission:write`). */
const followAs = (gh: GitHub, inputs: DispatchInputs, trust: TrustPolicy) => async (pull: WorkItem) => {
  await resolvePermissions(gh, inputs.repo, trust, [pull.author]);
  return counts('closing-reference', pull.author, trust);
};

/**
 * The roles `trusted-authors: permission:write` needs, read before the route decides (once per login per run), so the
 * dispatcher counts a write-role member's annotations as the reader and the gate do.
 */
async function withRoles(gh: GitHub, inputs: DispatchInputs, snapshot: ContextSnapshot, trust: TrustPolicy) {
  const own = snapshot.subject.kind === 'pull' ? [...snapshot.closes, snapshot.subject] : [snapshot.subject, ...snapshot.pulls];
  await resolvePermissions(gh, inputs.repo, trust, taggedAuthors([...own, ...(snapshot.parent ? [snapshot.parent.item] : [])]));
  return snapshot;
}

/** The claim's text; with `run`, the stage run GitHub started for it (written into the claim once known). */
const claimText = (stage: string, holder: string, ttlMs: number, run: string | null = null) =>
  emit('CLAIM', {
    fields: {
      Holder: holder,
      Files: '(a pipeline stage: none named)',
      Interfaces: '(none)',
      TTL: formatPeriod(ttlMs),
      Stage: stage,
      ...(run ? { Run: run } : {}),
    },
  });

/**
 * Claim the stage, then read the thread back: a trusted live claim of the same stage written before ours (another
 * dispatcher's) wins, and ours is deleted again. The claim's URL, or null when another won.
 */
async function claim(
  gh: GitHub,
  inputs: DispatchInputs,
  target: WorkItem,
  stage: string,
  p: Resolved,
  trust: TrustPolicy,
  now: number,
  seen: ReadonlySet<number>,
) {
  const text = claimText(stage, inputs.runUrl, p.pipeline.claimTtlMs);
  // A lost answer is read back: a claim with this run's text that was not there before is ours, not sent twice.
  const ours = await createOnce(
    `claiming ${stage} on #${target.number}`,
    () => createComment(gh, inputs.repo, target.number, text, { once: true }),
    async () => (await listComments(gh, inputs.repo, target.number)).find((c) => !seen.has(c.id) && sameText(c.body, text)) ?? null,
  );
  const thread = await listComments(gh, inputs.repo, target.number);
  const ttl = p.pipeline.claimTtlMs;
  const earlier = trustedOfType(thread, target.number, 'CLAIM', withLogin(trust, ours.author.login)).find((c) => {
    // Claims this dispatcher read before deciding were judged then (none was live): only a newcomer can win.
    if (!c.comment || c.comment.id === ours.id || seen.has(c.comment.id) || c.annotation.sentinelState !== 'complete') return false;
    const stageOf = claimedStage(c.annotation);
    const at = c.comment.createdAt ?? '';
    const live = at !== '' && Date.parse(at) + ttl > now;
    const first = at < (ours.createdAt ?? '') || (at === (ours.createdAt ?? '') && c.comment.id < ours.id);
    return stageOf === stage && live && first;
  });
  if (!earlier) return { url: ours.url, comment: ours, lost: null };
  await deleteComment(gh, inputs.repo, ours.id);
  return { url: null, comment: null, lost: earlier.url };
}

/** The policy with one more trusted login (the dispatcher's own identity, for its claims). */
function withLogin(trust: TrustPolicy, login: string | null): TrustPolicy {
  if (!login) return trust;
  return { ...trust, logins: new Set([...trust.logins, login.toLowerCase()]) };
}

/** One line an attempt: its claim and the run it started (how that run ended), and the partial that run wrote. */
function attemptLine(a: StageRuns['attempts'][number], i: number): string {
  if (a.kind !== 'claim') return `${i + 1}. ${a.kind}, no claim of a run — ${a.url}`;
  const run = a.run ? `run ${a.run}${a.conclusion ? ` (${a.conclusion})` : ''}` : 'a run GitHub did not name';
  return `${i + 1}. claimed ${a.url} — ${run}${a.partial ? `; it wrote a partial: ${a.partial}` : ''}`;
}

function attemptsComment(stage: string, runs: StageRuns, budget: number): string {
  const links = runs.attempts.map(attemptLine).join('\n');
  return `**FORGE dispatch**: ${stage} has had ${runs.count} attempts since it last completed, and the pipeline allows ${budget}: a person decides what happens next, and nothing more is dispatched for it.\n\n${links}\n`;
}

/**
 * Why no more may start now ('' while it may): `max-starts` started by this run, or `max-running` stages running in
 * the repository (its live claims, counted once per run: by the sweep before it acts; for one item, by a sweep read
 * made only when a start is due).
 */
async function limitReached(run: RunContext): Promise<string> {
  const { maxStarts, maxRunning } = run.p.pipeline;
  if (run.started >= maxStarts) return `max-starts ${maxStarts} reached in this run; the next run starts more`;
  if (run.live === undefined) run.live = await liveInRepository(run);
  if (run.live >= maxRunning) return `max-running ${maxRunning} reached: ${run.live} stage(s) run now; one starts when another ends`;
  return '';
}

/** The stages running in the repository now: the open issues whose next stage a live claim holds. */
async function liveInRepository(run: RunContext): Promise<number> {
  const sweep = await sweepRepository(run.gh, run.inputs.repo, () => followAs(run.gh, run.inputs, run.trust));
  return liveAmong(
    run,
    sweep.items.map((s) => readOf(s, run.trust, run.p)),
  );
}

/** How many of these items a live claim holds (their next stage, mapped to a workflow). */
async function liveAmong(run: RunContext, reads: readonly Read[]): Promise<number> {
  let live = 0;
  for (const read of reads) {
    const next = read.result.nextPhase;
    if (!run.p.pipeline.chain.some((s) => s.type === next && s.workflow !== null)) continue;
    const candidates = await ownClaimsCounted(run, candidatesOf(read.req));
    if (stageRuns(candidates, next, nowOf(run), run.p.pipeline.claimTtlMs, '', await runStatesOf(run, candidates, next)).live) live++;
  }
  return live;
}

/** GitHub's clock, as claims are judged by it: the Date of this run's first answer. */
const nowOf = (run: RunContext) => requestStats(run.gh).firstAnswerAt ?? Date.now();

/** The candidates with the dispatcher's own claims counted (its identity asked only when one would not count). */
async function ownClaimsCounted(run: RunContext, candidates: Candidate[]): Promise<Candidate[]> {
  if (!candidates.some((c) => c.untrusted !== null && c.annotation.type.startsWith('CLAIM') && c.author.login?.endsWith('[bot]')))
    return candidates;
  const me = await viewerOf(run);
  return withOwnClaims(candidates, (login) => me !== null && writtenByToken(me, login));
}

/** At most this many claimed runs of one stage are asked about per item (the newest): older claims are history. */
const RUN_READS_PER_ITEM = 5;

/** The state of each run the stage's trusted claims name (newest first, read once per run per dispatcher run). */
async function runStatesOf(run: RunContext, candidates: readonly Candidate[], stage: string): Promise<Map<number, RunState>> {
  const ids = candidates
    .filter((c) => c.scope === 'own' && c.untrusted === null && c.annotation.type === 'CLAIM' && claimedStage(c.annotation) === stage)
    .sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? 1 : -1))
    .map((c) => claimOf(c, run.p.pipeline.claimTtlMs)?.runId ?? null)
    .filter((id): id is number => id !== null)
    .slice(0, RUN_READS_PER_ITEM);
  const out = new Map<number, RunState>();
  for (const id of ids) {
    if (!run.runs.has(id)) run.runs.set(id, await readRun(run.gh, run.inputs.repo, id));
    const state = run.runs.get(id);
    if (state) out.set(id, state);
  }
  return out;
}

/** How a live claim reads: the run GitHub named, else its holder and when the claim ends. */
function runningDetail(stage: string, run: string | null, holder: string, expiresAt: string, claimUrl: string): string {
  return `${stage} is ${run ? `running in ${run}` : `claimed by ${holder} until ${expiresAt}`} (${claimUrl})`;
}

/** A board row as this run's writes leave the item: its labels, next phase, action, why, and the rule that routes it. */
interface BoardAs {
  labels?: string[];
  next?: string;
  action?: string;
  why?: string;
  rule?: string;
}

/** What one run of the dispatcher knows besides the item: the client, the file, trust, and its own identity. */
interface RunContext {
  gh: GitHub;
  inputs: DispatchInputs;
  p: Resolved;
  trust: TrustPolicy;
  /** The token's own login, read once when needed (undefined: not read yet). */
  viewer: string | null | undefined;
  /** The stage runs read so far, by id (null: GitHub no longer has it). */
  runs: Map<number, RunState | null>;
  /** Stages running in the repository now (live claims), counted before the first start; undefined until needed. */
  live: number | undefined;
  /** How many this run started. */
  started: number;
  /** Set at GitHub's first rate-limit answer: nothing more is written this run, and why. */
  halted: string | null;
}

async function viewerOf(run: RunContext): Promise<string | null> {
  if (run.viewer === undefined) run.viewer = await readViewer(run.gh);
  return run.viewer;
}

/** Is this item the pipeline board: its title and marker, written by a trusted author or by the dispatcher itself? */
async function isBoardItem(run: RunContext, i: WorkItem): Promise<boolean> {
  if (i.title !== run.p.pipeline.boardTitle || !i.body.startsWith(BOARD_MARKER)) return false;
  return counts('issue-body', i.author, run.trust) || writtenByToken(await viewerOf(run), i.author.login);
}

/** The item's admission: its author first (no request), then who put an admitting label on it (read only then). */
async function admissionOfItem(run: RunContext, target: WorkItem): Promise<Admission> {
  const { gh, inputs, p, trust } = run;
  const admit = p.pipeline.admit;
  const admitting = admittingLabels(
    admit,
    p.pipeline.chain.map((s) => s.starts),
  );
  const policy = admitPolicy(admit, trust);
  if (policy) await resolvePermissions(gh, inputs.repo, policy, [target.author]);
  if (authorAdmitted(admit, target.author, trust)) return admissionOf(target, admit, trust, admitting, null);
  const on = admittingLabelsOn(target.labels, admitting);
  const labelled = on.length > 0 ? await whoLabelled(gh, inputs.repo, target.number, on, trust.permissions) : [];
  return admissionOf(target, admit, trust, admitting, labelled);
}

async function actOnItem(run: RunContext, read: Read, runnerNow: number, out: DispatchOutcome) {
  const { gh, inputs, p, trust } = run;
  const number = read.target.number;
  // Claims are stamped by GitHub's clock: their age is judged by it too (the Date of this run's first answer), not the runner's.
  const now = requestStats(gh).firstAnswerAt ?? runnerNow;
  const next = read.result.nextPhase;
  const why = read.result.nextReason;
  const target = read.target;
  // Each board row says what the next sweep will read (so an unchanged pipeline rewrites nothing): `as` is the item as
  // this run's own writes leave it; null, an item this run removes from the board (closed).
  const item = (action: ItemOutcome['action'], detail: string, as: BoardAs | null = {}) => {
    out.items.push({ number, next, why, action, detail });
    if (as === null) return;
    const rowAction = as.action ?? action;
    out.board.push(boardItem(read, as.next ?? next, as.why ?? (rowAction === 'waiting' ? why : detail || why), rowAction, p, now, as));
  };
  /** How a needs-human label this run adds is read by the next sweep. */
  const labelledNeedsHuman: BoardAs = {
    labels: [...target.labels, NEEDS_HUMAN],
    next: 'needs-human',
    action: 'waiting',
    why: NEEDS_HUMAN_WHY,
    rule: 'needs a person',
  };
  const stage: Stage | undefined = p.pipeline.chain.find((s) => s.type === next && s.workflow !== null);
  if (stage?.workflow) {
    // The dispatcher's own claims count whatever trusted-authors says.
    const candidates = await ownClaimsCounted(run, candidatesOf(read.req));
    // GitHub's word on each claimed run decides whether its claim still holds (one request a claimed run).
    const states = await runStatesOf(run, candidates, next);
    let runs = stageRuns(candidates, next, now, p.pipeline.claimTtlMs, '', states);
    if (runs.live) return item('running', runningDetail(next, runs.live.run, runs.live.holder, runs.live.expiresAt, runs.live.url));
    // A person decides what an agent starts: an item nobody admitted waits, whatever its text says.
    const admission = await admissionOfItem(run, target);
    if (!admission.admitted) {
      out.notAdmitted.push({ number: target.number, why: admission.why, how: admission.how });
      return item('not-admitted', `${admission.why}; to admit it, ${admission.how}`);
    }
    if (runs.count >= p.pipeline.attempts && !target.labels.includes(NEEDS_HUMAN)) {
      // Out of attempts, yet not labelled: a person who removed needs-human resumed it, with a fresh budget from then.
      const resumed = await lastRemovedByPerson(gh, inputs.repo, target.number, NEEDS_HUMAN);
      if (resumed !== null) runs = stageRuns(candidates, next, now, p.pipeline.claimTtlMs, resumed, states);
    }
    if (runs.count >= p.pipeline.attempts) {
      out.escalated.push({ number, stage: next, attempts: runs.count });
      if (target.labels.includes('needs-human')) return item('escalated', `${runs.count} attempts; already labelled needs-human`);
      if (!inputs.dryRun) {
        await addLabels(gh, inputs.repo, target.number, ['needs-human']);
        await createComment(gh, inputs.repo, target.number, attemptsComment(next, runs, p.pipeline.attempts));
      }
      return item(
        'escalated',
        `${runs.count} attempts of ${p.pipeline.attempts}: labelled needs-human, with a comment listing them`,
        inputs.dryRun ? {} : labelledNeedsHuman,
      );
    }
    if (read.defaultBranch === null)
      throw new ApiError(`reading #${number}: GitHub did not name the default branch to start ${stage.workflow} on`, null);
    // The fleet's limits: what would start beyond them waits for a later run (the board says why).
    const full = await limitReached(run);
    if (full) return item('limited', `${next} waits: ${full}`);
    run.started++;
    run.live = (run.live ?? 0) + 1;
    if (inputs.dryRun) {
      out.dispatched.push({ number, stage: next, workflow: stage.workflow, claim: '', run: '' });
      return item('dispatched', `would claim ${next} on #${target.number} and start ${stage.workflow} (dry run)`);
    }
    const seen = new Set(candidates.filter((c) => c.annotation.type === 'CLAIM' && c.comment).map((c) => c.comment?.id as number));
    const claimed = await claim(gh, inputs, target, next, p, trust, now, seen);
    if (claimed.url === null || claimed.comment === null)
      return item('claimed-elsewhere', `another dispatcher claimed ${next} first (${claimed.lost}): nothing started`);
    const me = claimed.comment.author.login;
    let started: StartedRun;
    try {
      started = await dispatchWorkflow(
        gh,
        inputs.repo,
        stage.workflow,
        read.defaultBranch,
        { 'issue-number': String(target.number), stage: next, claim: claimed.url },
        {
          since: claimed.comment.createdAt ?? new Date(now).toISOString(),
          mine: (login) => writtenByToken(me, login),
          taken: new Set(states.keys()),
        },
        (line) => out.log.push(line),
      );
    } catch (err) {
      // GitHub refused to start it (or its answer is unknown after the read-back): the claim it would hold goes in the
      // same sweep, so the item is neither shown running nor charged an attempt that never ran.
      await deleteComment(gh, inputs.repo, claimed.comment.id);
      throw new ApiError(
        `${err instanceof Error ? err.message : String(err)} — the claim ${claimed.url} was removed again`,
        (err as ApiError).status ?? null,
      );
    }
    // The claim names the run it started: the next sweep asks GitHub whether that run is still going.
    if (started.url)
      await updateComment(gh, inputs.repo, claimed.comment.id, claimText(next, inputs.runUrl, p.pipeline.claimTtlMs, started.url));
    out.dispatched.push({ number, stage: next, workflow: stage.workflow, claim: claimed.url, run: started.url ?? '' });
    const expires = new Date(Date.parse(claimed.comment.createdAt ?? new Date(now).toISOString()) + p.pipeline.claimTtlMs).toISOString();
    return item(
      'dispatched',
      `claimed ${next} (${claimed.url}) and started ${stage.workflow} on ${read.defaultBranch}${started.url ? `: ${started.url}` : ''}`,
      // The next sweep finds it running: the row says so now.
      { action: 'running', why: runningDetail(next, started.url, inputs.runUrl, expires, claimed.url) },
    );
  }
  // forge-emit moves an INVALID investigation to workflow:invalid (terminal, so the route stops): still to be closed.
  const invalidOpen = next === 'none' && target.labels.includes('workflow:invalid');
  if ((next === 'close' || invalidOpen) && p.pipeline.actOn.includes('close') && target.kind === 'issue' && target.state !== 'closed') {
    // One update: closed as not planned, and the one workflow label it ends in (the machine: investigating → invalid).
    if (!inputs.dryRun)
      await closeIssue(gh, inputs.repo, target.number, 'not_planned', [
        ...target.labels.filter((l) => !l.startsWith('workflow:')),
        'workflow:invalid',
      ]);
    // A closed issue leaves the board: the next sweep does not read it.
    return item('closed', `closed #${target.number} as not planned and labelled workflow:invalid`, inputs.dryRun ? {} : null);
  }
  if (next === 'needs-human' && p.pipeline.actOn.includes('needs-human') && !target.labels.includes('needs-human')) {
    if (!inputs.dryRun) {
      await addLabels(gh, inputs.repo, target.number, ['needs-human']);
      await createComment(gh, inputs.repo, target.number, `**FORGE dispatch**: a person is needed — ${why}\n`);
    }
    return item(
      'needs-human',
      `labelled #${target.number} needs-human, with one comment saying why`,
      inputs.dryRun ? {} : labelledNeedsHuman,
    );
  }
  return item(
    'waiting',
    stage || !p.pipeline.chain.some((s) => s.type === next)
      ? ''
      : `${next} is not a stage the pipeline file maps to a workflow: nothing to start`,
  );
}

export async function runDispatch(gh: GitHub, inputs: DispatchInputs, now: number): Promise<DispatchOutcome> {
  if (inputs.scope === 'item') {
    const p = resolveAnswer(await readPipelineFile(gh, inputs.repo));
    const trust = inputs.trust ?? parseTrustPolicy(p.pipeline.trustedAuthors);
    await checkWorkflows(gh, inputs, p);
    const out = outcome(p);
    const run: RunContext = { gh, inputs, p, trust, viewer: undefined, runs: new Map(), live: undefined, started: 0, halted: null };
    const read = await readItem(gh, inputs, inputs.number as number, trust, p);
    // The board is no work item: labelling it, or its own opening, starts nothing.
    if (await isBoardItem(run, read.target)) {
      out.items.push({
        number: read.target.number,
        next: 'none',
        why: 'the pipeline board',
        action: 'waiting',
        detail: `#${read.target.number} is the pipeline board, not a work item: nothing to start`,
      });
      return out;
    }
    await actOnItem(run, read, now, out);
    return out;
  }
  // Read first: every open issue and PR, and the pipeline file, in about one request per 100 issues.
  const trustOf = (answer: PipelineAnswer) => inputs.trust ?? parseTrustPolicy(resolveAnswer(answer).pipeline.trustedAuthors);
  let trust: TrustPolicy | null = null;
  const sweep = await sweepRepository(gh, inputs.repo, (answer) => {
    trust = trustOf(answer);
    return followAs(gh, inputs, trust);
  });
  const p = resolveAnswer(sweep.pipeline);
  // The policy the sweep followed keywords by (and read roles into): one policy for the whole run.
  const policy: TrustPolicy = trust ?? trustOf(sweep.pipeline);
  await checkWorkflows(gh, inputs, p);
  const out = outcome(p);
  const run: RunContext = {
    gh,
    inputs,
    p,
    trust: policy,
    viewer: sweep.viewer,
    runs: new Map(),
    live: undefined,
    started: 0,
    halted: null,
  };
  // The board is no work item: found by its title and marker, written by a trusted author or by the dispatcher itself.
  const boards = new Set<number>();
  for (const s of sweep.items) if (await isBoardItem(run, s.subject)) boards.add(s.subject.number);
  const isBoard = (i: WorkItem) => boards.has(i.number);
  const boardIssue = sweep.items.map((s) => s.subject).find(isBoard) ?? null;
  const work: Array<{ number: number; read: () => Promise<Read> }> = [
    ...sweep.items
      .filter((s) => !isBoard(s.subject))
      .map((s) => ({ number: s.subject.number, read: async () => readOf(await withRoles(gh, inputs, s, policy), policy, p) })),
    // An issue GitHub answered with a hole in is read alone (asked again, then named unread).
    ...sweep.reread.map((number) => ({ number, read: () => readItem(gh, inputs, number, policy, p) })),
  ].sort((a, b) => a.number - b.number);
  const reads: Array<{ number: number; read: Read | null }> = [];
  for (const w of work) {
    try {
      reads.push({ number: w.number, read: await w.read() });
    } catch (err) {
      // One unreadable item is named; the sweep goes on.
      if (err instanceof UsageError) throw err;
      out.unread.push(`#${w.number}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  // What runs now, before anything starts: max-running counts it.
  run.live = await liveAmong(
    run,
    reads.flatMap((x) => (x.read ? [x.read] : [])),
  );
  for (const { number, read } of reads) {
    if (!read) continue;
    if (run.halted !== null) {
      out.items.push({ number, next: read.result.nextPhase, why: read.result.nextReason, action: 'rate-limited', detail: run.halted });
      out.board.push(boardItem(read, read.result.nextPhase, run.halted, 'rate-limited', p, now));
      continue;
    }
    try {
      await actOnItem(run, read, now, out);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      // GitHub's rate limit: stop writing at its first answer; the rest wait for the next run, and the board says so.
      if (isRateLimit(err))
        run.halted = `GitHub's rate limit answered (${(err as Error).message.split('\n')[0]}): nothing more is written this run`;
      out.unread.push(`#${number}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  if (inputs.board) out.boardUrl = await writeBoard(gh, inputs, p, out, boardIssue, sweep.pulls);
  return out;
}

/** GitHub's rate-limit answers (primary or secondary): a 403 or 429 saying so. */
function isRateLimit(err: unknown): boolean {
  const e = err as { status?: number | null; message?: string };
  return (e.status === 403 || e.status === 429) && /rate limit/i.test(e.message ?? '');
}

const outcome = (p: Resolved): DispatchOutcome => ({
  boardUrl: '',
  boardText: '',
  board: [],
  pipeline: p,
  items: [],
  dispatched: [],
  escalated: [],
  unread: [],
  notAdmitted: [],
  log: [],
});

/** Every workflow the file maps a stage to, checked before anything is written: a missing file or input is one line. */
async function checkWorkflows(gh: GitHub, inputs: DispatchInputs, p: Resolved) {
  for (const s of p.pipeline.chain) if (s.workflow) await checkWorkflow(gh, inputs.repo, s.type, s.workflow);
}

/** What the board says of one item. */
function boardItem(read: Read, next: string, why: string, action: string, p: Resolved, now: number, as: BoardAs = {}): BoardItem {
  const own = candidatesOf(read.req).filter((c) => c.scope === 'own' && c.untrusted === null);
  const chain = new Set(p.pipeline.chain.map((s) => s.type));
  const lastStageAt =
    own
      .filter((c) => chain.has(c.annotation.type) && c.createdAt !== null)
      .map((c) => c.createdAt as string)
      .sort()
      .at(-1) ?? null;
  const state = currentState(as.labels ?? read.target.labels);
  const since = lastStageAt ?? read.target.createdAt ?? null;
  const types = p.pipeline.chain.map((s) => s.type);
  const complete = new Set(read.result.stages.filter((e) => e.scope === 'own' && e.status === 'included').map((e) => e.type));
  const nextEntry = read.result.stages.find((e) => e.scope === 'own' && e.type === next && e.status !== 'superseded');
  const waits = waitOf(as.rule ?? read.result.nextRule, action, nextEntry?.status ?? null);
  // The annotation the wait is about, linked: the partial to continue, the stale stage to run again.
  const about = waits === 'partial' ? nextEntry?.url : waits === 'stale' ? read.result.stale[0]?.url : null;
  const said = action === 'waiting' ? why : `${action}: ${why}`;
  return {
    number: read.target.number,
    title: read.target.title,
    url: read.target.url,
    state,
    next,
    why: about ? `${said} (${about})` : said,
    action,
    lastStageAt,
    hasBuilder: own.some((c) => c.annotation.type === 'BUILDER'),
    openPulls: (read.req.pulls ?? []).map((x) => x.number),
    stuck:
      state.startsWith('workflow:') && !TERMINAL_LABELS.has(state) && since !== null && now - Date.parse(since) > p.pipeline.stallAfterMs,
    waits,
    contradiction: labelContradiction(state, types, complete),
  };
}

/** The board, written in place when its text changed (created the first time); its URL. Nothing in a dry run. */
async function writeBoard(
  gh: GitHub,
  inputs: DispatchInputs,
  p: Resolved,
  out: DispatchOutcome,
  found: WorkItem | null,
  open: readonly SweptPull[],
): Promise<string> {
  const listed = new Set(out.board.flatMap((b) => b.openPulls));
  const pulls = open.filter((x) => !listed.has(x.number) && !x.bodyTagged).map((x) => x.number);
  const text = boardMarkdown(
    p.pipeline.boardTitle,
    p.pipeline.chain.map((s) => s.type),
    out.board,
    out.unread,
    pulls,
  );
  out.boardText = text;
  const size = `${text.length} characters`;
  if (found && sameText(found.body, text)) {
    out.log.push(`board: #${found.number} is current (${size}): not edited`);
    return found.url;
  }
  if (inputs.dryRun) {
    out.log.push(`board: would ${found ? `edit #${found.number}` : 'open one'} (${size}; dry run)`);
    return found?.url ?? '';
  }
  if (found) {
    await updateIssueBody(gh, inputs.repo, found.number, text);
    out.log.push(`board: edited #${found.number} (${size})`);
    return found.url;
  }
  const isOurs = (i: WorkItem) => i.title === p.pipeline.boardTitle && i.body.startsWith(BOARD_MARKER);
  const landed = async () => (await listIssues(gh, inputs.repo, { state: 'open' })).find(isOurs) ?? null;
  const opened = await createIssue(gh, inputs.repo, p.pipeline.boardTitle, text, landed);
  out.log.push(`board: opened ${opened.url} (${size})`);
  return opened.url;
}
