/**
 * The threads one PR is checked through: the PR itself (its comments and
 * review bodies, where REVIEWER lives) and the issues it closes as GitHub
 * records the links. A link made in the Development sidebar (someone with
 * write access made it) always counts; a closing keyword is typed by the PR's
 * author, as easily as a tag, so it counts only when that author is trusted.
 */
import { FULL_COMMIT } from '../../common/commits.js';
import { parseRepository, repoName, type Repo } from '../../common/repo.js';
import { counts } from '../../common/trust.js';
import type { WorkItem } from '../../common/work-item.js';
import type { PullContext } from '../../decision/evaluate.js';
import type { GitHub } from '../../github/client.js';
import { ApiError } from '../../github/errors.js';
import { errorMessage } from '../../common/errors.js';
import { retryWaits, sleep } from '../../common/waits.js';
import { pullLinks, refKey, type ItemRef, type PullLinks } from '../../github/links.js';
import { copyThread, readIssueSnapshot, type PullSnapshot } from '../../github/snapshot.js';
import { resolvePermissions } from '../../github/permissions.js';
import { exemptionOf } from '../../decision/exempt.js';
import { readEvidence } from '../../github/evidence.js';
import type { ThreadComment } from '../../common/work-item.js';
import type { Author } from '../../common/trust.js';
import { getField, parse, parseAndValidate, stripCodeSpan } from '../../codec/index.js';
import { headArrival } from '../../github/activity.js';
import type { HeadSince } from '../../github/head-since.js';
import { taggedAuthors, type Ignored, type Located } from '../../common/trusted-annotations.js';
import {
  getIssue,
  listApprovals,
  listComments,
  listReviews,
  readPull,
  readThread,
  type PullInfo,
  type ReviewComment,
} from '../../github/reads.js';
import type { ItemInputs, StaleReviews } from '../inputs.js';

/**
 * A PR body can name any number of issues; each costs requests, so at most
 * this many are read. A PR that links more is not conforming: a verdict on
 * the first twenty would pass work nobody checked.
 */
export const MAX_CLOSING_REFERENCES = 20;

/**
 * GitHub fills a new PR's closing references some seconds after it opens,
 * and an empty list looks the same before and after. When a trusted author's
 * PR into the default branch has closing keywords but GitHub lists no link,
 * ask again after each of these waits (14 s in all), then read the keywords.
 * FORGE_LINK_RETRY_MS (comma-separated milliseconds) replaces them in tests.
 */
const LINK_RETRY_MS = [2000, 4000, 8000];

export const linkRetryDelays = (): number[] => retryWaits('FORGE_LINK_RETRY_MS', LINK_RETRY_MS);

export interface Gathered {
  items: WorkItem[];
  shared: WorkItem[];
  /** Set when a PR is checked: its number and head branch (the branch a BUILDER must be for). */
  pull: PullContext | null;
  /** The PR as read (its head commit carries the status), when a PR is checked. */
  info: PullInfo | null;
  /** What the gate decided not to follow, and why: shown in the summary and as warnings. */
  notes: string[];
  /** How GitHub linked the PR (keywords read from the body, a non-default base): shown in the summary and as notices. */
  notices: string[];
  /** Annotations in reviews that no longer speak for the PR, with why. */
  passedOver: Ignored[];
  /**
   * Trusted REVIEWERs about an older head (a review of an older commit, a
   * comment from before the head arrived): they no longer count as present,
   * but a CHANGES_REQUESTED among them still blocks until the head is reviewed.
   */
  staleReviewers: Located[];
  /** What makes the PR not conforming beyond its annotations (more linked issues than the gate reads). */
  problems: string[];
  /** Set when the item is exempt (exempt-authors, exempt-labels): why. Nothing else was read. */
  exempt: string | null;
  /** The PR's (or issue's) own thread, as read. */
  thread: WorkItem;
  /** Its comments as the snapshot read them (the status comment is found among them); null when not read that way. */
  comments: ThreadComment[] | null;
}

function listNumbers(refs: readonly ItemRef[], here: string): string {
  const name = (x: ItemRef) => (x.repository.toLowerCase() === here.toLowerCase() ? `#${x.number}` : `${x.repository}#${x.number}`);
  const shown = refs.slice(0, 30).map(name);
  return refs.length > shown.length ? `${shown.join(', ')} and ${refs.length - shown.length} more` : shown.join(', ');
}

/** The issues PR #n closes that count, by GitHub's own links; its body's keywords when GraphQL cannot answer. */
async function closingRefs(
  gh: GitHub,
  inputs: ItemInputs,
  pr: WorkItem,
  info: PullInfo,
  read: PullLinks | null,
): Promise<{ refs: ItemRef[]; notes: string[]; notices: string[] }> {
  const here = repoName(inputs.repo);
  const notes: string[] = [];
  // How GitHub links (a non-default base, links not there yet): facts, not problems.
  const notices: string[] = [];
  const bodyRefs = info.closes.map((number) => ({ repository: here, number }));
  const trustedAuthor = counts('closing-reference', pr.author, inputs.gate.trust);
  let linked: ItemRef[] = [];
  let keyword: ItemRef[];
  try {
    // The snapshot's links, when it read all of them; else GitHub's full list.
    let links = read ?? (await pullLinks(gh, inputs.repo, info.number));
    const intoDefault = links.defaultBranch === null || info.base === links.defaultBranch;
    if (bodyRefs.length > 0 && !intoDefault)
      notices.push(
        `PR #${info.number} targets ${info.base}, not the default branch ${links.defaultBranch}: GitHub links closing keywords only for PRs into the default branch, so its body's ${listNumbers(bodyRefs, here)} ${bodyRefs.length === 1 ? 'is' : 'are'} not followed — link the issue in the PR's Development sidebar instead`,
      );
    // GitHub may not have linked a new PR's keywords yet — all of them, or some (it links them one by one): ask again
    // while any keyword of the body is unlinked, then read the unlinked ones from the body.
    const unlinked = (l: PullLinks) => {
      const seen = new Set([...l.linked, ...l.keyword].map(refKey));
      return bodyRefs.filter((x) => !seen.has(refKey(x)));
    };
    const waits = intoDefault && trustedAuthor && bodyRefs.length > 0 ? linkRetryDelays() : [];
    let waited = 0;
    for (const ms of waits) {
      if (unlinked(links).length === 0) break;
      await sleep(ms);
      waited += ms;
      links = await pullLinks(gh, inputs.repo, info.number);
    }
    ({ linked, keyword } = links);
    notices.push(...new Set(links.notes));
    const missing = waits.length > 0 ? unlinked(links) : [];
    if (missing.length > 0) {
      keyword = [...keyword, ...missing];
      const none = linked.length === 0 && links.keyword.length === 0;
      notices.push(
        none
          ? `GitHub listed no issue PR #${info.number} closes after ${(waited / 1000).toFixed(0)} s, though its body closes ${listNumbers(bodyRefs, here)}: the closing keywords in its body were read instead`
          : `GitHub had not linked ${listNumbers(missing, here)} to PR #${info.number} after ${(waited / 1000).toFixed(0)} s, though its body closes ${missing.length === 1 ? 'it' : 'them'}: read from the body's closing keywords`,
      );
    }
  } catch (err) {
    keyword = bodyRefs;
    notes.push(
      `GitHub's record of the issues PR #${info.number} closes could not be read (${errorMessage(err)}); the closing keywords in its body were read instead`,
    );
  }
  const refs = [...linked];
  if (keyword.length > 0 && !trustedAuthor)
    notes.push(
      `PR #${info.number} is by ${pr.author.login ?? '(unknown)'} (${pr.author.association}), who is not in trusted-authors: its closing references (${listNumbers(keyword, here)}) are not followed${linked.length > 0 ? '' : ', so the PR is checked on its own'}`,
    );
  else refs.push(...keyword);
  return {
    refs: refs.filter((x) => !(x.repository.toLowerCase() === here.toLowerCase() && x.number === info.number)),
    notes,
    notices,
  };
}

/**
 * Issue threads already read in this run: an issue comment that touches three
 * PRs reads the issue once, not three times. The decision only reads a thread.
 */
export type ThreadCache = Map<string, Promise<WorkItem>>;

/** An issue of this or another repository; one the token cannot read is reported, not fatal. */
async function readLinked(gh: GitHub, inputs: ItemInputs, ref: ItemRef, notes: string[], cache: ThreadCache): Promise<WorkItem | null> {
  const here = repoName(inputs.repo).toLowerCase() === ref.repository.toLowerCase();
  const repo: Repo = here ? inputs.repo : parseRepository(ref.repository);
  const key = `${ref.repository.toLowerCase()}#${ref.number}`;
  try {
    let thread = cache.get(key);
    if (!thread) {
      // Another repository's issue: its author_associations describe that repository, not this one.
      thread = readThread(gh, repo, ref.number).then((t) => (here ? t : { ...t, foreign: repoName(repo) }));
      cache.set(key, thread);
    }
    return await thread;
  } catch (err) {
    // Gone from this repository (deleted, transferred): it no longer speaks for the PR, which is judged without it.
    if (here && err instanceof ApiError && (err.status === 404 || err.status === 410)) {
      notes.push(`#${ref.number} is named, but this repository has no such issue (${err.status}: deleted or transferred?): left out`);
      return null;
    }
    if (here || !(err instanceof ApiError) || (err.status !== 404 && err.status !== 403)) throw err;
    notes.push(`${ref.repository}#${ref.number} is linked, but this token cannot read it (${err.status}): left out`);
    return null;
  }
}

/** Why a review does not speak for the PR's head, or null when it does. */
function staleBecause(rv: ReviewComment, head: string, mode: StaleReviews): string | null {
  if (rv.review.state === 'DISMISSED') return 'the review was dismissed';
  if (!rv.review.submitted) return 'the review is pending (not submitted: only its author sees it)';
  if (rv.review.commit === null) return 'GitHub no longer knows the commit the review is of';
  if (mode === 'dismiss' && head && rv.review.commit !== head)
    return `the review is of commit ${rv.review.commit.slice(0, 12)}, not the PR's head ${head.slice(0, 12)} (stale-reviews: dismiss)`;
  return null;
}

function passOver(number: number, c: ThreadComment, why: string, only?: string): Ignored[] {
  return parse(c.body)
    .filter((a) => only === undefined || a.type === only)
    .map((a) => ({
      kind: 'stale-review' as const,
      type: a.type,
      item: number,
      url: c.url,
      author: c.author,
      reason: `${a.type} on PR #${number}: ${why}`,
    }));
}

/**
 * A review speaks for the PR only while it stands and is about the code the PR
 * now holds: a dismissed or pending review, one whose commit GitHub no longer
 * knows, or (stale-reviews: dismiss) one of an older head commit is passed
 * over — its annotations are reported, never counted.
 */
function splitReviews(
  number: number,
  reviews: readonly ReviewComment[],
  head: string,
  mode: StaleReviews,
): { kept: ReviewComment[]; passedOver: Ignored[]; olderCommit: ReviewComment[] } {
  const kept: ReviewComment[] = [];
  const passedOver: Ignored[] = [];
  const olderCommit: ReviewComment[] = [];
  for (const rv of reviews) {
    const why = staleBecause(rv, head, mode);
    if (why === null) kept.push(rv);
    else {
      passedOver.push(...passOver(number, rv, why));
      if (rv.review.submitted && rv.review.state !== 'DISMISSED' && rv.review.commit !== null) olderCommit.push(rv);
    }
  }
  return { kept, passedOver, olderCommit };
}

/** The trusted REVIEWER annotations of these texts of PR #number, located as the decision reads them. */
function trustedReviewers(number: number, texts: readonly ThreadComment[], inputs: ItemInputs): Located[] {
  const out: Located[] = [];
  for (const c of texts) {
    if (c.hidden || !counts('comment', c.author, inputs.gate.trust)) continue;
    for (const annotation of parseAndValidate(c.body))
      if (annotation.type === 'REVIEWER')
        out.push({ annotation, source: 'comment', item: number, comment: c, url: c.url, author: c.author });
  }
  return out;
}

/**
 * The facts REST leaves out, for every comment holding a FORGE tag: hidden
 * (never counts), edited by someone else (counts only when that editor is
 * trusted too), and for the PR when its head reached it. A thread read by the
 * snapshot already holds them; only what was read another way (REST, after a
 * partial answer) is asked about, in one GraphQL request.
 */
async function applyEvidence(
  gh: GitHub,
  inputs: ItemInputs,
  threads: readonly WorkItem[],
  pull: { info: PullInfo; thread: WorkItem; headSince?: HeadSince } | null,
): Promise<{ headSince: HeadSince; notes: string[] }> {
  // Not yet decided: a tagged comment whose editor's trust is not set (a thread shared by two PRs is decided once).
  const pending = threads.flatMap((t) =>
    t.comments.filter((c) => c.body.includes('FORGE:') && c.editedBy === undefined && c.unverified === undefined),
  );
  const pendingBodies = threads.filter((t) => t.body.includes('FORGE:') && t.bodyEditedBy === undefined && t.bodyUnverified === undefined);
  // What the snapshot did not read: asked by node id.
  const tagged = pending.filter((c) => c.nodeId && (c.hidden === undefined || c.editor === undefined));
  // A body counts as its author's only while nobody untrusted edited it last: asked like a comment.
  const bodies = pendingBodies.filter((t) => t.nodeId && t.bodyEditor === undefined);
  const reviewerComments = pull ? pull.thread.comments.filter((c) => c.body.includes('FORGE:REVIEWER')) : [];
  const headKnown = pull?.headSince !== undefined;
  const askHead =
    pull !== null && !headKnown && inputs.staleReviews === 'dismiss' && reviewerComments.length > 0 && pull.info.nodeId !== '';
  const known = (pull?.headSince ?? null) as HeadSince;
  const asked = tagged.length > 0 || bodies.length > 0 || askHead;
  let evidence: Awaited<ReturnType<typeof readEvidence>> = { comments: new Map(), headSince: null, notes: [] };
  if (asked) {
    try {
      evidence = await readEvidence(gh, askHead && pull ? { nodeId: pull.info.nodeId, head: pull.info.sha } : null, [
        ...new Set([...tagged.map((c) => c.nodeId as string), ...bodies.map((t) => t.nodeId as string)]),
      ]);
    } catch (err) {
      // Not known is not a verdict: the comments count as REST shows them, and the summary says so.
      for (const c of tagged) c.editedBy = null;
      for (const t of bodies) t.bodyEditedBy = null;
      const rest = { pending: pending.filter((c) => !tagged.includes(c)), bodies: pendingBodies.filter((t) => !bodies.includes(t)) };
      const notes = [
        `who edited or hid the annotations could not be read from GitHub (${errorMessage(err)}): they count as REST shows them`,
      ];
      if (rest.pending.length === 0 && rest.bodies.length === 0) return { headSince: known, notes };
      return { headSince: known, notes: [...notes, ...(await decideEditors(gh, inputs, threads, rest.pending, rest.bodies))] };
    }
  }
  const notes = [...evidence.notes];
  const leftOut = evidence.notes.length > 0 ? 'GitHub answered with errors' : 'GitHub did not answer for it';
  for (const c of tagged) {
    const facts = evidence.comments.get(c.nodeId as string);
    if (!facts) c.unverified = leftOut;
    else {
      c.hidden = facts.hidden;
      c.editor = facts.editor;
    }
  }
  for (const t of bodies) {
    const facts = evidence.comments.get(t.nodeId as string);
    if (!facts) t.bodyUnverified = leftOut;
    else t.bodyEditor = facts.editor;
  }
  const missing = tagged.filter((c) => c.unverified !== undefined).length + bodies.filter((t) => t.bodyUnverified !== undefined).length;
  notes.push(
    ...(await decideEditors(
      gh,
      inputs,
      threads,
      pending.filter((c) => c.unverified === undefined),
      pendingBodies.filter((t) => t.bodyUnverified === undefined),
    )),
  );
  if (missing > 0)
    notes.push(
      `GitHub's answer left out ${missing} of the ${tagged.length + bodies.length} annotated comments and bodies asked about: they do not count`,
    );
  return { headSince: askHead ? evidence.headSince : known, notes };
}

/**
 * Whether each last editor is trusted: their association as they appear
 * elsewhere in these threads (this repository's only), else none; `permission:`
 * roles asked once for all of them.
 */
async function decideEditors(
  gh: GitHub,
  inputs: ItemInputs,
  threads: readonly WorkItem[],
  comments: readonly ThreadComment[],
  bodies: readonly WorkItem[],
): Promise<string[]> {
  const seen = new Map<string, string>();
  for (const t of threads) {
    if (t.foreign) continue;
    for (const a of [t.author, ...t.comments.map((c) => c.author)]) if (a.login) seen.set(a.login.toLowerCase(), a.association);
  }
  const editors = [
    ...new Set([...comments.map((c) => c.editor ?? null), ...bodies.map((t) => t.bodyEditor ?? null)].filter((e): e is string => !!e)),
  ];
  const asAuthor = (login: string): Author => ({ login, association: seen.get(login.toLowerCase()) ?? 'NONE' });
  const notes = editors.length > 0 ? await resolvePermissions(gh, inputs.repo, inputs.gate.trust, editors.map(asAuthor)) : [];
  const editedBy = (login: string | null | undefined) =>
    login ? { login, trusted: counts('comment', asAuthor(login), inputs.gate.trust) } : null;
  for (const c of comments) c.editedBy = editedBy(c.editor);
  for (const t of bodies) t.bodyEditedBy = editedBy(t.bodyEditor);
  return notes;
}

/** When the PR's current head reached it, as far as GitHub's records say. */
interface HeadDating {
  /** Exactly when: a force push onto it, the push that made it (activity), this run's synchronize, or the PR's opening. */
  at: string | null;
  /** At least after this: a trusted review of an older commit was submitted then (that commit was still the head). */
  notBefore: string | null;
  /** Why `at` is not known. */
  why: string;
}

/**
 * Every record GitHub keeps of when the head arrived: the timeline's force
 * pushes (or the opening of a one-commit PR), this run's own `synchronize`
 * push, the repository activity of the branch (a fork's read when the token
 * can), and as a lower bound the newest trusted review of an older commit.
 */
async function dateHead(
  gh: GitHub,
  inputs: ItemInputs,
  info: PullInfo,
  timeline: HeadSince,
  olderReviews: readonly ReviewComment[],
): Promise<HeadDating> {
  const times = olderReviews
    .filter((rv) => counts('review', rv.author, inputs.gate.trust) && rv.createdAt !== null)
    .map((rv) => rv.createdAt as string)
    .sort();
  const notBefore = times.at(-1) ?? null;
  if (timeline?.by === 'force-push') return { at: timeline.at, notBefore, why: '' };
  const push = inputs.push;
  if (push && push.pull === info.number && push.after === info.sha.toLowerCase()) return { at: push.at, notBefore, why: '' };
  // A one-commit PR's opening is asked last: after a retarget or a stacked merge its head may have moved since.
  const opened = timeline?.by === 'opening' ? { at: timeline.at, notBefore, why: '' } : null;
  if (info.headRepository === null) return opened ?? { at: null, notBefore, why: "the PR's head repository is gone" };
  const arrival = await headArrival(gh, parseRepository(info.headRepository), info.head, info.sha);
  if (arrival.at !== null) return { at: arrival.at, notBefore, why: '' };
  return opened ?? { at: null, notBefore, why: arrival.why };
}

/**
 * The commit a REVIEWER says it reviewed (`**Commit**: <full id>`, what
 * forge-emit records), lower case; null when it names none. Only a full id
 * binds: a 7-digit prefix is shared by a commit anyone can make in seconds, so
 * a prefix is treated as naming no commit (the comment is then placed in time).
 */
export function reviewedCommitOf(body: string): string | null {
  for (const a of parse(body)) {
    if (a.type !== 'REVIEWER') continue;
    const v = stripCodeSpan(getField(a.fields, 'Commit') ?? '').trim();
    if (FULL_COMMIT.test(v)) return v.toLowerCase();
  }
  return null;
}

/**
 * stale-reviews: dismiss holds a REVIEWER posted as a comment to the rule
 * GitHub holds reviews to: it speaks for the commit it was written about. One
 * that names its commit (forge-emit records it) counts exactly for that
 * commit; one that names none counts only when it was written after the
 * current head reached the PR. When GitHub keeps no record of that moment, it
 * does not count: a REVIEWER nobody can place is about no code known.
 */
/** A PR comment (not a review) that holds a REVIEWER annotation — not one that only mentions the tag, as the gate's own status comment does. */
function isReviewerComment(c: ThreadComment): boolean {
  return c.body.includes('FORGE:REVIEWER') && !('review' in c) && parse(c.body).some((a) => a.type === 'REVIEWER');
}

function splitStaleComments(
  number: number,
  thread: WorkItem,
  info: PullInfo,
  dating: HeadDating | null,
  mode: StaleReviews,
): { passedOver: Ignored[]; stale: ThreadComment[]; notices: string[] } {
  const reviewers = thread.comments.filter(isReviewerComment);
  if (mode === 'keep' || reviewers.length === 0 || dating === null) return { passedOver: [], stale: [], notices: [] };
  const head = info.sha.toLowerCase();
  const short = info.sha.slice(0, 12);
  const passedOver: Ignored[] = [];
  const stale: ThreadComment[] = [];
  let unplaced = 0;
  for (const c of reviewers) {
    const named = reviewedCommitOf(c.body);
    const at = c.createdAt === null ? Number.NaN : Date.parse(c.createdAt);
    let why: string | null = null;
    if (named !== null) {
      if (head !== named) why = `it reviewed commit ${named.slice(0, 12)}, not the PR's head ${short} (stale-reviews: dismiss)`;
    } else if (dating.at !== null) {
      if (!(at >= Date.parse(dating.at))) why = `posted before the PR's head ${short} reached it (${dating.at}; stale-reviews: dismiss)`;
    } else if (dating.notBefore !== null && !(at >= Date.parse(dating.notBefore))) {
      why = `posted before the PR's head ${short} reached it (a trusted review of an older commit was submitted at ${dating.notBefore}; stale-reviews: dismiss)`;
    } else {
      unplaced++;
      why = `GitHub keeps no record of when the PR's head ${short} reached it (${dating.why}), and the REVIEWER names no commit: it is not known to be about this code (stale-reviews: dismiss)`;
    }
    if (why === null) continue;
    stale.push(c);
    passedOver.push(...passOver(number, c, why, 'REVIEWER'));
  }
  thread.comments = thread.comments.filter((c) => !stale.includes(c));
  const notices =
    unplaced > 0
      ? [
          `GitHub keeps no record of when commit ${short} reached PR #${number} (${dating.why}): ${unplaced} REVIEWER comment(s) that name no commit do not count — review the head again with forge-emit (it records the commit reviewed) or as a PR review`,
        ]
      : [];
  return { passedOver, stale, notices };
}

/**
 * Does a BUILDER's bare branch name speak of this PR's head? Only when the head
 * is a branch of this repository, or of a fork whose owner is listed by login
 * in trusted-authors: a stranger's fork can name its branch like the pipeline's.
 */
function headIsHere(inputs: ItemInputs, info: PullInfo): boolean {
  const head = info.headRepository;
  if (head === null) return false;
  if (head.toLowerCase() === repoName(inputs.repo).toLowerCase()) return true;
  const owner = head.split('/')[0].toLowerCase();
  return inputs.gate.trust.everyone || inputs.gate.trust.logins.has(owner);
}

/**
 * What the snapshot read of PR #number, as this evaluation's own copy: a
 * thread GitHub's partial answer left comments out of is read again by REST
 * (its annotations' facts are then asked about, and one left out again does
 * not count).
 */
async function pullFrom(
  gh: GitHub,
  inputs: ItemInputs,
  number: number,
  snap: PullSnapshot | null,
  incomplete: ReadonlySet<string>,
): Promise<{ pr: WorkItem; reviews: ReviewComment[]; info: PullInfo }> {
  const whole = snap !== null && !incomplete.has(refKey({ repository: repoName(inputs.repo), number }));
  if (snap !== null && whole)
    return { pr: copyThread(snap.thread), reviews: snap.reviews.map((rv) => ({ ...rv, review: { ...rv.review } })), info: snap.info };
  const [pr, reviews, info] = await Promise.all([
    readThread(gh, inputs.repo, number),
    listReviews(gh, inputs.repo, number),
    snap?.info ?? readPull(gh, inputs.repo, number),
  ]);
  return { pr, reviews, info };
}

/** PR #number, its reviews, and the issues it closes that count (at most MAX_CLOSING_REFERENCES). */
export async function gatherPull(
  gh: GitHub,
  inputs: ItemInputs,
  number: number,
  named: number | null,
  cache: ThreadCache,
  snap: PullSnapshot | null = null,
  incomplete: ReadonlySet<string> = new Set(),
): Promise<Gathered> {
  const { pr, reviews, info } = await pullFrom(gh, inputs, number, snap, incomplete);
  const comments = snap !== null ? [...pr.comments] : null;
  // The issues the snapshot read: asked for again nowhere in this run.
  for (const [k, t] of snap?.closing ?? []) if (!incomplete.has(k) && !cache.has(k)) cache.set(k, Promise.resolve(copyThread(t)));
  // A sign-off is judged by the approving reviews: the snapshot carries them; read alone only when the file asks one.
  const approvals = snap?.approvals ?? (inputs.gate.rules?.signOff ? await listApprovals(gh, inputs.repo, number) : []);
  const context = {
    number,
    head: info.head,
    headHere: headIsHere(inputs, info),
    headRepository: info.headRepository,
    sha: info.sha,
    approvals,
  };
  const exempt = exemptionOf(pr, inputs.exempt);
  if (exempt !== null)
    return {
      items: [pr],
      shared: [],
      pull: context,
      info,
      notes: [],
      notices: [],
      passedOver: [],
      staleReviewers: [],
      problems: [],
      exempt,
      thread: pr,
      comments,
    };
  const { kept, passedOver, olderCommit } = splitReviews(number, reviews, info.sha, inputs.staleReviews);
  pr.comments.push(...kept);
  const roleNotes = await resolvePermissions(gh, inputs.repo, inputs.gate.trust, [pr.author]);
  const { refs, notes, notices } = await closingRefs(gh, inputs, pr, info, snap?.links ?? null);
  notes.unshift(...roleNotes);
  const here = repoName(inputs.repo);
  // The workflow's own issue-number input is the workflow author's choice, not the PR author's.
  if (named !== null && named !== number && !refs.some((x) => x.repository.toLowerCase() === here.toLowerCase() && x.number === named))
    refs.push({ repository: here, number: named });
  const problems: string[] = [];
  let followed = refs;
  if (refs.length > MAX_CLOSING_REFERENCES) {
    // Never a pass on the first twenty: the rest would go unchecked.
    problems.push(
      `PR #${number} links ${refs.length} issues; the gate reads at most ${MAX_CLOSING_REFERENCES} — split the PR or unlink ${listNumbers(refs.slice(MAX_CLOSING_REFERENCES), here)}`,
    );
    followed = refs.slice(0, MAX_CLOSING_REFERENCES);
  }
  const items: WorkItem[] = [];
  for (const ref of followed) {
    const item = await readLinked(gh, inputs, ref, notes, cache);
    if (item) items.push(item);
  }
  notes.push(...(await resolvePermissions(gh, inputs.repo, inputs.gate.trust, taggedAuthors([pr, ...items]))));
  const evidence = await applyEvidence(gh, inputs, [pr, ...items], {
    info,
    thread: pr,
    ...(snap !== null ? { headSince: snap.headSince } : {}),
  });
  notices.push(...evidence.notes);
  // Only a REVIEWER comment that names no commit is placed in time: one naming its commit is judged by that commit.
  const asks = inputs.staleReviews === 'dismiss' && pr.comments.some((c) => isReviewerComment(c) && reviewedCommitOf(c.body) === null);
  // With every REVIEWER comment naming its commit, nothing is placed in time: no record is asked for.
  const dating =
    inputs.staleReviews !== 'dismiss'
      ? null
      : asks
        ? await dateHead(gh, inputs, info, evidence.headSince, olderCommit)
        : { at: null, notBefore: null, why: 'not asked: every REVIEWER comment names its commit' };
  const stale = splitStaleComments(number, pr, info, dating, inputs.staleReviews);
  passedOver.push(...stale.passedOver);
  notices.push(...stale.notices);
  const staleReviewers = trustedReviewers(number, [...olderCommit, ...stale.stale], inputs);
  const base = { pull: context, info, notes, notices, passedOver, staleReviewers, problems, exempt: null, thread: pr, comments };
  if (items.length === 0) return { items: [pr], shared: [], ...base };
  return { items, shared: [pr], ...base };
}

/**
 * An issue on its own (no open PR's verdict depends on it), read in one query
 * with the token's login; null when the issue itself is gone (deleted,
 * transferred, issues turned off). A failure to read it is a failure, never
 * "gone". A thread GitHub's partial answer left comments out of is read again
 * by REST.
 */
export async function gatherIssue(gh: GitHub, inputs: ItemInputs, number: number): Promise<(Gathered & { viewer: string | null }) | null> {
  const snap = await readIssueSnapshot(gh, inputs.repo, number);
  if (snap.item === null) return null;
  let item = snap.item;
  if (snap.incomplete) {
    const [issue, comments] = await Promise.allSettled([getIssue(gh, inputs.repo, number), listComments(gh, inputs.repo, number)]);
    if (issue.status === 'rejected') {
      const status = issue.reason instanceof ApiError ? issue.reason.status : null;
      if (status === 404 || status === 410) return null;
      throw issue.reason;
    }
    if (comments.status === 'rejected') throw comments.reason;
    item = issue.value;
    item.comments = comments.value;
  }
  const own = snap.incomplete ? null : [...item.comments];
  const exempt = exemptionOf(item, inputs.exempt);
  const notes = exempt === null ? await resolvePermissions(gh, inputs.repo, inputs.gate.trust, taggedAuthors([item])) : [];
  const notices = [...snap.notes, ...(exempt === null ? (await applyEvidence(gh, inputs, [item], null)).notes : [])];
  return {
    items: [item],
    shared: [],
    pull: null,
    info: null,
    notes,
    notices,
    passedOver: [],
    staleReviewers: [],
    problems: [],
    exempt,
    thread: item,
    comments: own,
    viewer: snap.viewer,
  };
}
