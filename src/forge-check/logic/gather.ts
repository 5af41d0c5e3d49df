/**
 * The threads one PR is checked through: the PR itself (its comments and
 * review bodies, where REVIEWER lives) and the issues it closes as GitHub
 * records the links. A link made in the Development sidebar (someone with
 * triage access made it) always counts; a closing keyword is typed by the PR's
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
import { parse } from '../../codec/index.js';
import type { Ignored } from '../../common/trusted-annotations.js';
import { listReviews, readPull, readThread, type PullInfo, type ReviewComment } from '../../github/reads.js';
import type { ItemInputs } from '../inputs.js';

/** A PR body can name any number of issues; each costs requests, so at most this many are followed. */
export const MAX_CLOSING_REFERENCES = 20;

export interface Gathered {
  items: WorkItem[];
  shared: WorkItem[];
  /** Set when a PR is checked: its number and head branch (the branch a BUILDER must be for). */
  pull: PullContext | null;
  /** The PR as read (its head commit carries the status), when a PR is checked. */
  info: PullInfo | null;
  /** What the gate decided not to follow, and why: shown in the summary and as warnings. */
  notes: string[];
  /** Annotations in reviews that no longer speak for the PR, with why. */
  passedOver: Ignored[];
}

function listNumbers(refs: readonly ItemRef[], here: string): string {
  const name = (x: ItemRef) => (x.repository.toLowerCase() === here.toLowerCase() ? `#${x.number}` : `${x.repository}#${x.number}`);
  const shown = refs.slice(0, 30).map(name);
  return refs.length > shown.length ? `${shown.join(', ')} and ${refs.length - shown.length} more` : shown.join(', ');
}

/** The issues PR #n closes that count, by GitHub's own links; its body's keywords when GraphQL cannot answer. */
async function closingRefs(gh: GitHub, inputs: ItemInputs, pr: WorkItem, info: PullInfo): Promise<{ refs: ItemRef[]; notes: string[] }> {
  const here = repoName(inputs.repo);
  const notes: string[] = [];
  let linked: ItemRef[] = [];
  let keyword: ItemRef[];
  try {
    ({ linked, keyword } = await pullLinks(gh, inputs.repo, info.number));
  } catch (err) {
    keyword = info.closes.map((number) => ({ repository: here, number }));
    notes.push(
      `GitHub's record of the issues PR #${info.number} closes could not be read (${errorMessage(err)}); the closing keywords in its body were read instead`,
    );
  }
  const refs = [...linked];
  if (keyword.length > 0 && !counts('closing-reference', pr.author, inputs.gate.trust))
    notes.push(
      `PR #${info.number} is by ${pr.author.login ?? '(unknown)'} (${pr.author.association}), who is not in trusted-authors: its closing references (${listNumbers(keyword, here)}) are not followed${linked.length > 0 ? '' : ', so the PR is checked on its own'}`,
    );
  else refs.push(...keyword);
  return { refs: refs.filter((x) => !(x.repository.toLowerCase() === here.toLowerCase() && x.number === info.number)), notes };
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

/** PR #number, its reviews, and the issues it closes that count (at most MAX_CLOSING_REFERENCES). */
export async function gatherPull(
  gh: GitHub,
  inputs: ItemInputs,
  number: number,
  named: number | null,
  cache: ThreadCache,
  read?: WorkItem,
): Promise<Gathered> {
  const [pr, reviews, info] = await Promise.all([
    read ? Promise.resolve(read) : readThread(gh, inputs.repo, number),
    listReviews(gh, inputs.repo, number),
    readPull(gh, inputs.repo, number),
  ]);
  const { kept, passedOver } = splitReviews(number, reviews, info.sha);
  pr.comments.push(...kept);
  const { refs, notes } = await closingRefs(gh, inputs, pr, info);
  const here = repoName(inputs.repo);
  // The workflow's own issue-number input is the workflow author's choice, not the PR author's.
  if (named !== null && named !== number && !refs.some((x) => x.repository.toLowerCase() === here.toLowerCase() && x.number === named))
    refs.push({ repository: here, number: named });
  let followed = refs;
  if (refs.length > MAX_CLOSING_REFERENCES) {
    notes.push(
      `PR #${number} names ${refs.length} issues; only the first ${MAX_CLOSING_REFERENCES} are checked — not followed: ${listNumbers(refs.slice(MAX_CLOSING_REFERENCES), here)}`,
    );
    followed = refs.slice(0, MAX_CLOSING_REFERENCES);
  }
  const context = { number, head: info.head };
  const items: WorkItem[] = [];
  for (const ref of followed) {
    const item = await readLinked(gh, inputs, ref, notes, cache);
    if (item) items.push(item);
  }
  if (items.length === 0) return { items: [pr], shared: [], pull: context, info, notes, passedOver };
  return { items, shared: [pr], pull: context, info, notes, passedOver };
}

/** An item the workflow names: checked as a PR when it is one, else on its own. */
export async function gatherNamed(gh: GitHub, inputs: ItemInputs, number: number, cache: ThreadCache): Promise<Gathered> {
  const item = await readThread(gh, inputs.repo, number);
  if (item.kind === 'pull') return gatherPull(gh, inputs, number, null, cache, item);
  return { items: [item], shared: [], pull: null, info: null, notes: [], passedOver: [] };
}
