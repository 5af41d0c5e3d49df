/**
 * forge-check's logic on items: which PRs (or which issue) the event touches,
 * each PR gathered with the issues it closes, the decision for each
 * (conformance/evaluate.ts, or an exemption), and the verdicts written as
 * commit statuses when asked — one per commit: on a PR's head, or on a merge
 * group's commit for all of its PRs. Typed inputs and the client in, one
 * verdict per checked PR out. The repository scope's logic is repository/logic.ts.
 */
import { errorMessage, UsageError } from '../../common/errors.js';
import { readPipelineFile } from '../../github/pipeline-read.js';
import { ApiError, GraphqlRateLimited } from '../../github/errors.js';
import { evaluate, type CheckResult } from '../../decision/evaluate.js';
import { exemptResult } from '../../decision/exempt.js';
import type { GitHub } from '../../github/client.js';
import { listOpenPulls, readPull, type PullInfo } from '../../github/reads.js';
import { readGateSnapshot, type GateSnapshot, type OpenHead } from '../../github/snapshot.js';
import type { ThreadComment } from '../../common/work-item.js';
import { counts } from '../../common/trust.js';
import { needsPipeline, settle, type ItemInputs } from '../inputs.js';
import { gatherIssue, gatherPull, type Gathered, type ThreadCache } from './gather.js';
import { touchedBy, type Group, type Target } from './pulls.js';
import { keepStatus, statusOf, toLimit, type DesiredStatus, type StatusOutcome } from './status.js';
import type { CommitStatus } from '../../github/statuses.js';

export interface Verdict {
  /** The PR or issue the verdict is for (where its status comment goes). */
  subject: number;
  /** The PR as read, when a PR was checked. */
  pull: PullInfo | null;
  result: CheckResult;
  status: StatusOutcome | null;
  /** How GitHub linked the PR: notices (they are in the result's notes too, for the summary). */
  notices: string[];
  /** The subject's comments as this run read them (where its status comment is); null when not read. */
  comments: ThreadComment[] | null;
}

export interface CheckRun {
  verdicts: Verdict[];
  /** Set on a merge_group event: the group's commit and its one status. */
  group: (Group & { status: StatusOutcome | null; conforming: boolean }) | null;
  /** Why nothing or less was checked (notices). */
  notes: string[];
  /** Claims refused and writes that failed (warnings). */
  warnings: string[];
  /** The token's login as GitHub said it in this run's read (a bot's with `[bot]`); undefined when nothing asked. */
  viewer?: string | null;
  /** What this run's snapshot reads cost. */
  read: { requests: number; points: number };
  /** The inputs the run decided by: the step's, with the pipeline file's settings where the step left them empty. */
  settled: ItemInputs;
}

/** The decision on what was gathered: an exemption, or the evaluation with the gathering's own problems added. */
function decide(gathered: Gathered, inputs: ItemInputs): CheckResult {
  if (gathered.exempt !== null) return exemptResult(gathered.thread, inputs.gate.required, gathered.exempt);
  const { items, shared, pull, notes, passedOver, problems, staleReviewers } = gathered;
  const decided = evaluate(items, shared, { ...inputs.gate, pull, passedOver, staleReviewers });
  return {
    ...decided,
    conforming: decided.conforming && problems.length === 0,
    problems: [...problems, ...decided.problems],
    notes: [...gathered.notices, ...notes, ...decided.notes],
  };
}

/** One run's reading: threads read once for every PR, the open PRs listed at most once. */
interface RunState {
  cache: ThreadCache;
  /** Everything read about the PRs of this run, in one query (more only for siblings of a failing head). */
  snapshot: GateSnapshot | null;
  openPulls: Promise<OpenHead[]> | null;
  /** Verdicts decided in this run, by PR number (siblings of a shared commit reuse them). */
  decided: Map<number, CheckResult>;
  viewer?: string | null;
  read: { requests: number; points: number };
  /** The one read failed: PRs are read by REST, and their statuses asked for. */
  snapshotFailed?: boolean;
}

/**
 * PR #number as this run's snapshot read it (read now when it was not asked
 * for); null after the snapshot failed, so the PR is read by REST as before
 * GraphQL answered for it. A 404 when the repository has no such PR.
 */
async function snapshotOf(gh: GitHub, inputs: ItemInputs, state: RunState, number: number) {
  if (state.snapshotFailed) return null;
  let snap = state.snapshot?.pulls.get(number);
  if (snap === undefined) {
    const more = await readGateSnapshot(gh, inputs.repo, [number]);
    count(state, more);
    snap = more.pulls.get(number) ?? null;
  }
  if (snap === null)
    throw new ApiError(
      `reading PR #${number} failed: not found: no pull request of ${inputs.repo.owner}/${inputs.repo.repo} has that number`,
      404,
      false,
    );
  return snap;
}

function count(state: RunState, read: { requests: number; points: number; incomplete?: Set<string> }): void {
  state.read.requests += read.requests;
  state.read.points += read.points;
  if (read.incomplete && state.snapshot) for (const k of read.incomplete) state.snapshot.incomplete.add(k);
}

async function check(gh: GitHub, inputs: ItemInputs, target: Target, state: RunState): Promise<Verdict | null> {
  if (target.kind === 'issue') {
    // An issue on its own is held to the stages written on the issue (a REVIEWER lives on its PR).
    const onIssue = { ...inputs, gate: { ...inputs.gate, required: inputs.requiredOnIssue } };
    const gathered = await gatherIssue(gh, onIssue, target.number);
    if (gathered === null) return null;
    state.viewer = gathered.viewer;
    return {
      subject: target.number,
      pull: null,
      result: decide(gathered, onIssue),
      status: null,
      notices: [],
      comments: gathered.comments,
    };
  }
  const snap = await snapshotOf(gh, inputs, state, target.number);
  const gathered = await gatherPull(gh, inputs, target.number, target.named, state.cache, snap, state.snapshot?.incomplete);
  const result = decide(gathered, inputs);
  state.decided.set(target.number, result);
  return { subject: target.number, pull: gathered.info, result, status: null, notices: gathered.notices, comments: gathered.comments };
}

/**
 * At most this many other PRs with the same head are gathered to decide a
 * commit's status: each costs a PR's reads, and anyone can open PRs on one
 * commit. The rest are named in a warning.
 */
export const MAX_SIBLINGS = 5;

/**
 * A commit status belongs to the commit, and every open PR whose head is that
 * commit shows it: `success` when some open PR with that head conforms,
 * `failure` only when none does. So a stranger's PR that reuses a member's
 * head commit can never turn the member's PR red. Other PRs are looked for
 * only when this one fails (one listing per run), and what a stranger can make
 * this cost is bounded: the first sibling that conforms decides, PRs by the
 * failing PR's own untrusted author are skipped (one author's many PRs cannot
 * pass each other), and at most MAX_SIBLINGS are gathered.
 */
async function commitStatus(gh: GitHub, inputs: ItemInputs, v: Verdict, state: RunState, notes: string[]): Promise<DesiredStatus> {
  const own = statusOf(v.result, null);
  if (own.state === 'success' || !v.pull) return own;
  const sha = v.pull.sha;
  // The snapshot's open PRs when it holds all of them; else GitHub's full list, once.
  const known = state.snapshot?.open;
  state.openPulls ??= known?.complete ? Promise.resolve(known.heads) : listOpenPulls(gh, inputs.repo);
  let open: OpenHead[];
  try {
    open = await state.openPulls;
  } catch (err) {
    notes.push(`the open PRs could not be listed (${errorMessage(err)}): PR #${v.subject}'s own verdict is written on ${sha.slice(0, 12)}`);
    return own;
  }
  const self = open.find((p) => p.number === v.subject)?.author ?? null;
  const sameStranger = (p: OpenHead) =>
    self !== null &&
    self.login !== null &&
    p.author.login?.toLowerCase() === self.login.toLowerCase() &&
    !counts('pull-body', self, inputs.gate.trust);
  const sharing = open.filter((p) => p.sha === sha && p.number !== v.subject);
  const skipped = sharing.filter(sameStranger).map((p) => p.number);
  const candidates = sharing.filter((p) => !sameStranger(p)).map((p) => p.number);
  if (skipped.length > 0)
    notes.push(
      `PR ${skipped.map((n) => `#${n}`).join(', ')} share${skipped.length === 1 ? 's' : ''} commit ${sha.slice(0, 12)} but ${skipped.length === 1 ? 'is' : 'are'} by the same untrusted author as PR #${v.subject}: not asked`,
    );
  if (candidates.length === 0) return own;
  const verdicts: Array<{ number: number; result: CheckResult }> = [];
  // Already decided in this run first: they cost nothing.
  const ordered = [...candidates.filter((n) => state.decided.has(n)), ...candidates.filter((n) => !state.decided.has(n))];
  // The siblings not yet decided, at most MAX_SIBLINGS: the first alone (it often decides), then the rest in one
  // query — two requests at most, and none past the first sibling that conforms.
  const fresh = ordered.filter((n) => !state.decided.has(n));
  const asked = fresh.slice(0, MAX_SIBLINGS);
  const unasked = fresh.slice(MAX_SIBLINGS);
  const chunks = [asked.slice(0, 1), asked.slice(1)].filter((c) => c.length > 0);
  const read = new Map<number, GateSnapshot | string>();
  const siblingRead = async (number: number): Promise<GateSnapshot> => {
    const chunk = chunks.find((c) => c.includes(number)) ?? [number];
    if (!read.has(number)) {
      let answer: GateSnapshot | string;
      try {
        answer = state.snapshotFailed ? 'GraphQL could not be read' : await readGateSnapshot(gh, inputs.repo, chunk);
        if (typeof answer !== 'string') count(state, answer);
      } catch (err) {
        answer = errorMessage(err);
      }
      for (const n of chunk) read.set(n, answer);
    }
    const answer = read.get(number) as GateSnapshot | string;
    if (typeof answer === 'string') throw new Error(answer);
    return answer;
  };
  for (const number of ordered) {
    let result = state.decided.get(number);
    if (!result) {
      if (!asked.includes(number)) continue;
      try {
        const siblings = await siblingRead(number);
        const snap = siblings.pulls.get(number) ?? null;
        if (snap === null) throw new ApiError(`reading PR #${number} failed: not found`, 404, false);
        result = decide(await gatherPull(gh, inputs, number, null, state.cache, snap, siblings.incomplete), inputs);
        state.decided.set(number, result);
      } catch (err) {
        notes.push(`PR #${number}, which shares commit ${sha.slice(0, 12)}, could not be checked (${errorMessage(err)})`);
        continue;
      }
    }
    verdicts.push({ number, result });
    if (result.conforming) break;
  }
  if (unasked.length > 0)
    notes.push(
      `commit ${sha.slice(0, 12)} is the head of ${unasked.length} more open PR(s) than the ${MAX_SIBLINGS} the gate reads per commit (${unasked
        .slice(0, 20)
        .map((n) => `#${n}`)
        .join(', ')}${unasked.length > 20 ? ', …' : ''}): they were not asked`,
    );
  const listed = verdicts.map((x) => `#${x.number} (${x.result.conforming ? 'conforming' : 'not conforming'})`).join(', ');
  if (listed)
    notes.push(
      `commit ${sha.slice(0, 12)} is also the head of open PR ${listed}: a status belongs to the commit, so it says success when any of them conforms`,
    );
  // The passing PR's own words: the status stays exactly as that PR's run wrote it, so nothing is rewritten.
  const passing = verdicts.find((x) => x.result.conforming);
  return passing ? statusOf(passing.result, null) : own;
}

/** One status for a merge group: success only when every PR in it conforms (or is exempt), failure naming each that does not. */
function groupStatus(verdicts: readonly Verdict[], pulls: readonly number[], missing: readonly number[]): DesiredStatus {
  const failing = verdicts.filter((v) => !v.result.conforming);
  if (failing.length === 0 && missing.length === 0)
    return { state: 'success', description: toLimit(`All ${pulls.length} PR(s) in the merge group conform`) };
  const parts = [
    ...failing.map((v) => `PR #${v.subject}: ${statusOf(v.result, null).description}`),
    ...missing.map((n) => `PR #${n}: could not be read`),
  ];
  return { state: 'failure', description: toLimit(parts.join('; ')) };
}

export async function runCheck(gh: GitHub, given: ItemInputs): Promise<CheckRun> {
  let inputs = given;
  // The pipeline file, before anything is decided, in a query the run sends anyway: a PR's, a commit's or a merge
  // group's event reads it in the snapshot's query (which PRs they touch needs no trust); an issue's in the query
  // for the PRs that close it. A gone issue decides whose PRs depend on it first, so it reads the file alone. An
  // event that names nothing reads nothing.
  const needs = needsPipeline(inputs);
  const kind = inputs.trigger.kind;
  const folded = needs && (kind === 'pull' || kind === 'commit' || kind === 'group');
  if (needs && kind === 'gone') inputs = settle(inputs, await readPipelineFile(gh, inputs.repo));
  const touched = await touchedBy(gh, inputs);
  inputs = touched.settled ?? inputs;
  const run: CheckRun = {
    verdicts: [],
    group: null,
    notes: touched.notes,
    warnings: [...touched.warnings],
    read: { requests: 0, points: 0 },
    settled: inputs,
  };
  const state: RunState = { cache: new Map(), snapshot: null, openPulls: null, decided: new Map(), read: { requests: 0, points: 0 } };
  run.read = state.read;
  // One read for every PR this event touches, the merge group's commit status, and (for the shared-commit rule) the open PRs' heads.
  const pulls = touched.targets.filter((t) => t.kind === 'pull').map((t) => t.number);
  if (pulls.length > 0 || touched.group !== null) {
    try {
      state.snapshot = await readGateSnapshot(
        gh,
        inputs.repo,
        pulls,
        touched.group ? [touched.group.sha] : [],
        inputs.status !== null && touched.group === null,
        folded,
      );
      if (folded) inputs = settle(inputs, state.snapshot.pipeline ?? null);
      count(state, state.snapshot);
      state.viewer = state.snapshot.viewer;
      run.notes.push(...state.snapshot.notes);
    } catch (err) {
      // A bad pipeline file is the user's mistake: said as such, nothing decided. GitHub's GraphQL rate limit is said
      // as itself: reading by REST instead costs about 12 requests a PR of the other limit.
      if (err instanceof UsageError || err instanceof GraphqlRateLimited) throw err;
      // Each PR is read by REST below; one that still cannot be read gets its `error` status.
      state.snapshotFailed = true;
      if (folded) inputs = settle(inputs, await readPipelineFile(gh, inputs.repo));
      run.notes.push(`GitHub's GraphQL API could not read the PRs in one query (${errorMessage(err)}): each is read by REST`);
    }
  }
  run.settled = inputs;
  const unread: number[] = [];
  for (const target of touched.targets) {
    let verdict: Verdict | null;
    try {
      verdict = await check(gh, inputs, target, state);
    } catch (err) {
      // A PR whose verdict cannot be decided gets an `error` status, and the step fails (the runner reports why).
      if (target.kind === 'pull' && touched.group === null) await errorStatus(gh, inputs, target.number, err, run);
      if (touched.group !== null && target.kind === 'pull') {
        // A merge group is judged whole: a PR that cannot be read fails the group, and says why.
        unread.push(target.number);
        run.warnings.push(`PR #${target.number} in the merge group could not be checked: ${errorMessage(err)}`);
        continue;
      }
      throw err;
    }
    if (verdict === null) {
      run.notes.push(`#${target.number} is gone (404/410: deleted, transferred, or issues turned off): nothing to gate`);
      continue;
    }
    run.verdicts.push(verdict);
  }
  run.viewer = state.viewer;
  if (touched.group !== null) {
    const error = touched.group.error;
    const desired = error ? statusOf(null, error) : groupStatus(run.verdicts, touched.group.pulls, unread);
    const read = state.snapshot?.commits.get(touched.group.sha.toLowerCase());
    const status = inputs.status
      ? await keepStatus(gh, inputs.repo, 'the merge group', touched.group.sha, inputs.status, desired, read)
      : null;
    if (status?.warning) run.warnings.push(status.warning);
    if (status?.note) run.notes.push(status.note);
    run.group = { ...touched.group, status, conforming: desired.state === 'success' };
    return run;
  }
  if (!inputs.status) return run;
  const settings = inputs.status;
  const written = new Set<string>();
  const plans: Array<{ v: Verdict; sha: string; desired: DesiredStatus; read: ReadonlyMap<string, CommitStatus> | undefined }> = [];
  for (const v of run.verdicts) {
    if (!v.pull || written.has(v.pull.sha)) continue;
    const notes: string[] = [];
    const desired = await commitStatus(gh, inputs, v, state, notes);
    v.result = { ...v.result, notes: [...v.result.notes, ...notes] };
    plans.push({ v, sha: v.pull.sha, desired, read: state.snapshot?.pulls.get(v.subject)?.statuses });
    // Two PRs of this run with one head: the first write decided for both (it looked at the other).
    if (desired.state === 'success') written.add(v.pull.sha);
  }
  // Before a write that changes the verdict, what landed since this run read is asked — for every such commit at once.
  const recheck = await statusesSince(gh, inputs, plans);
  for (const { v, sha, desired, read } of plans) {
    v.status = await keepStatus(gh, inputs.repo, `PR #${v.subject}`, sha, settings, desired, read, recheck.get(sha.toLowerCase()));
    if (v.status.warning) run.warnings.push(v.status.warning);
    if (v.status.note) run.notes.push(v.status.note);
  }
  return run;
}

/**
 * The statuses now on each commit whose status this run is about to change (the snapshot's newest differs from the
 * verdict), read in one GraphQL query; an empty map when none would change, or the query failed (each write then
 * asks alone, as before).
 */
async function statusesSince(
  gh: GitHub,
  inputs: ItemInputs,
  plans: ReadonlyArray<{ sha: string; desired: DesiredStatus; read: ReadonlyMap<string, CommitStatus> | undefined }>,
): Promise<Map<string, Map<string, CommitStatus> | null>> {
  const context = (inputs.status?.context ?? '').toLowerCase();
  const changing = plans.filter(({ desired, read }) => {
    if (!read) return false;
    const newest = read.get(context);
    return !(newest && newest.state === desired.state && newest.description === desired.description);
  });
  if (changing.length < 2) return new Map();
  try {
    return (await readGateSnapshot(gh, inputs.repo, [], [...new Set(changing.map((p) => p.sha))])).commits;
  } catch {
    return new Map();
  }
}

/** The `error` status on a PR whose reads failed: read its head (if even that fails, nothing can be written). */
async function errorStatus(gh: GitHub, inputs: ItemInputs, number: number, err: unknown, run: CheckRun): Promise<void> {
  if (!inputs.status) return;
  try {
    const info = await readPull(gh, inputs.repo, number);
    const outcome = await keepStatus(gh, inputs.repo, `PR #${number}`, info.sha, inputs.status, statusOf(null, errorMessage(err)));
    if (outcome.warning) run.warnings.push(outcome.warning);
  } catch {
    // The head commit cannot be read either: the step's failure says why.
  }
}
