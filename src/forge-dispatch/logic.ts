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
import { currentState, emit, TERMINAL_LABELS } from '../codec/index.js';
import { sameText } from '../common/line-ends.js';
import { UsageError } from '../common/errors.js';
import { formatPeriod } from '../common/periods.js';
import { resolveAnswer, routeRules, type PipelineAnswer, type Resolved, type Stage } from '../common/pipeline.js';
import { counts, parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { trustedOfType } from '../common/trusted-annotations.js';
import type { WorkItem } from '../common/work-item.js';
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
import { listComments } from '../github/reads.js';
import { listIssues } from '../github/repo-reads.js';
import { sweepRepository, type SweptPull } from '../github/sweep-read.js';
import { checkWorkflow, dispatchWorkflow } from '../github/workflows.js';
import { addLabels, closeIssue, createComment, createIssue, deleteComment, updateIssueBody } from '../github/writes.js';
import { BOARD_MARKER, boardMarkdown, labelContradiction, waitOf, type BoardItem } from './board.js';
import type { DispatchInputs } from './inputs.js';

export interface Dispatched {
  number: number;
  stage: string;
  workflow: string;
  claim: string;
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
  /** dispatched, running (a live claim), escalated, closed, needs-human, claimed-elsewhere, or waiting (nothing to start). */
  action: 'dispatched' | 'running' | 'escalated' | 'closed' | 'needs-human' | 'claimed-elsewhere' | 'waiting';
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
  return { result: buildContext(req), req, target: req.issues[0] ?? snapshot.subject, defaultBranch: snapshot.defaultBranch };
}

async function readItem(gh: GitHub, inputs: DispatchInputs, number: number, trust: TrustPolicy, p: Resolved): Promise<Read> {
  const snapshot = await readContextSnapshot(gh, inputs.repo, number, async (pull) => counts('closing-reference', pull.author, trust));
  return readOf(snapshot, trust, p);
}

const claimText = (stage: string, holder: string, ttlMs: number) =>
  emit('CLAIM', {
    fields: { Holder: holder, Files: '(a pipeline stage: none named)', Interfaces: '(none)', TTL: formatPeriod(ttlMs), Stage: stage },
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
  const earlier = trustedOfType(thread, target.number, 'CLAIM', trust).find((c) => {
    // Claims this dispatcher read before deciding were judged then (none was live): only a newcomer can win.
    if (!c.comment || c.comment.id === ours.id || seen.has(c.comment.id) || c.annotation.sentinelState !== 'complete') return false;
    const stageOf = claimedStage(c.annotation);
    const at = c.comment.createdAt ?? '';
    const live = at !== '' && Date.parse(at) + ttl > now;
    const first = at < (ours.createdAt ?? '') || (at === (ours.createdAt ?? '') && c.comment.id < ours.id);
    return stageOf === stage && live && first;
  });
  if (!earlier) return { url: ours.url, lost: null };
  await deleteComment(gh, inputs.repo, ours.id);
  return { url: null, lost: earlier.url };
}

function attemptsComment(stage: string, runs: StageRuns, budget: number): string {
  const links = runs.attempts.map((a, i) => `${i + 1}. ${a.kind} — ${a.url}`).join('\n');
  return `**FORGE dispatch**: ${stage} has had ${runs.count} attempts since it last completed, and the pipeline allows ${budget}: a person decides what happens next, and nothing more is dispatched for it.\n\n${links}\n`;
}

async function actOnItem(
  gh: GitHub,
  inputs: DispatchInputs,
  p: Resolved,
  trust: TrustPolicy,
  read: Read,
  runnerNow: number,
  out: DispatchOutcome,
) {
  const number = read.target.number;
  // Claims are stamped by GitHub's clock: their age is judged by it too (the Date of this run's first answer), not the runner's.
  const now = requestStats(gh).firstAnswerAt ?? runnerNow;
  const next = read.result.nextPhase;
  const why = read.result.nextReason;
  const target = read.target;
  const item = (action: ItemOutcome['action'], detail: string) => {
    out.items.push({ number, next, why, action, detail });
    out.board.push(boardItem(read, next, action === 'waiting' ? why : detail || why, action, p, now));
  };
  const stage: Stage | undefined = p.pipeline.chain.find((s) => s.type === next && s.workflow !== null);
  if (stage?.workflow) {
    const runs = stageRuns(candidatesOf(read.req), next, now, p.pipeline.claimTtlMs);
    if (runs.live) return item('running', `${next} is claimed by ${runs.live.holder} until ${runs.live.expiresAt} (${runs.live.url})`);
    if (runs.count >= p.pipeline.attempts) {
      out.escalated.push({ number, stage: next, attempts: runs.count });
      if (target.labels.includes('needs-human')) return item('escalated', `${runs.count} attempts; already labelled needs-human`);
      if (!inputs.dryRun) {
        await addLabels(gh, inputs.repo, target.number, ['needs-human']);
        await createComment(gh, inputs.repo, target.number, attemptsComment(next, runs, p.pipeline.attempts));
      }
      return item('escalated', `${runs.count} attempts of ${p.pipeline.attempts}: labelled needs-human, with a comment listing them`);
    }
    if (read.defaultBranch === null)
      throw new ApiError(`reading #${number}: GitHub did not name the default branch to start ${stage.workflow} on`, null);
    if (inputs.dryRun) {
      out.dispatched.push({ number, stage: next, workflow: stage.workflow, claim: '' });
      return item('dispatched', `would claim ${next} on #${target.number} and start ${stage.workflow} (dry run)`);
    }
    const seen = new Set(
      candidatesOf(read.req)
        .filter((c) => c.annotation.type === 'CLAIM' && c.comment)
        .map((c) => c.comment?.id as number),
    );
    const claimed = await claim(gh, inputs, target, next, p, trust, now, seen);
    if (claimed.url === null)
      return item('claimed-elsewhere', `another dispatcher claimed ${next} first (${claimed.lost}): nothing started`);
    await dispatchWorkflow(gh, inputs.repo, stage.workflow, read.defaultBranch, {
      'issue-number': String(target.number),
      stage: next,
      claim: claimed.url,
    });
    out.dispatched.push({ number, stage: next, workflow: stage.workflow, claim: claimed.url });
    return item('dispatched', `claimed ${next} (${claimed.url}) and started ${stage.workflow} on ${read.defaultBranch}`);
  }
  if (next === 'close' && p.pipeline.actOn.includes('close') && target.kind === 'issue' && target.state !== 'closed') {
    if (!inputs.dryRun) {
      await addLabels(gh, inputs.repo, target.number, ['workflow:invalid']);
      await closeIssue(gh, inputs.repo, target.number, 'not_planned');
    }
    return item('closed', `closed #${target.number} as not planned and labelled workflow:invalid`);
  }
  if (next === 'needs-human' && p.pipeline.actOn.includes('needs-human') && !target.labels.includes('needs-human')) {
    if (!inputs.dryRun) {
      await addLabels(gh, inputs.repo, target.number, ['needs-human']);
      await createComment(gh, inputs.repo, target.number, `**FORGE dispatch**: a person is needed — ${why}\n`);
    }
    return item('needs-human', `labelled #${target.number} needs-human, with one comment saying why`);
  }
  return item('waiting', stage ? '' : `${next} is not a stage the pipeline file maps to a workflow: nothing to start`);
}

export async function runDispatch(gh: GitHub, inputs: DispatchInputs, now: number): Promise<DispatchOutcome> {
  if (inputs.scope === 'item') {
    const p = resolveAnswer(await readPipelineFile(gh, inputs.repo));
    const trust = inputs.trust ?? parseTrustPolicy(p.pipeline.trustedAuthors);
    await checkWorkflows(gh, inputs, p);
    const out = outcome(p);
    await actOnItem(gh, inputs, p, trust, await readItem(gh, inputs, inputs.number as number, trust, p), now, out);
    return out;
  }
  // Read first: every open issue and PR, and the pipeline file, in about one request per 100 issues.
  const trustOf = (answer: PipelineAnswer) => inputs.trust ?? parseTrustPolicy(resolveAnswer(answer).pipeline.trustedAuthors);
  const sweep = await sweepRepository(gh, inputs.repo, (answer) => {
    const trust = trustOf(answer);
    return async (pull) => counts('closing-reference', pull.author, trust);
  });
  const p = resolveAnswer(sweep.pipeline);
  const trust = trustOf(sweep.pipeline);
  await checkWorkflows(gh, inputs, p);
  const out = outcome(p);
  // The board is no work item: found by its title and marker, written only by a trusted author.
  const isBoard = (i: WorkItem) =>
    i.title === p.pipeline.boardTitle && i.body.startsWith(BOARD_MARKER) && counts('issue-body', i.author, trust);
  const boardIssue = sweep.items.map((s) => s.subject).find(isBoard) ?? null;
  const work: Array<{ number: number; read: () => Promise<Read> }> = [
    ...sweep.items.filter((s) => !isBoard(s.subject)).map((s) => ({ number: s.subject.number, read: async () => readOf(s, trust, p) })),
    // An issue GitHub answered with a hole in is read alone (asked again, then named unread).
    ...sweep.reread.map((number) => ({ number, read: () => readItem(gh, inputs, number, trust, p) })),
  ].sort((a, b) => a.number - b.number);
  for (const w of work) {
    try {
      await actOnItem(gh, inputs, p, trust, await w.read(), now, out);
    } catch (err) {
      // One unreadable item is named; the sweep goes on.
      if (err instanceof UsageError) throw err;
      out.unread.push(`#${w.number}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  if (inputs.board) out.boardUrl = await writeBoard(gh, inputs, p, out, boardIssue, sweep.pulls);
  return out;
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
});

/** Every workflow the file maps a stage to, checked before anything is written: a missing file or input is one line. */
async function checkWorkflows(gh: GitHub, inputs: DispatchInputs, p: Resolved) {
  for (const s of p.pipeline.chain) if (s.workflow) await checkWorkflow(gh, inputs.repo, s.type, s.workflow);
}

/** What the board says of one item. */
function boardItem(read: Read, next: string, why: string, action: string, p: Resolved, now: number): BoardItem {
  const own = candidatesOf(read.req).filter((c) => c.scope === 'own' && c.untrusted === null);
  const chain = new Set(p.pipeline.chain.map((s) => s.type));
  const lastStageAt =
    own
      .filter((c) => chain.has(c.annotation.type) && c.createdAt !== null)
      .map((c) => c.createdAt as string)
      .sort()
      .at(-1) ?? null;
  const state = currentState(read.target.labels);
  const since = lastStageAt ?? read.target.createdAt ?? null;
  const types = p.pipeline.chain.map((s) => s.type);
  const complete = new Set(read.result.stages.filter((e) => e.scope === 'own' && e.status === 'included').map((e) => e.type));
  const nextEntry = read.result.stages.find((e) => e.scope === 'own' && e.type === next && e.status !== 'superseded');
  const waits = waitOf(read.result.nextRule, action, nextEntry?.status ?? null);
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
  if (found && sameText(found.body, text)) return found.url;
  if (inputs.dryRun) return found?.url ?? '';
  if (found) {
    await updateIssueBody(gh, inputs.repo, found.number, text);
    return found.url;
  }
  const isOurs = (i: WorkItem) => i.title === p.pipeline.boardTitle && i.body.startsWith(BOARD_MARKER);
  const landed = async () => (await listIssues(gh, inputs.repo, { state: 'open' })).find(isOurs) ?? null;
  return (await createIssue(gh, inputs.repo, p.pipeline.boardTitle, text, landed)).url;
}
