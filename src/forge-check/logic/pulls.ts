/**
 * Which PRs an event touches. Whatever the event, the verdict belongs to a
 * PR's head commit (or, for a merge group, to the group's commit): a comment
 * or an edit on an issue re-gates the open PRs whose verdict can depend on
 * it; a workflow_run names a commit, and the PR is the one whose head that
 * commit is — never a number the triggering run could have forged; a merge
 * group is every PR whose changes its commit holds.
 */
import { errorMessage, UsageError } from '../../common/errors.js';
import { retryWaits, sleep } from '../../common/waits.js';
import { repoName } from '../../common/repo.js';
import { counts } from '../../common/trust.js';
import type { GitHub } from '../../github/client.js';
import { issueOrPull, mergeQueueEntries, type ClosingPull } from '../../github/links.js';
import { resolvePermissions } from '../../github/permissions.js';
import { listOpenPulls, openPullsByHead, pullsForCommit, readPull } from '../../github/reads.js';
import { needsPipeline, settle, type ItemInputs, type Trigger } from '../inputs.js';
import { readPipelineFile } from '../../github/pipeline-read.js';
import { linkRetryDelays } from './gather.js';

/** What to check: PRs (with the workflow's own issue, if named), or an issue on its own. */
export type Target = { kind: 'pull'; number: number; named: number | null } | { kind: 'issue'; number: number };

/** The merge group whose commit gets the one status for all of its PRs. */
export interface Group {
  sha: string;
  /** The PRs in the group, in queue order. */
  pulls: number[];
  /** Set when the group's PRs could not be known: why. The group is then decided by nobody: its status is `error`. */
  error?: string;
}

export interface Touched {
  targets: Target[];
  /** Set for a merge_group event: the statuses go on the group's commit, not on each PR's head. */
  group: Group | null;
  /** Why nothing or less was checked: shown as notices. */
  notes: string[];
  /** A claim the gate refused (a forged issue-number on workflow_run): shown as warnings. */
  warnings: string[];
  /** The inputs settled with the pipeline file, when this step read it (an issue's first query carries it). */
  settled?: ItemInputs;
}

const touched = (targets: Target[], notes: string[] = [], warnings: string[] = []): Touched => ({
  targets,
  group: null,
  notes,
  warnings,
});

const shown = (refs: readonly { repository: string; number: number }[], here: string) =>
  refs.map((p) => (p.repository.toLowerCase() === here.toLowerCase() ? `#${p.number}` : `${p.repository}#${p.number}`)).join(', ');

/**
 * Does PR `p`'s verdict depend on the issue? Only when its link counts: made
 * in the sidebar, or by a keyword its trusted author typed. A stranger's PR
 * that names the issue is judged without it, so an issue event need not re-gate it.
 */
function dependsOnIssue(p: ClosingPull, inputs: ItemInputs): boolean {
  return p.sidebar || counts('closing-reference', p.author, inputs.gate.trust);
}

/**
 * Issue #number (from an issue event, or named by issue-number): the open PRs
 * of this repository whose verdict can depend on it. When none does, the issue
 * itself is checked (scope item) or nothing is (scope pull-requests, the PR gate).
 * A number that turns out to be a PR is that PR.
 */
async function forIssue(gh: GitHub, given: ItemInputs, number: number, named = false): Promise<Touched> {
  const settled = (t: Touched): Touched => ({ ...t, settled: inputs });
  // Who is trusted decides which PRs are re-gated: the pipeline file comes first, in the same query as the PRs.
  const needs = needsPipeline(given);
  let inputs = given;
  const alone = (why: string): Touched =>
    inputs.scope === 'pull-requests'
      ? touched([], [`${why}: the PR gate has nothing to gate`])
      : touched([{ kind: 'issue', number }], [`${why}: #${number} is checked on its own`]);
  let found: Awaited<ReturnType<typeof issueOrPull>>;
  try {
    found = await issueOrPull(gh, inputs.repo, number, needs);
    if (needs) inputs = settle(inputs, found.pipeline ?? null);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (needs) inputs = settle(inputs, await readPipelineFile(gh, inputs.repo));
    return settled(alone(`the open PRs that close #${number} could not be read from GitHub (${errorMessage(err)})`));
  }
  return settled(await afterIssue(gh, inputs, number, named, found, alone));
}

/** The rest of forIssue, with the settings in force: the link lag, then which open PRs depend on the issue. */
async function afterIssue(
  gh: GitHub,
  inputs: ItemInputs,
  number: number,
  named: boolean,
  first: Awaited<ReturnType<typeof issueOrPull>>,
  alone: (why: string) => Touched,
): Promise<Touched> {
  const here = repoName(inputs.repo);
  let found = first;
  // GitHub links a new PR to the issue it closes some seconds after the PR opens. A job that names the issue (the
  // agent's own, right after it opened the PR) finds none yet: when an open PR by a trusted author closes the issue
  // in its body, GitHub is asked again after each wait, as on the PR path, and then that body is read instead.
  const lagNotes: string[] = [];
  let bodyOnly: number[] = [];
  if (named && found.kind === 'issue' && found.pulls.length === 0) {
    let waiting: number[] = [];
    try {
      waiting = (await listOpenPulls(gh, inputs.repo))
        .filter((p) => p.closes.includes(number) && counts('closing-reference', p.author, inputs.gate.trust))
        .map((p) => p.number);
    } catch (err) {
      lagNotes.push(
        `the open PRs could not be listed (${errorMessage(err)}): PRs GitHub has not linked to #${number} yet are not looked for`,
      );
    }
    let waited = 0;
    for (const ms of waiting.length > 0 ? linkRetryDelays() : []) {
      await sleep(ms);
      waited += ms;
      try {
        found = await issueOrPull(gh, inputs.repo, number);
      } catch (err) {
        return alone(`the open PRs that close #${number} could not be read from GitHub (${errorMessage(err)})`);
      }
      if (found.kind !== 'issue' || found.pulls.length > 0) break;
    }
    if (found.kind === 'issue' && found.pulls.length === 0 && waiting.length > 0) {
      bodyOnly = waiting;
      lagNotes.push(
        `GitHub listed no PR that closes #${number} after ${(waited / 1000).toFixed(0)} s, though the body of ${waiting.map((n) => `#${n}`).join(', ')} closes it: ${waiting.length === 1 ? 'it is' : 'they are'} gated`,
      );
    }
  }
  if (found.kind === 'pull') return touched([{ kind: 'pull', number, named: null }]);
  // A number the workflow named that the token cannot see is a mistake to report, never a pass on nothing.
  if (found.kind === 'missing' && named)
    throw new UsageError(
      `issue-number ${number} is not an issue or PR this token can see in ${here}: check the number, the repository, and that the token can read it`,
    );
  if (found.kind === 'missing')
    return touched([], [`#${number} is not an issue or PR this token can see in ${here} (deleted or transferred?): nothing to gate`]);
  const notes: string[] = [...found.notes, ...lagNotes];
  const elsewhere = found.pulls.filter((p) => p.repository.toLowerCase() !== here.toLowerCase());
  if (elsewhere.length > 0) notes.push(`#${number} is also closed by ${shown(elsewhere, here)}: gated in their own repositories`);
  const ours = found.pulls.filter((p) => p.repository.toLowerCase() === here.toLowerCase());
  notes.push(
    ...(await resolvePermissions(
      gh,
      inputs.repo,
      inputs.gate.trust,
      ours.map((p) => p.author),
    )),
  );
  const gated = ours.filter((p) => dependsOnIssue(p, inputs));
  const strangers = ours.filter((p) => !dependsOnIssue(p, inputs));
  if (strangers.length > 0)
    notes.push(
      `not re-gated from #${number}: ${shown(strangers, here)} — ${strangers.length === 1 ? 'its author is' : 'their authors are'} not in trusted-authors and the link is only a closing keyword, so ${strangers.length === 1 ? 'its verdict does' : 'their verdicts do'} not depend on #${number}`,
    );
  if (gated.length === 0 && bodyOnly.length > 0)
    return touched(
      bodyOnly.map((n) => ({ kind: 'pull', number: n, named: null })),
      notes,
    );
  if (gated.length === 0) {
    const why = ours.length === 0 ? `no open PR closes #${number}` : `no open PR's verdict depends on #${number}`;
    const out = alone(why);
    return { ...out, notes: [...notes, ...out.notes] };
  }
  return touched(
    gated.map((p) => ({ kind: 'pull', number: p.number, named: null })),
    notes,
  );
}

/**
 * The open PR whose head commit is `sha`: GitHub's commit→PR list, and for a
 * fork's commit (which that list leaves out) the open PRs from the head
 * repository's branch whose head is still `sha`.
 */
async function forCommit(gh: GitHub, inputs: ItemInputs, t: Extract<Trigger, { kind: 'commit' }>): Promise<Touched> {
  let numbers = await pullsForCommit(gh, inputs.repo, t.sha);
  if (numbers.length === 0 && t.headRepository && t.headBranch) {
    const owner = t.headRepository.split('/')[0];
    numbers = (await openPullsByHead(gh, inputs.repo, owner, t.headBranch)).filter((p) => p.sha === t.sha).map((p) => p.number);
  }
  const warnings: string[] = [];
  if (t.claimed !== null && !numbers.includes(t.claimed)) {
    // The number came from the triggering run (an artifact a fork can write): believed only when GitHub agrees.
    let why = 'it is not an open PR of this repository';
    try {
      const claimed = await readPull(gh, inputs.repo, t.claimed);
      why = `its head is ${claimed.sha.slice(0, 12) || '(none)'}`;
    } catch {
      // Not a PR (or not readable): the reason above stands.
    }
    warnings.push(`issue-number ${t.claimed} is ignored: the workflow_run is for commit ${t.sha.slice(0, 12)}, and ${why}`);
  }
  if (numbers.length === 0) return touched([], [`no open PR has commit ${t.sha.slice(0, 12)} as its head: nothing to gate`], warnings);
  return touched(
    numbers.map((number) => ({ kind: 'pull', number, named: null })),
    [],
    warnings,
  );
}

/** `gh-readonly-queue/<base>/pr-<N>-<sha>`: the PR whose entry the group was built for. */
function queuedPull(headRef: string): number | null {
  const name = headRef.split('/').pop() ?? '';
  if (!name.startsWith('pr-')) return null;
  const digits = name.slice(3).split('-')[0];
  return /^\d{1,10}$/.test(digits) ? Number(digits) : null;
}

/**
 * The merge queue is read again after each of these waits when it cannot be
 * read or does not yet hold the group's entry (4 s in all).
 * FORGE_QUEUE_RETRY_MS (comma-separated milliseconds) replaces them in tests.
 */
const QUEUE_RETRY_MS = [1000, 3000];

const queueRetryDelays = (): number[] => retryWaits('FORGE_QUEUE_RETRY_MS', QUEUE_RETRY_MS);

/**
 * A merge group's PRs: GitHub builds the group for one queue entry on top of
 * every entry ahead of it, so its commit holds the changes of that entry and
 * all before it. The entry is the one whose head commit is the group's
 * (GraphQL mergeQueue) — in a batched group several entries share it, and
 * the group's ref names the last — with every entry ahead of the furthest of
 * them. The group is decided on all of its PRs or not at all:
 * when the queue cannot be read, or does not hold the entry, after the
 * retries, the group gets `error` naming why — never a verdict on the PR its
 * ref names alone, whose commit holds changes nobody checked.
 */
async function forGroup(gh: GitHub, inputs: ItemInputs, t: Extract<Trigger, { kind: 'group' }>): Promise<Touched> {
  const branch = t.base || '(no branch)';
  let why = '';
  for (const wait of [0, ...queueRetryDelays()]) {
    if (wait > 0) await sleep(wait);
    try {
      const entries = await mergeQueueEntries(gh, inputs.repo, t.base);
      // A batched group holds several entries with one head commit: the group's ref names its last PR, and every
      // entry sharing the commit is in it — the group reaches the furthest of them, and holds every entry ahead.
      const named = queuedPull(t.headRef);
      const ours = entries.filter((e) => e.head?.toLowerCase() === t.sha.toLowerCase() || (named !== null && e.pull === named));
      const own = ours.reduce<(typeof entries)[number] | null>((last, e) => (last === null || e.position > last.position ? e : last), null);
      if (own && ours.some((e) => e.head?.toLowerCase() === t.sha.toLowerCase())) {
        const pulls = entries.filter((e) => e.position <= own.position && e.pull !== null).map((e) => e.pull as number);
        return {
          targets: pulls.map((number) => ({ kind: 'pull', number, named: null })),
          group: { sha: t.sha, pulls },
          notes: [],
          warnings: [],
        };
      }
      why = `the merge queue of ${branch} holds no entry for commit ${t.sha.slice(0, 12)}`;
    } catch (err) {
      why = `the merge queue of ${branch} could not be read (${errorMessage(err)})`;
    }
  }
  const named = queuedPull(t.headRef);
  const error = `${why}, so the PRs in merge group ${t.sha.slice(0, 12)} are not known${named !== null ? ` (its ref names PR #${named}, but the group's commit also holds every PR ahead of it)` : ''}: re-run the check, or requeue`;
  return { targets: [], group: { sha: t.sha, pulls: named !== null ? [named] : [], error }, notes: [], warnings: [error] };
}

/**
 * A deleted or transferred issue: the open PRs whose verdict depended on it
 * are re-gated (the issue no longer speaks for them). GitHub no longer answers
 * for the issue, so they are found by their bodies' closing keywords, one
 * listing of the open PRs (a trusted author's keywords only, as always);
 * sidebar links to a deleted issue are gone with it.
 */
async function forGone(gh: GitHub, inputs: ItemInputs, t: Extract<Trigger, { kind: 'gone' }>): Promise<Touched> {
  let open: Awaited<ReturnType<typeof listOpenPulls>>;
  try {
    open = await listOpenPulls(gh, inputs.repo);
  } catch (err) {
    return touched([], [`${t.why}; the open PRs could not be listed (${errorMessage(err)}): nothing to gate`]);
  }
  const naming = open.filter((p) => p.closes.includes(t.number));
  const gated = naming.filter((p) => counts('closing-reference', p.author, inputs.gate.trust));
  if (gated.length === 0)
    return touched(
      [],
      [
        `${t.why}: ${naming.length === 0 ? 'no open PR closes it' : "no open PR's verdict depends on it (only untrusted authors' keywords name it)"}: nothing to gate`,
      ],
    );
  return touched(
    gated.map((p) => ({ kind: 'pull', number: p.number, named: null })),
    [`${t.why}: re-gating ${gated.map((p) => `#${p.number}`).join(', ')}, whose body closed it`],
  );
}

export async function touchedBy(gh: GitHub, inputs: ItemInputs): Promise<Touched> {
  const t = inputs.trigger;
  switch (t.kind) {
    case 'pull':
      return touched([{ kind: 'pull', number: t.number, named: t.named }]);
    // An issue named by issue-number (a dispatch, the agent's own job) re-gates like an event on it.
    case 'named':
      return forIssue(gh, inputs, t.number, true);
    case 'issue':
      return forIssue(gh, inputs, t.number);
    case 'commit':
      return forCommit(gh, inputs, t);
    case 'group':
      return forGroup(gh, inputs, t);
    case 'gone':
      return forGone(gh, inputs, t);
    default:
      return touched(
        [],
        [
          `the "${t.event}" event names no PR, issue or commit and issue-number is not set: nothing to gate (on workflow_dispatch or repository_dispatch, pass the issue or PR as issue-number)`,
        ],
      );
  }
}
