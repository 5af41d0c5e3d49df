/**
 * Finding every gist FORGE points to (spec §4.2 "Security: Gist Visibility"):
 * KNOWLEDGE_GIST in comments, PRIOR_GIST in issue bodies, MILESTONE_INDEX in
 * milestone descriptions, and the memory-index gist named by
 * `FORGE:MEMORY_INDEX: {owner/repo}` in a gist description.
 */
import { parse } from '../../codec/index.js';
import type { ThreadComment, WorkItem } from '../../common/work-item.js';
import { trustOfSource, type Source, type TrustPolicy } from '../../common/trust.js';
import type { GitHub } from '../../github/client.js';
import { listOwnGists, type GistInfo } from '../../github/gists.js';
import { repoName, type Repo } from '../../common/repo.js';
import { listComments } from '../../github/reads.js';
import { readThreadSnapshot } from '../../github/snapshot.js';
import type { PipelineAnswer } from '../../common/pipeline.js';
import { ApiError } from '../../github/errors.js';
import { listIssues, listRepoComments } from '../../github/repo-reads.js';
import { listMilestones, resolveMilestone, type MilestoneInfo, type MilestoneRef } from '../../github/reads.js';
import { gistIdFromUrl } from '../../common/gist-urls.js';

export type Location =
  | { kind: 'comment'; issue: number; commentId: number }
  | { kind: 'issue-body'; issue: number }
  | { kind: 'milestone'; number: number; title: string }
  | { kind: 'gist-file'; gistId: string; filename: string }
  | { kind: 'gist-description'; gistId: string };

export interface Reference {
  /** The annotation type that points to the gist. */
  type: string;
  url: string;
  /** The gist id, or null when the URL is not a gist URL. */
  id: string | null;
  source: string;
  trusted: boolean;
  /** The issue the reference lives on, for labels. */
  issue: number | null;
  location: Location;
  /** An index gist, whose files list further knowledge gists (followed one level). */
  index: boolean;
  /**
   * Does the repository itself show this URL (a comment, a body, a milestone)?
   * A secret gist is protected only by its id: one the repository does not
   * show (the memory index, gists listed inside an index) is never named in
   * logs, summaries or outputs.
   */
  shown: boolean;
}

/** Annotation types whose inline value is a gist URL; the index types are followed one level. */
const GIST_TYPES: Record<string, { index: boolean }> = {
  KNOWLEDGE_GIST: { index: false },
  PRIOR_GIST: { index: false },
  MILESTONE_INDEX: { index: true },
};

/** Where a text was found, and whose word it is. */
interface Place {
  location: Location;
  /** The issue it lives on, for labels; null for a milestone. */
  issue: number | null;
  /** For people: `comment 7 on #12`. */
  where: string;
  source: Source;
}

export function refsInBody(body: string, place: Place, policy: TrustPolicy): Reference[] {
  if (!body?.includes('FORGE:')) return [];
  const { location, issue, where } = place;
  const trusted = trustOfSource(place.source, policy).counts;
  const out: Reference[] = [];
  for (const a of parse(body)) {
    const kind = GIST_TYPES[a.type];
    if (!kind || a.inlineValue === null || a.inlineValue === '') continue;
    out.push({
      type: a.type,
      url: a.inlineValue,
      id: gistIdFromUrl(a.inlineValue),
      source: where,
      trusted,
      issue,
      location,
      index: kind.index,
      shown: true,
    });
  }
  return out;
}

/** The gist references in one comment on #issue, trusted as its author is. */
function commentRefs(c: ThreadComment, issue: number, trust: TrustPolicy): Reference[] {
  const place: Place = {
    location: { kind: 'comment', issue, commentId: c.id },
    issue,
    where: `comment ${c.id} on #${issue}`,
    source: { kind: 'comment', author: c.author },
  };
  return refsInBody(c.body, place, trust);
}

function itemRefs(item: WorkItem, comments: ThreadComment[], trust: TrustPolicy): Reference[] {
  const place: Place = {
    location: { kind: 'issue-body', issue: item.number },
    issue: item.number,
    where: `body of #${item.number}`,
    source: { kind: item.kind === 'pull' ? 'pull-body' : 'issue-body', author: item.author },
  };
  const refs = refsInBody(item.body, place, trust);
  for (const c of comments) refs.push(...commentRefs(c, item.number, trust));
  return refs;
}

function milestoneRefs(m: MilestoneInfo, trust: TrustPolicy): Reference[] {
  const place: Place = {
    location: { kind: 'milestone', number: m.number, title: m.title },
    issue: null,
    where: `milestone "${m.title}"`,
    source: { kind: 'milestone-description' },
  };
  return refsInBody(m.description, place, trust);
}

const MEMORY_MARK = 'FORGE:MEMORY_INDEX:';

/**
 * The repository a gist description names as its memory index. A description
 * is one line that often carries other words too ("memory <!-- FORGE:MEMORY_INDEX:
 * o/r -->"), so the marker is found inside it; the description is written by the
 * gist's owner, the gist-token user, so nothing untrusted is read here.
 */
export function memoryIndexRepo(description: string | null): string | null {
  if (!description) return null;
  const at = description.indexOf(MEMORY_MARK);
  if (at < 0) return null;
  const rest = description.slice(at + MEMORY_MARK.length);
  const close = rest.indexOf('-->');
  const value = (close >= 0 ? rest.slice(0, close) : rest).trim();
  return value === '' ? null : value;
}

/** The memory-index gists of the gist-token user for this repository (one level of indexing). */
export function memoryIndexGists(gists: GistInfo[], r: Repo): GistInfo[] {
  const name = repoName(r).toLowerCase();
  return gists.filter((g) => memoryIndexRepo(g.description)?.toLowerCase() === name);
}

export interface Collected {
  refs: Reference[];
  /** What was searched, for the summary. */
  searched: string[];
  notes: string[];
  /** The gist-token user's gists, when they were listed (repository scope): the audit reads their visibility from here. */
  ownGists?: GistInfo[];
}

/** What an audit covers: one issue, a milestone and its issues, or the whole repository. */
export type AuditScope = { kind: 'issue'; issue: number } | { kind: 'milestone'; milestone: MilestoneRef } | { kind: 'repository' };

export interface CollectOptions {
  repo: Repo;
  scope: AuditScope;
  trust: TrustPolicy;
  /** Set when trust is left to the pipeline file: an issue's read carries the file, and this turns it into who is trusted. */
  fromPipeline?: (answer: PipelineAnswer) => TrustPolicy;
  /** The gist-token client, or null without one (the memory index is then not searched). */
  gistClient: GitHub | null;
}

export async function collectReferences(gh: GitHub, opts: CollectOptions): Promise<Collected> {
  const { repo: r, scope } = opts;
  let trust = opts.trust;
  const refs: Reference[] = [];
  const searched: string[] = [];
  const notes: string[] = [];

  if (scope.kind === 'issue') {
    // The issue (or PR) and every comment, in one GraphQL read per 100 comments.
    const settle = opts.fromPipeline;
    const snap = await readThreadSnapshot(
      gh,
      r,
      scope.issue,
      undefined,
      settle
        ? (answer) => {
            trust = settle(answer);
          }
        : undefined,
    );
    if (snap.item === null)
      throw new ApiError(
        `reading #${scope.issue} failed: not found: no issue of ${r.owner}/${r.repo} that this token can see has that number`,
        404,
        false,
      );
    const item = snap.item;
    refs.push(...itemRefs(item, item.comments, trust));
    notes.push(...snap.notes);
    searched.push(`#${item.number} (body and comments)`);
    return { refs, searched, notes };
  }

  if (scope.kind === 'milestone') {
    const m = await resolveMilestone(gh, r, scope.milestone);
    refs.push(...milestoneRefs(m, trust));
    const issues = await listIssues(gh, r, { state: 'all', milestone: m.number });
    for (const item of issues) refs.push(...itemRefs(item, await listComments(gh, r, item.number), trust));
    searched.push(`milestone "${m.title}" and its ${issues.length} issue(s)`);
    return { refs, searched, notes };
  }

  const issues = await listIssues(gh, r, { state: 'all' });
  for (const item of issues) refs.push(...itemRefs(item, [], trust));
  const comments = await listRepoComments(gh, r);
  for (const c of comments) refs.push(...commentRefs(c, c.issue, trust));
  const milestones = await listMilestones(gh, r);
  for (const m of milestones) refs.push(...milestoneRefs(m, trust));
  searched.push(`${issues.length} issue(s), ${comments.length} comment(s), ${milestones.length} milestone(s)`);
  if (opts.gistClient) {
    const own = await listOwnGists(opts.gistClient);
    for (const g of memoryIndexGists(own, r)) refs.push(memoryIndexReference(g, r));
    searched.push(`${own.length} gist(s) of the gist-token user for the memory index`);
    return { refs, searched, notes, ownGists: own };
  }
  notes.push('The memory-index gist was not searched: listing your own gists needs a gist-token.');
  return { refs, searched, notes };
}

/** The memory-index gist as a reference: trusted (the gist-token user's own), and not shown by the repository. */
function memoryIndexReference(g: GistInfo, r: Repo): Reference {
  return {
    type: 'MEMORY_INDEX',
    url: g.url,
    id: g.id,
    source: `memory-index gist (FORGE:MEMORY_INDEX: ${repoName(r)})`,
    trusted: trustOfSource({ kind: 'memory-index-gist' }).counts,
    issue: null,
    location: { kind: 'gist-description', gistId: g.id },
    index: true,
    shown: false,
  };
}
