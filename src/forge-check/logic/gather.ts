/**
 * The threads one PR is checked through: the PR itself (its comments and
 * review bodies, where REVIEWER lives) and the issues it closes as GitHub
 * records the links. A link made in the Development sidebar (someone with
 * write access made it) always counts; a closing keyword is typed by the PR's
 * author, as easily as a tag, so it counts only when that author is trusted.
 */
import { parseRepository, repoName, type Repo } from '../../common/repo.js';
import { counts } from '../../common/trust.js';
import type { WorkItem } from '../../common/work-item.js';
import type { PullContext } from '../../conformance/evaluate.js';
import type { GitHub } from '../../github/client.js';
import { ApiError } from '../../github/errors.js';
import { errorMessage } from '../../common/errors.js';
import { pullLinks, type ItemRef } from '../../github/links.js';
import { resolvePermissions } from '../../github/permissions.js';
import { exemptionOf } from '../../conformance/exempt.js';
import type { Author } from '../../common/trust.js';
import { parse } from '../../codec/index.js';
import type { Ignored } from '../../common/trusted-annotations.js';
import { getIssue, listComments, listReviews, readPull, readThread, type PullInfo, type ReviewComment } from '../../github/reads.js';
import type { ItemInputs } from '../inputs.js';

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

function linkRetryDelays(): number[] {
  const v = process.env.FORGE_LINK_RETRY_MS;
  if (v === undefined) return LINK_RETRY_MS;
  return v
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0 && n <= 15_000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  /** What makes the PR not conforming beyond its annotations (more linked issues than the gate reads). */
  problems: string[];
  /** Set when the item is exempt (exempt-authors, exempt-labels): why. Nothing else was read. */
  exempt: string | null;
  /** The PR's (or issue's) own thread, as read. */
  thread: WorkItem;
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
    let links = await pullLinks(gh, inputs.repo, info.number);
    const intoDefault = links.defaultBranch === null || info.base === links.defaultBranch;
    if (bodyRefs.length > 0 && !intoDefault)
      notices.push(
        `PR #${info.number} targets ${info.base}, not the default branch ${links.defaultBranch}: GitHub links closing keywords only for PRs into the default branch, so its body's ${listNumbers(bodyRefs, here)} ${bodyRefs.length === 1 ? 'is' : 'are'} not followed — link the issue in the PR's Development sidebar instead`,
      );
    // GitHub may not have linked a new PR's keywords yet: ask again, then read them from the body.
    const waits = intoDefault && trustedAuthor && bodyRefs.length > 0 ? linkRetryDelays() : [];
    let waited = 0;
    for (const ms of waits) {
      if (links.linked.length > 0 || links.keyword.length > 0) break;
      await sleep(ms);
      waited += ms;
      links = await pullLinks(gh, inputs.repo, info.number);
    }
    ({ linked, keyword } = links);
    if (waits.length > 0 && linked.length === 0 && keyword.length === 0) {
      keyword = bodyRefs;
      notices.push(
        `GitHub listed no issue PR #${info.number} closes after ${(waited / 1000).toFixed(0)} s, though its body closes ${listNumbers(bodyRefs, here)}: the closing keywords in its body were read instead`,
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
      thread = readThread(gh, repo, ref.number);
      cache.set(key, thread);
    }
    return await thread;
  } catch (err) {
    if (here || !(err instanceof ApiError) || (err.status !== 404 && err.status !== 403)) throw err;
    notes.push(`${ref.repository}#${ref.number} is linked, but this token cannot read it (${err.status}): left out`);
    return null;
  }
}

/**
 * A review speaks for the PR only while it stands and is about the code the PR
 * now holds: a dismissed review, or one of an older head commit, is passed
 * over (its annotations are reported, never counted).
 */
function splitReviews(number: number, reviews: readonly ReviewComment[], head: string): { kept: ReviewComment[]; passedOver: Ignored[] } {
  const kept: ReviewComment[] = [];
  const passedOver: Ignored[] = [];
  for (const rv of reviews) {
    const why =
      rv.review.state === 'DISMISSED'
        ? 'the review was dismissed'
        : rv.review.commit && head && rv.review.commit !== head
          ? `the review is of commit ${rv.review.commit.slice(0, 12)}, not the PR's head ${head.slice(0, 12)}`
          : null;
    if (why === null) {
      kept.push(rv);
      continue;
    }
    for (const a of parse(rv.body))
      passedOver.push({
        kind: 'stale-review',
        type: a.type,
        item: number,
        url: rv.url,
        author: rv.author,
        reason: `${a.type} on PR #${number}: ${why}`,
      });
  }
  return { kept, passedOver };
}

/** The authors whose role may decide trust: of the thread texts that hold a FORGE tag at all. */
function annotationAuthors(items: readonly WorkItem[]): Author[] {
  const out: Author[] = [];
  for (const item of items) {
    if (item.body.includes('FORGE:')) out.push(item.author);
    for (const c of item.comments) if (c.body.includes('FORGE:')) out.push(c.author);
  }
  return out;
}

/** PR #number, its reviews, and the issues it closes that count (at most MAX_CLOSING_REFERENCES). */
export async function gatherPull(
  gh: GitHub,
  inputs: ItemInputs,
  number: number,
  named: number | null,
  cache: ThreadCache,
): Promise<Gathered> {
  const [pr, reviews, info] = await Promise.all([
    readThread(gh, inputs.repo, number),
    listReviews(gh, inputs.repo, number),
    readPull(gh, inputs.repo, number),
  ]);
  const context = { number, head: info.head };
  const exempt = exemptionOf(pr, inputs.exempt);
  if (exempt !== null)
    return { items: [pr], shared: [], pull: context, info, notes: [], notices: [], passedOver: [], problems: [], exempt, thread: pr };
  const { kept, passedOver } = splitReviews(number, reviews, info.sha);
  pr.comments.push(...kept);
  const roleNotes = await resolvePermissions(gh, inputs.repo, inputs.gate.trust, [pr.author]);
  const { refs, notes, notices } = await closingRefs(gh, inputs, pr, info);
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
  notes.push(...(await resolvePermissions(gh, inputs.repo, inputs.gate.trust, annotationAuthors([pr, ...items]))));
  const base = { pull: context, info, notes, notices, passedOver, problems, exempt: null, thread: pr };
  if (items.length === 0) return { items: [pr], shared: [], ...base };
  return { items, shared: [pr], ...base };
}

/**
 * An issue on its own (no open PR's verdict depends on it); null when the
 * issue itself is gone (404 or 410: deleted, transferred, issues turned off).
 * A failure to read its comments is a failure, never "gone".
 */
export async function gatherIssue(gh: GitHub, inputs: ItemInputs, number: number): Promise<Gathered | null> {
  const [issue, comments] = await Promise.allSettled([getIssue(gh, inputs.repo, number), listComments(gh, inputs.repo, number)]);
  if (issue.status === 'rejected') {
    const status = issue.reason instanceof ApiError ? issue.reason.status : null;
    if (status === 404 || status === 410) return null;
    throw issue.reason;
  }
  if (comments.status === 'rejected') throw comments.reason;
  const item = issue.value;
  item.comments = comments.value;
  const exempt = exemptionOf(item, inputs.exempt);
  const notes = exempt === null ? await resolvePermissions(gh, inputs.repo, inputs.gate.trust, annotationAuthors([item])) : [];
  return { items: [item], shared: [], pull: null, info: null, notes, notices: [], passedOver: [], problems: [], exempt, thread: item };
}
