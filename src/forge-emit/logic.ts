/**
 * forge-emit's logic: decide where the annotation goes (new comment, in-place
 * edit, or nothing), write it, settle races, and move the workflow label.
 * Takes typed inputs and the GitHub client; returns a result object.
 */
import { LabelTransitionError, MAX_BODY_LENGTH, parse, planTransition, type Annotation, type LabelPlan } from '../codec/index.js';
import { errorMessage, UsageError } from '../common/errors.js';
import type { ThreadComment, WorkItem } from '../common/work-item.js';
import { isTrusted } from '../common/trust.js';
import type { GitHub } from '../github/client.js';
import { ApiError } from '../github/errors.js';
import { listComments, getIssue } from '../github/reads.js';
import { addLabels, createComment, deleteComment, ensureLabel, removeLabel, updateComment, updateIssueBody, updateMilestoneDescription } from '../github/writes.js';
import { resolveMilestone, type MilestoneInfo } from '../github/reads.js';
import type { EmitInputs } from './inputs.js';

export type EmitResultKind = 'created' | 'updated' | 'skipped' | 'dry-run';

export interface EmitOutcome {
  result: EmitResultKind;
  commentId: number | null;
  commentUrl: string;
  /** The label the item carries for this step ('' when none was asked for). */
  label: string;
  /** What the run did, or would do in a dry run, one line each. */
  actions: string[];
  target: string;
}

/** Thrown when a write fails after earlier writes succeeded: says exactly what changed. */
export class PartialWriteError extends Error {
  constructor(cause: unknown, done: string[]) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(done.length > 0 ? `${why} — already done before the failure: ${done.join('; ')}` : why);
    this.name = 'PartialWriteError';
  }
}

interface Candidate {
  annotation: Annotation;
  comment: ThreadComment | null;
}

/** Trusted annotations of `type` in the comments, oldest first. */
function candidatesInComments(comments: ThreadComment[], type: string, inputs: EmitInputs): Candidate[] {
  const out: Candidate[] = [];
  for (const c of comments) {
    if (!c.body.includes(`FORGE:${type}`) || !isTrusted(inputs.trust, c.author)) continue;
    for (const annotation of parse(c.body)) if (annotation.type === type) out.push({ annotation, comment: c });
  }
  return out;
}

type Decision = { kind: 'skip'; existing: Candidate; why: string } | { kind: 'splice'; existing: Candidate; why: string } | { kind: 'add'; why: string };

/** §11 idempotency and §3.3 replacement, as one decision over the existing annotations. */
function decide(candidates: Candidate[], inputs: EmitInputs): Decision {
  const complete = candidates.filter((c) => c.annotation.sentinelState === 'complete');
  const unfinished = candidates.filter((c) => c.annotation.sentinelState !== 'complete');
  if (inputs.ifExists === 'skip' && complete.length > 0)
    return { kind: 'skip', existing: complete[0], why: `a complete ${inputs.type} is already there` };
  if (inputs.ifExists === 'replace' && complete.length > 0)
    return { kind: 'splice', existing: complete[complete.length - 1], why: `replacing the existing ${inputs.type}` };
  if (unfinished.length > 0)
    return {
      kind: 'splice',
      existing: unfinished[unfinished.length - 1],
      why: `replacing the ${unfinished[unfinished.length - 1].annotation.sentinelState} ${inputs.type} in place (§3.3)`,
    };
  return { kind: 'add', why: `no ${inputs.type} yet` };
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

/** GitHub stores bodies edited on the web with CRLF: compare texts by their lines, not their line ends. */
export function sameText(a: string, b: string): boolean {
  return a === b || normaliseBreaks(a) === normaliseBreaks(b);
}

function normaliseBreaks(s: string): string {
  return s.indexOf('\r') < 0 ? s : s.replace(/\r\n?/g, '\n');
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

async function emitToComment(gh: GitHub, inputs: EmitInputs, comments: ThreadComment[], actions: string[], done: string[]): Promise<Written> {
  const decision = decide(candidatesInComments(comments, inputs.type, inputs), inputs);
  if (decision.kind === 'skip') {
    actions.push(`skip: ${decision.why} (comment ${decision.existing.comment?.id})`);
    return { result: 'skipped', comment: decision.existing.comment };
  }
  if (decision.kind === 'splice') {
    const c = decision.existing.comment as ThreadComment;
    const body = splice(c.body, decision.existing.annotation, inputs.text);
    if (sameText(body, c.body)) {
      actions.push(`skip: comment ${c.id} already holds this exact text`);
      return { result: 'skipped', comment: c };
    }
    checkLength(`comment ${c.id}`, body);
    actions.push(`edit comment ${c.id}: ${decision.why}`);
    if (inputs.dryRun) return { result: 'dry-run', comment: c };
    const updated = await updateComment(gh, inputs.repo, c.id, body);
    done.push(`edited comment ${c.id}`);
    return { result: 'updated', comment: updated };
  }
  checkLength('the new comment', inputs.text);
  actions.push(`create a comment on #${inputs.number}: ${decision.why}`);
  if (inputs.dryRun) return { result: 'dry-run', comment: null };
  const created = await createOnce(gh, inputs, actions);
  done.push(`created comment ${created.id}`);
  if (inputs.ifExists !== 'skip' || inputs.status !== 'complete') return { result: 'created', comment: created };

  // Two runs racing to emit the same annotation: post, re-read, and remove ours
  // when an earlier complete one exists, so exactly one is left.
  const after = await listComments(gh, inputs.repo, inputs.number);
  const earlier = candidatesInComments(after, inputs.type, inputs).find(
    (c) => c.annotation.sentinelState === 'complete' && c.comment !== null && c.comment.id < created.id,
  );
  if (!earlier || !earlier.comment) return { result: 'created', comment: created };
  await deleteComment(gh, inputs.repo, created.id);
  done.push(`deleted comment ${created.id} again`);
  actions.push(`removed comment ${created.id}: comment ${earlier.comment.id} was posted first by a concurrent run`);
  return { result: 'skipped', comment: earlier.comment };
}

/** Attempts at a comment POST whose outcome was unknown (5xx, connection lost). */
const CREATE_ATTEMPTS = 3;

/** A failure after which the request may still have been carried out. */
function outcomeUnknown(err: unknown): boolean {
  return err instanceof ApiError && (err.status === null || err.status >= 500);
}

/**
 * Post the annotation exactly once. The client does not retry this POST by
 * itself: a 5xx can arrive after the comment landed. Before each repeat the
 * thread is re-read, and a trusted comment holding exactly this text — ours,
 * landed after all — is adopted instead of posting a second one (in `append`
 * mode too: a retry is not an append).
 */
async function createOnce(gh: GitHub, inputs: EmitInputs, actions: string[]): Promise<ThreadComment> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createComment(gh, inputs.repo, inputs.number, inputs.text, { once: true });
    } catch (err) {
      if (!outcomeUnknown(err) || attempt >= CREATE_ATTEMPTS) throw err;
      const after = await listComments(gh, inputs.repo, inputs.number);
      const landed = after.find((c) => isTrusted(inputs.trust, c.author) && sameText(c.body, inputs.text));
      if (landed) {
        actions.push(`adopted comment ${landed.id}: the POST that failed (${errorMessage(err)}) had landed`);
        return landed;
      }
      actions.push(`retrying the POST: it failed (${errorMessage(err)}) and the thread does not hold the comment`);
    }
  }
}

/** The issue body (PRIOR_GIST) or a milestone description (MILESTONE_INDEX): one text, edited whole. */
async function emitToText(
  inputs: EmitInputs,
  current: string,
  trusted: boolean,
  what: string,
  write: (text: string) => Promise<void>,
  actions: string[],
  done: string[],
): Promise<Written> {
  const present = parse(current).filter((a) => a.type === inputs.type);
  // Re-running the same step is a no-op even when the body's author is not
  // trusted (we wrote this text ourselves, and its exact copy is harmless).
  if (inputs.ifExists !== 'append' && present.some((a) => sameText(current.slice(a.start, a.closeEnd), inputs.text))) {
    actions.push(`skip: ${what} already holds this exact annotation`);
    return { result: 'skipped', comment: null };
  }
  const candidates: Candidate[] = trusted ? present.map((annotation) => ({ annotation, comment: null })) : [];
  const decision = decide(candidates, inputs);
  if (decision.kind === 'skip') {
    actions.push(`skip: ${decision.why} in ${what}`);
    return { result: 'skipped', comment: null };
  }
  const next = decision.kind === 'splice' ? splice(current, decision.existing.annotation, inputs.text) : append(current, inputs.text);
  if (sameText(next, current)) {
    actions.push(`skip: ${what} already holds this exact text`);
    return { result: 'skipped', comment: null };
  }
  checkLength(what, next);
  actions.push(`${decision.kind === 'splice' ? 'edit' : 'append to'} ${what}: ${decision.why}`);
  if (inputs.dryRun) return { result: 'dry-run', comment: null };
  await write(next);
  done.push(`edited ${what}`);
  return { result: decision.kind === 'splice' ? 'updated' : 'created', comment: null };
}

async function applyLabel(gh: GitHub, inputs: EmitInputs, plan: LabelPlan, actions: string[], done: string[]): Promise<void> {
  if (plan.add.length === 0 && plan.remove.length === 0) {
    actions.push(`label ${inputs.label} already set`);
    return;
  }
  for (const l of plan.add) actions.push(`add label ${l}`);
  for (const l of plan.remove) actions.push(`remove label ${l}`);
  if (inputs.dryRun) return;
  for (const l of plan.add) {
    if (await ensureLabel(gh, inputs.repo, l, l === 'needs-human' ? 'd93f0b' : '5319e7', 'FORGE workflow state')) done.push(`created label ${l} in the repository`);
  }
  // Add before removing: a failure in between leaves the item with both, never with none.
  if (plan.add.length > 0) {
    await addLabels(gh, inputs.repo, inputs.number, plan.add);
    done.push(`added ${plan.add.join(', ')}`);
  }
  for (const l of plan.remove) {
    await removeLabel(gh, inputs.repo, inputs.number, l);
    done.push(`removed ${l}`);
  }
}

export async function runEmit(gh: GitHub, inputs: EmitInputs): Promise<EmitOutcome> {
  const actions: string[] = [];
  const done: string[] = [];
  // Reads first: every refusal (label transition, size, missing milestone) happens before any write.
  const issue: WorkItem = await getIssue(gh, inputs.repo, inputs.number);
  const plan = inputs.label ? planLabelMove(issue.labels, inputs.label) : null;

  let milestone: MilestoneInfo | null = null;
  let comments: ThreadComment[] = [];
  if (inputs.target === 'milestone') {
    milestone = await resolveMilestone(gh, inputs.repo, inputs.milestone, issue);
  } else if (inputs.target === 'comment') {
    comments = await listComments(gh, inputs.repo, inputs.number);
  }

  let written: Written;
  try {
    if (inputs.target === 'comment') written = await emitToComment(gh, inputs, comments, actions, done);
    else if (inputs.target === 'issue-body')
      written = await emitToText(
        inputs,
        issue.body,
        isTrusted(inputs.trust, issue.author),
        `the body of #${inputs.number}`,
        (text) => updateIssueBody(gh, inputs.repo, inputs.number, text),
        actions,
        done,
      );
    else {
      const m = milestone as MilestoneInfo;
      // Only people with write access can edit a milestone, so its description is trusted.
      written = await emitToText(
        inputs,
        m.description,
        true,
        `the description of milestone "${m.title}"`,
        (text) => updateMilestoneDescription(gh, inputs.repo, m.number, text),
        actions,
        done,
      );
    }
    if (plan) await applyLabel(gh, inputs, plan, actions, done);
  } catch (err) {
    if (done.length === 0 && err instanceof ApiError) throw new Error(`${err.message} — nothing was written`);
    throw new PartialWriteError(err, done);
  }

  return {
    result: written.result,
    commentId: written.comment?.id ?? null,
    commentUrl: written.comment?.url ?? '',
    label: inputs.label ?? '',
    actions,
    target: inputs.target === 'milestone' ? `milestone ${milestone?.title}` : inputs.target === 'issue-body' ? `body of #${inputs.number}` : `#${inputs.number}`,
  };
}
