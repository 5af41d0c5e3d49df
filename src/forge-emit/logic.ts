/**
 * forge-emit's logic: decide where the annotation goes (new comment, in-place
 * edit, or nothing), write it, settle races, and move the workflow label.
 * Takes typed inputs and the GitHub client; returns a result object.
 */
import {
  LabelTransitionError,
  MAX_BODY_LENGTH,
  TERMINAL_LABELS,
  parse,
  planTransition,
  type Annotation,
  type EmitInput,
  type LabelPlan,
} from '../codec/index.js';
import { errorMessage, UsageError } from '../common/errors.js';
import { sameText } from '../common/line-ends.js';
import { counts, trustOfSource, type Source } from '../common/trust.js';
import { trustedOfType, type Located } from '../common/trusted-annotations.js';
import type { ThreadComment, WorkItem } from '../common/work-item.js';
import type { GitHub } from '../github/client.js';
import { earliestWins } from '../github/earliest-wins.js';
import { ApiError } from '../github/errors.js';
import { reviewDomain, verdictOf } from '../decision/verdicts.js';
import { getIssue, listComments, resolveMilestone, tokenLogin, writtenByToken } from '../github/reads.js';
import {
  addLabels,
  createComment,
  deleteComment,
  ensureLabel,
  removeLabel,
  updateComment,
  updateIssueBody,
  updateMilestoneDescription,
} from '../github/writes.js';
import type { Composed } from '../common/compose-annotation.js';
import { FULL_COMMIT } from '../common/commits.js';
import { recordedRun, RUN_FIELD, type EmitStepInputs, type IfExists, type RunRecord } from './inputs.js';

/** The typed inputs with the annotation composed from them: what every write below works from. */
type EmitJob = EmitStepInputs & { text: string };

export type EmitResultKind = 'created' | 'updated' | 'skipped' | 'dry-run';

export interface EmitOutcome {
  result: EmitResultKind;
  commentId: number | null;
  commentUrl: string;
  /** The label the item carries for this step ('' when none was asked for). */
  label: string;
  /** What the run did, or would do in a dry run, one line each. */
  steps: string[];
  /** Where it was written, for people: `#12`, `body of #12`, `milestone v1`. */
  where: string;
  /** Set when the comment it wrote is by an author the pipeline does not trust: what it wrote will not count. */
  untrustedWriter?: string;
}

/** Thrown when a write fails after earlier writes succeeded: says exactly what changed. */
export class PartialWriteError extends Error {
  constructor(cause: unknown, done: string[]) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(done.length > 0 ? `${why} — already done before the failure: ${done.join('; ')}` : why);
    this.name = 'PartialWriteError';
  }
}

/** An existing annotation of the type: in a comment, or (comment null) in an issue body or milestone. */
export type Candidate = Located<Annotation>;

export type Decision =
  | { kind: 'skip'; existing: Candidate; why: string }
  | { kind: 'splice'; existing: Candidate; why: string }
  | { kind: 'add'; why: string };

/**
 * §11 idempotency and §3.3 replacement, as one decision over the trusted
 * annotations of the type already there (oldest first). Pure.
 */
export function decide(candidates: readonly Candidate[], type: string, ifExists: IfExists): Decision {
  const complete = candidates.filter((c) => c.annotation.sentinelState === 'complete');
  const unfinished = candidates.filter((c) => c.annotation.sentinelState !== 'complete');
  if (ifExists === 'skip' && complete.length > 0)
    return { kind: 'skip', existing: complete[0], why: `a complete ${type} is already there` };
  if (ifExists === 'replace' && complete.length > 0)
    return { kind: 'splice', existing: complete[complete.length - 1], why: `replacing the existing ${type}` };
  const last = unfinished[unfinished.length - 1];
  if (last) return { kind: 'splice', existing: last, why: `replacing the ${last.annotation.sentinelState} ${type} in place (§3.3)` };
  return { kind: 'add', why: `no ${type} yet` };
}

/**
 * The default, `new`: a stage that runs again leaves a new annotation (the newest speaks, §3.2; the older stays as
 * history), and the same run writes it once. `mine` are the annotations of the type this run already wrote (its
 * Run field names this run and attempt, by the token's identity — trusted or not): a complete one makes the run a
 * no-op; a partial or interrupted one is this run's own work, continued in place (§3.3). Without a run (outside a
 * workflow), the exact text already there by a trusted author or the token's identity stands for it. Pure.
 */
export function decideNew(mine: readonly Candidate[], sameText: Candidate | null, type: string, run: RunRecord | null): Decision {
  const complete = mine.filter((c) => c.annotation.sentinelState === 'complete');
  const runName = run ? `run ${run.id} attempt ${run.attempt}` : '';
  if (complete.length > 0) return { kind: 'skip', existing: complete[0], why: `this ${runName} already wrote this ${type}` };
  const unfinished = mine.at(-1);
  if (unfinished)
    return {
      kind: 'splice',
      existing: unfinished,
      why: `this ${runName} wrote a ${unfinished.annotation.sentinelState} ${type}: it is completed in place (§3.3)`,
    };
  if (sameText) return { kind: 'skip', existing: sameText, why: `the exact ${type} is already there` };
  return { kind: 'add', why: `a new ${type}${run ? ` for ${runName}` : ''}` };
}

/** What a run did (steps, for people) and what it changed (done, for a failure that needs to say so). */
interface Journal {
  steps: string[];
  done: string[];
}

/**
 * §7.2(5): a consumer stops at a terminal state, so a stage of the chain is not written onto an item the terminal
 * state has passed (a BUILDER onto a merged issue) — one line, nothing written. What belongs after it (the close
 * phase's TRAJECTORY, audits, control markers, claims) is no stage and stays allowed.
 */
function refusePastTerminal(issue: WorkItem, inputs: EmitJob): void {
  if (!inputs.chainStages.includes(inputs.type)) return;
  const terminal = issue.labels.find((l) => TERMINAL_LABELS.has(l));
  if (terminal)
    throw new UsageError(
      `#${inputs.number} is labelled ${terminal}, a terminal state: a ${inputs.type} stage is not written past it (§7.2) — remove the label to run the stage again; nothing was written`,
    );
}

/**
 * The label move of this run: the step's `label` (a refused move is the user's mistake), else the one the pipeline
 * names for this stage's completion — which, when the state machine does not allow it from where the item is, is
 * left (a warning-level step), never a reason to lose the annotation.
 */
function labelMove(labels: string[], inputs: EmitJob, log: Journal): { label: string; plan: LabelPlan } | null {
  if (inputs.label) return { label: inputs.label, plan: planLabelMove(labels, inputs.label) };
  if (!inputs.stageLabel) return null;
  // A verdict that ends the work moves the item to where the machine says it ends, not on to the next stage.
  const ending = endingLabel(inputs);
  if (ending) return { label: ending, plan: planThrough(labels, ending, inputs.type, log) };
  try {
    return { label: inputs.stageLabel, plan: planThrough(labels, inputs.stageLabel, inputs.type, log) };
  } catch (err) {
    if (!(err instanceof LabelTransitionError)) throw err;
    log.steps.push(`the pipeline moves a complete ${inputs.type} to ${inputs.stageLabel}, but ${err.message}: the label is left as it is`);
    return null;
  }
}

const RUNNING_STATES: readonly string[] = ['workflow:building'];

/** Verdicts that end the work instead of handing it on, per type: the label the machine ends it in (NOTES §4). */
const ENDING_VERDICTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  INVESTIGATOR: { INVALID: 'workflow:invalid' },
};

/** The label a complete annotation's verdict ends the item in, when it is one that ends it; null otherwise. */
function endingLabel(inputs: EmitJob): string | null {
  const table = ENDING_VERDICTS[inputs.type];
  if (!table || inputs.status !== 'complete') return null;
  const written = parse(inputs.text).find((a) => a.type === inputs.type);
  const verdict = written ? verdictOf(written) : null;
  return verdict ? (table[verdict.toUpperCase()] ?? null) : null;
}

/**
 * The pipeline's own move when a stage completes: the item may still carry the label that started the stage
 * (`workflow:ready-to-build` when the BUILDER completes), and the stage's run went through the state between
 * (`workflow:building`) without a label step of its own — one allowed state between is passed through; the labels
 * end as one move would leave them.
 */
function planThrough(labels: string[], to: string, type: string, log: Journal): LabelPlan {
  try {
    return planTransition(labels, to);
  } catch (err) {
    if (!(err instanceof LabelTransitionError)) throw err;
    const others = labels.filter((l) => !l.startsWith('workflow:'));
    // The machine's one state a stage runs in without a label step of its own: the builder's.
    for (const via of RUNNING_STATES) {
      if (labels.includes(via) || via === to) continue;
      try {
        planTransition(labels, via);
        const last = planTransition([...others, via], to);
        log.steps.push(`the complete ${type} moves the label through ${via} to ${to} (the stage ran in ${via})`);
        return { add: last.add, remove: labels.filter((l) => l.startsWith('workflow:') && l !== to) };
      } catch (inner) {
        if (!(inner instanceof LabelTransitionError)) throw inner;
      }
    }
    throw err;
  }
}

/** The state machine's plan for the label move; a refused move is the user's mistake. */
function planLabelMove(labels: string[], to: string): LabelPlan {
  try {
    return planTransition(labels, to);
  } catch (err) {
    if (err instanceof LabelTransitionError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * Replace the annotation's own text — the tag through its last sentinel line
 * (`closeEnd`) — and leave everything around it as it was, including what a
 * producer appended after the sentinel (§3.1: still part of the annotation).
 */
export function splice(body: string, a: Annotation, text: string): string {
  return body.slice(0, a.start) + text + body.slice(a.closeEnd);
}

function append(body: string, text: string): string {
  const trimmed = body.replace(/\s+$/, '');
  return trimmed === '' ? text : `${trimmed}\n\n${text}`;
}

function checkLength(what: string, body: string): void {
  if (body.length > MAX_BODY_LENGTH)
    throw new UsageError(`${what} would be ${body.length} characters; GitHub's limit is ${MAX_BODY_LENGTH} — nothing was written`);
}

interface Written {
  result: EmitResultKind;
  comment: ThreadComment | null;
}

/**
 * Which annotations are "the same annotation" as the one this step writes: its type, and for REVIEWER its review
 * domain too — one review run may write one REVIEWER per domain (two steps, or a matrix: the same run and attempt),
 * and a SECURITY verdict is never taken for the LOGIC one already written.
 */
function sameSlot(inputs: EmitJob): (a: Annotation) => boolean {
  const domainOf = (a: Annotation) => (a.type === 'REVIEWER' ? reviewDomain(a) : '');
  const written = parse(inputs.text).find((a) => a.type === inputs.type);
  const domain = written ? domainOf(written) : '';
  return (a) => a.type === inputs.type && domainOf(a) === domain;
}

/**
 * The comments of the thread this run (its run id and attempt) wrote an annotation of the type in, by the token's
 * identity whatever trusted-authors says: asked of GitHub (one request) only when such a comment is there.
 */
async function writtenByThisRun(gh: GitHub, inputs: EmitJob, comments: readonly ThreadComment[]): Promise<Candidate[]> {
  if (inputs.run === null) return [];
  const ours = `${inputs.run.id}/${inputs.run.attempt}`;
  const slot = sameSlot(inputs);
  const found: Candidate[] = [];
  for (const comment of comments) {
    if (!comment.body.includes(`FORGE:${inputs.type}`) || !comment.body.includes(`/actions/runs/${inputs.run.id}/`)) continue;
    for (const annotation of parse(comment.body))
      if (slot(annotation) && recordedRun(annotation.fields) === ours)
        found.push({ annotation, source: 'comment', item: inputs.number, comment, url: comment.url, author: comment.author });
  }
  if (found.length === 0) return [];
  // Anyone can type a Run field: only the token's own comments are this run's.
  const me = await tokenLogin(gh);
  return found.filter((c) => writtenByToken(me, c.author.login));
}

async function decideForComment(gh: GitHub, inputs: EmitJob, comments: ThreadComment[]): Promise<Decision> {
  const slot = sameSlot(inputs);
  const trusted = trustedOfType(comments, inputs.number, inputs.type, inputs.trust).filter((c) => slot(c.annotation));
  if (inputs.ifExists !== 'new') return decide(trusted, inputs.type, inputs.ifExists);
  const mine = await writtenByThisRun(gh, inputs, comments);
  const same = inputs.run === null ? (trusted.find((c) => c.comment && sameText(c.comment.body, inputs.text)) ?? null) : null;
  return decideNew(mine, same, inputs.type, inputs.run);
}

async function emitToComment(gh: GitHub, inputs: EmitJob, comments: ThreadComment[], log: Journal): Promise<Written> {
  const written = await writeComment(gh, inputs, comments, log);
  if (inputs.status === 'complete' && !inputs.dryRun && (written.result === 'created' || written.result === 'updated') && written.comment)
    await removeSupersededPartials(gh, inputs, comments, written.comment.id, log);
  return written;
}

/**
 * §3.3: once a stage completes, its partial and interrupted annotations are removed, so no consumer reads incomplete
 * context (the spec's own check reads the first one it finds). Each trusted one of the same annotation (type and
 * domain) written since the stage last completed goes, whoever wrote it: the comment is deleted when it holds only
 * that annotation, else the annotation alone is cut out of it. One GitHub refuses is said, and the completion stands.
 */
async function removeSupersededPartials(gh: GitHub, inputs: EmitJob, comments: readonly ThreadComment[], kept: number, log: Journal) {
  const slot = sameSlot(inputs);
  const mine = trustedOfType(comments, inputs.number, inputs.type, inputs.trust).filter((c) => slot(c.annotation) && c.comment);
  const at = (c: Candidate) => c.comment?.createdAt ?? '';
  const lastDone = mine
    .filter((c) => c.annotation.sentinelState === 'complete' && c.comment?.id !== kept)
    .map(at)
    .sort()
    .at(-1);
  const unfinished = mine.filter(
    (c) => c.annotation.sentinelState !== 'complete' && c.comment?.id !== kept && (lastDone === undefined || at(c) > lastDone),
  );
  for (const c of unfinished) {
    const comment = c.comment as ThreadComment;
    const rest = splice(comment.body, c.annotation, '').trim();
    try {
      if (rest === '') {
        await deleteComment(gh, inputs.repo, comment.id);
        log.done.push(`deleted comment ${comment.id} (the ${c.annotation.sentinelState} ${inputs.type} it held is completed)`);
      } else {
        await updateComment(gh, inputs.repo, comment.id, splice(comment.body, c.annotation, '').replace(/\s+$/, ''));
        log.done.push(`cut the ${c.annotation.sentinelState} ${inputs.type} out of comment ${comment.id} (it is completed)`);
      }
      log.steps.push(`removed the ${c.annotation.sentinelState} ${inputs.type} of comment ${comment.id}: the stage is complete (§3.3)`);
    } catch (err) {
      log.steps.push(
        `the ${c.annotation.sentinelState} ${inputs.type} of comment ${comment.id} could not be removed (${errorMessage(err)}): it stays beside the completion`,
      );
    }
  }
}

async function writeComment(gh: GitHub, inputs: EmitJob, comments: ThreadComment[], log: Journal): Promise<Written> {
  const decision = await decideForComment(gh, inputs, comments);
  if (decision.kind === 'skip') {
    log.steps.push(`skip: ${decision.why} (comment ${decision.existing.comment?.id})`);
    return { result: 'skipped', comment: decision.existing.comment };
  }
  if (decision.kind === 'splice') {
    const c = decision.existing.comment as ThreadComment;
    const body = splice(c.body, decision.existing.annotation, inputs.text);
    if (sameText(body, c.body)) {
      log.steps.push(`skip: comment ${c.id} already holds this exact text`);
      return { result: 'skipped', comment: c };
    }
    checkLength(`comment ${c.id}`, body);
    log.steps.push(`edit comment ${c.id}: ${decision.why}`);
    if (inputs.dryRun) return { result: 'dry-run', comment: c };
    const updated = await updateComment(gh, inputs.repo, c.id, body);
    log.done.push(`edited comment ${c.id}`);
    return { result: 'updated', comment: updated };
  }
  checkLength('the new comment', inputs.text);
  log.steps.push(`create a comment on #${inputs.number}: ${decision.why}`);
  if (inputs.dryRun) return { result: 'dry-run', comment: null };
  const created = await createOnce(
    gh,
    inputs,
    log,
    comments.reduce((max, c) => Math.max(max, c.id), 0),
  );
  log.done.push(`created comment ${created.id}`);
  if ((inputs.ifExists !== 'skip' && inputs.ifExists !== 'new') || inputs.status !== 'complete')
    return { result: 'created', comment: created };

  // Two runs racing to emit the same annotation: post, re-read, and remove ours when an earlier complete one
  // exists, so exactly one is left — in `new` mode, one of this run (the same Run, by the same identity), or the
  // same text when there is no run.
  const run = inputs.run ? `${inputs.run.id}/${inputs.run.attempt}` : null;
  const same = (c: ThreadComment) =>
    inputs.ifExists === 'skip'
      ? trustedOfType([c], inputs.number, inputs.type, inputs.trust).some((f) => f.annotation.sentinelState === 'complete')
      : c.author.login === created.author.login &&
        (run === null
          ? sameText(c.body, inputs.text)
          : parse(c.body).some((a) => sameSlot(inputs)(a) && a.sentinelState === 'complete' && recordedRun(a.fields) === run));
  const earlier = await earliestWins(gh, inputs.repo, inputs.number, created, same);
  if (earlier === null) return { result: 'created', comment: created };
  log.done.push(`deleted comment ${created.id} again`);
  log.steps.push(`removed comment ${created.id}: comment ${earlier.id} was posted first by a concurrent run`);
  return { result: 'skipped', comment: earlier };
}

/** Attempts at a comment POST whose outcome was unknown (5xx, connection lost). */
const CREATE_ATTEMPTS = 3;

/** A failure after which the request may still have been carried out. */
function outcomeUnknown(err: unknown): boolean {
  return err instanceof ApiError && err.transient && (err.status === null || err.status >= 500);
}

/**
 * Post the annotation exactly once. The client does not retry this POST by
 * itself: a 5xx can arrive after the comment landed. Before each repeat the
 * thread is re-read, and a trusted comment holding exactly this text — ours,
 * landed after all — is adopted instead of posting a second one (in `append`
 * mode too: a retry is not an append).
 */
async function createOnce(gh: GitHub, inputs: EmitJob, log: Journal, newestBefore: number): Promise<ThreadComment> {
  let me: string | null | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await createComment(gh, inputs.repo, inputs.number, inputs.text, { once: true });
    } catch (err) {
      if (!outcomeUnknown(err) || attempt >= CREATE_ATTEMPTS) throw err;
      me ??= await tokenLogin(gh);
      const after = await listComments(gh, inputs.repo, inputs.number);
      // Only a comment this attempt could have created: newer than every comment read before the first POST,
      // written by the token's identity (an installation token's is a bot), holding exactly this text. A
      // previous round's identical comment is never mistaken for this one.
      const landed = after.find(
        (c) =>
          c.id > newestBefore &&
          writtenByToken(me ?? null, c.author.login) &&
          counts('comment', c.author, inputs.trust) &&
          sameText(c.body, inputs.text),
      );
      if (landed) {
        log.steps.push(`adopted comment ${landed.id}: the POST that failed (${errorMessage(err)}) had landed`);
        return landed;
      }
      log.steps.push(`retrying the POST: it failed (${errorMessage(err)}) and the thread does not hold the comment`);
    }
  }
}

/** An issue body (PRIOR_GIST) or a milestone description (MILESTONE_INDEX): one text, edited whole. */
interface TextDestination {
  text: string;
  /** Whose word the text is (an issue body: its author's; a milestone description: GitHub's write access). */
  source: Source;
  url: string;
  author: WorkItem['author'];
  /** For people: `the body of #12`. */
  what: string;
  /** Short, for the outcome: `body of #12`. */
  where: string;
  write: (text: string) => Promise<void>;
}

async function emitToText(inputs: EmitJob, dest: TextDestination, log: Journal): Promise<Written> {
  const { text: current, what } = dest;
  const present = parse(current).filter((a) => a.type === inputs.type);
  // Re-running the same step is a no-op even when the body's author is not
  // trusted (we wrote this text ourselves, and its exact copy is harmless).
  if (inputs.ifExists !== 'append' && present.some((a) => sameText(current.slice(a.start, a.closeEnd), inputs.text))) {
    log.steps.push(`skip: ${what} already holds this exact annotation`);
    return { result: 'skipped', comment: null };
  }
  const trusted = trustOfSource(dest.source, inputs.trust).counts;
  const candidates: Candidate[] = trusted
    ? present.map((annotation) => ({
        annotation,
        source: dest.source.kind,
        item: inputs.number,
        comment: null,
        url: dest.url,
        author: dest.author,
      }))
    : [];
  // One text holds one value of an inline type: `new` keeps the one there, as `skip` does.
  const decision = decide(candidates, inputs.type, inputs.ifExists === 'new' ? 'skip' : inputs.ifExists);
  if (decision.kind === 'skip') {
    log.steps.push(`skip: ${decision.why} in ${what}`);
    return { result: 'skipped', comment: null };
  }
  const next = decision.kind === 'splice' ? splice(current, decision.existing.annotation, inputs.text) : append(current, inputs.text);
  if (sameText(next, current)) {
    log.steps.push(`skip: ${what} already holds this exact text`);
    return { result: 'skipped', comment: null };
  }
  checkLength(what, next);
  log.steps.push(`${decision.kind === 'splice' ? 'edit' : 'append to'} ${what}: ${decision.why}`);
  if (inputs.dryRun) return { result: 'dry-run', comment: null };
  await dest.write(next);
  log.done.push(`edited ${what}`);
  return { result: decision.kind === 'splice' ? 'updated' : 'created', comment: null };
}

async function applyLabel(gh: GitHub, inputs: EmitJob, plan: LabelPlan, log: Journal): Promise<void> {
  if (plan.add.length === 0 && plan.remove.length === 0) {
    log.steps.push(`label ${inputs.label} already set`);
    return;
  }
  for (const l of plan.add) log.steps.push(`add label ${l}`);
  for (const l of plan.remove) log.steps.push(`remove label ${l}`);
  if (inputs.dryRun) return;
  for (const l of plan.add) {
    if (await ensureLabel(gh, inputs.repo, l, l === 'needs-human' ? 'd93f0b' : '5319e7', 'FORGE workflow state'))
      log.done.push(`created label ${l} in the repository`);
  }
  // Add before removing: a failure in between leaves the item with both, never with none.
  if (plan.add.length > 0) {
    await addLabels(gh, inputs.repo, inputs.number, plan.add);
    log.done.push(`added ${plan.add.join(', ')}`);
  }
  for (const l of plan.remove) {
    await removeLabel(gh, inputs.repo, inputs.number, l);
    log.done.push(`removed ${l}`);
  }
}

type Resolved = { kind: 'comment'; comments: ThreadComment[]; where: string } | { kind: 'text'; dest: TextDestination; where: string };

/** Read where the annotation goes, before any write: a missing milestone is refused here. */
async function resolveDestination(gh: GitHub, inputs: EmitJob, issue: WorkItem): Promise<Resolved> {
  const r = inputs.repo;
  if (inputs.destination === 'comment')
    return { kind: 'comment', comments: await listComments(gh, r, inputs.number), where: `#${inputs.number}` };
  if (inputs.destination === 'issue-body') {
    const dest: TextDestination = {
      text: issue.body,
      source: { kind: 'issue-body', author: issue.author },
      url: issue.url,
      author: issue.author,
      what: `the body of #${inputs.number}`,
      where: `body of #${inputs.number}`,
      write: (text) => updateIssueBody(gh, r, inputs.number, text),
    };
    return { kind: 'text', dest, where: dest.where };
  }
  const m = await resolveMilestone(gh, r, inputs.milestone !== null ? { name: inputs.milestone } : { ofIssue: issue });
  const dest: TextDestination = {
    text: m.description,
    source: { kind: 'milestone-description' },
    url: m.url,
    author: { login: null, association: 'NONE' },
    what: `the description of milestone "${m.title}"`,
    where: `milestone ${m.title}`,
    write: (text) => updateMilestoneDescription(gh, r, m.number, text),
  };
  return { kind: 'text', dest, where: dest.where };
}

/** The field a REVIEWER records the commit it reviewed in: the gate counts it exactly for that commit. */
export const REVIEWED_COMMIT_FIELD = 'Commit';

/**
 * The commit a REVIEWER written as a comment on a PR records (`**Commit**:
 * <sha>`): the one the run reviewed — the `reviewed-commit` input, or the head
 * of the PR event the run started for. Never the PR's head when posting: a
 * stranger who pushes while the review agent runs would get the new code
 * approved. Null when nothing is to be added: another type, not a comment, a
 * Commit field already given (it must be a full id), or the number is an
 * issue. A PR with no known reviewed commit is refused before any write.
 */
export async function reviewedCommit(gh: GitHub, inputs: EmitStepInputs, content: EmitInput): Promise<string | null> {
  if (inputs.type !== 'REVIEWER' || inputs.destination !== 'comment') return null;
  const given = Array.isArray(content.fields)
    ? content.fields.find(([k]) => k.toLowerCase() === REVIEWED_COMMIT_FIELD.toLowerCase())?.[1]
    : Object.entries(content.fields ?? {}).find(([k]) => k.toLowerCase() === REVIEWED_COMMIT_FIELD.toLowerCase())?.[1];
  if (given !== undefined) {
    if (inputs.reviewedCommit?.from === 'input')
      throw new UsageError(`give the reviewed commit once: input "reviewed-commit" or a "${REVIEWED_COMMIT_FIELD}" field, not both`);
    const v = String(given).replace(/^`|`$/g, '').trim();
    if (!FULL_COMMIT.test(v))
      throw new UsageError(
        `field "${REVIEWED_COMMIT_FIELD}" must be the full commit id the review is about (40 hex digits), got ${JSON.stringify(String(given))}: a prefix binds no one commit — nothing was written`,
      );
    return null;
  }
  if (inputs.reviewedCommit !== null) return inputs.reviewedCommit.sha;
  const item = await getIssue(gh, inputs.repo, inputs.number);
  if (item.kind !== 'pull') return null;
  throw new UsageError(
    `a REVIEWER on PR #${inputs.number} must record the commit the run reviewed: run on the PR's pull_request event, or set input "reviewed-commit" to the commit the job checked out (git rev-parse HEAD) — the head at posting time may hold code nobody reviewed; nothing was written`,
  );
}

/** The content with the run that writes it recorded (its Run field), unless the step gave a Run field of its own. */
export function withRun(content: EmitInput, run: RunRecord | null): EmitInput {
  if (run === null) return content;
  const has = (k: string) => k.toLowerCase() === RUN_FIELD.toLowerCase();
  if (Array.isArray(content.fields)) {
    if (content.fields.some(([k]) => has(k))) return content;
    return { ...content, fields: [...content.fields, [RUN_FIELD, run.url] as [string, unknown]] };
  }
  if (Object.keys(content.fields ?? {}).some(has)) return content;
  return { ...content, fields: { ...(content.fields ?? {}), [RUN_FIELD]: run.url } };
}

export function withReviewedCommit(content: EmitInput, sha: string): EmitInput {
  const fields = Array.isArray(content.fields)
    ? [...content.fields, [REVIEWED_COMMIT_FIELD, sha] as [string, unknown]]
    : { ...(content.fields ?? {}), [REVIEWED_COMMIT_FIELD]: sha };
  return { ...content, fields };
}

export async function runEmit(gh: GitHub, stepInputs: EmitStepInputs, annotation: Composed): Promise<EmitOutcome> {
  const inputs: EmitJob = { ...stepInputs, text: annotation.text };
  const log: Journal = { steps: [], done: [] };
  // Reads first: every refusal (label transition, size, missing milestone) happens before any write.
  const issue = await getIssue(gh, inputs.repo, inputs.number);
  refusePastTerminal(issue, inputs);
  const moved = labelMove(issue.labels, inputs, log);
  const destination = await resolveDestination(gh, inputs, issue);

  let written: Written;
  try {
    written =
      destination.kind === 'comment'
        ? await emitToComment(gh, inputs, destination.comments, log)
        : await emitToText(inputs, destination.dest, log);
    if (moved) await applyLabel(gh, { ...inputs, label: moved.label }, moved.plan, log);
  } catch (err) {
    if (log.done.length === 0) throw err instanceof ApiError ? new ApiError(`${err.message} — nothing was written`, err.status) : err;
    throw new PartialWriteError(err, log.done);
  }

  // The token's identity is not in trusted-authors: every reader, the gate and the dispatcher will ignore what it wrote.
  const by = written.comment?.author;
  const untrustedWriter =
    by && (written.result === 'created' || written.result === 'updated') && !counts('comment', by, inputs.trust)
      ? `${inputs.type} was written as ${by.login ?? '(unknown)'} (${by.association}), whom trusted-authors does not name: the reader, the gate and the dispatcher will not count it — add ${by.login ?? 'that identity'} to trusted-authors in .github/forge.yml`
      : undefined;
  return {
    ...(untrustedWriter ? { untrustedWriter } : {}),
    result: written.result,
    commentId: written.comment?.id ?? null,
    commentUrl: written.comment?.url ?? '',
    label: moved?.label ?? '',
    steps: log.steps,
    where: destination.where,
  };
}
