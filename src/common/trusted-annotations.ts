/**
 * The annotations of a thread split by trust: anyone who can comment can type a
 * tag, so only annotations whose source counts (common/trust.ts) are used; the
 * rest are kept, with why, to be reported.
 */
import { parse, parseAndValidate, type Annotation, type CheckedAnnotation } from '../codec/index.js';
import { counts, trustOfSource, type Author, type SourceKind, type TrustPolicy } from './trust.js';
import type { ThreadComment, WorkItem } from './work-item.js';

/**
 * An annotation and where it was found — the one shape every action uses:
 * the gate's evidence, forge-emit's existing annotation, the trajectory
 * report's newest one.
 */
export interface Located<A extends Annotation = CheckedAnnotation> {
  annotation: A;
  /** The kind of text it was found in (implementation-notes §7). */
  source: SourceKind;
  /** The issue or PR the text belongs to (for a milestone description: the issue the step is about). */
  item: number;
  /** The comment or review holding it; null for a body or a description. */
  comment: ThreadComment | null;
  url: string;
  author: Author;
}

/**
 * Why an annotation was passed over: its author is not trusted, it is a
 * BUILDER for another branch, or it is in a review that no longer speaks for
 * the PR (dismissed, or of an older head commit).
 */
export type IgnoredKind = 'untrusted' | 'foreign-build' | 'stale-review' | 'wrong-place' | 'hidden' | 'edited' | 'unverified';

export interface Ignored {
  kind: IgnoredKind;
  type: string;
  item: number;
  url: string;
  author: Author;
  reason: string;
}

/** The texts of a thread that may hold annotations: the body, counted as its author's, then every comment and review. */
export interface ThreadText {
  kind: Extract<SourceKind, 'issue-body' | 'pull-body' | 'comment'>;
  comment: ThreadComment | null;
  url: string;
  author: Author;
  body: string;
}

/** A PR's reviews are read into its comments: the same rule (the author's) applies to both. */
export function textsOf(item: WorkItem): ThreadText[] {
  return [
    { kind: item.kind === 'pull' ? 'pull-body' : 'issue-body', comment: null, url: item.url, author: item.author, body: item.body },
    ...item.comments.map((c) => ({ kind: 'comment' as const, comment: c, url: c.url, author: c.author, body: c.body })),
  ];
}

/** Every repository's workflow identity: on another repository's issue it is that repository's workflows, not ours. */
const WORKFLOW_IDENTITY = 'github-actions[bot]';

/**
 * On another repository's issue, an author_association says what the author
 * is *there*: `OWNER` of mallory/tools is mallory. Only listed logins (and
 * roles read on this repository) trust anyone on it — and never
 * github-actions[bot], which writes for whichever repository's workflow runs:
 * on mallory/tools it is mallory's workflow.
 */
function policyFor(item: WorkItem, policy: TrustPolicy): TrustPolicy {
  if (!item.foreign) return policy;
  const logins = new Set([...policy.logins].filter((l) => l !== WORKFLOW_IDENTITY));
  return { ...policy, associations: new Set(), logins };
}

/**
 * Why a text no longer speaks for its author, whoever wrote it: GitHub hides
 * the comment (minimized), or someone untrusted edited it (or the body) last.
 * Null when it does.
 */
function disowned(item: WorkItem, src: ThreadText): { kind: 'hidden' | 'edited' | 'unverified'; why: string } | null {
  const c = src.comment;
  const unknown = c ? c.unverified : item.bodyUnverified;
  if (unknown)
    return {
      kind: 'unverified',
      why: `GitHub's answer left the ${c ? 'comment' : 'body'} out (${unknown}): whether it is hidden or was last edited by someone untrusted is not known, so it does not count`,
    };
  if (c?.hidden) return { kind: 'hidden', why: `the comment is hidden on GitHub (${c.hidden}): a hidden comment never counts` };
  const editor = c ? c.editedBy : item.bodyEditedBy;
  if (editor && !editor.trusted)
    return { kind: 'edited', why: `the ${c ? 'comment' : 'body'} was last edited by ${editor.login}, who is not in trusted-authors` };
  return null;
}

/** Does this text of `item` speak for a trusted author, and if not, how it was passed over and why. */
export type Standing = { counts: true } | { counts: false; kind: 'untrusted' | 'hidden' | 'edited' | 'unverified'; why: string };

export function standingOf(item: WorkItem, src: ThreadText, policy: TrustPolicy): Standing {
  const trust = trustOfSource({ kind: src.kind, author: src.author }, policyFor(item, policy));
  if (!trust.counts)
    return {
      counts: false,
      kind: 'untrusted',
      why: item.foreign ? `${trust.why} (on ${item.foreign} an association counts for nobody here)` : trust.why,
    };
  const lost = disowned(item, src);
  return lost ? { counts: false, kind: lost.kind, why: lost.why } : { counts: true };
}

/** The authors whose role may decide trust: of the texts of `items` that hold a FORGE tag at all. */
export function taggedAuthors(items: readonly WorkItem[]): Author[] {
  const out: Author[] = [];
  for (const item of items) for (const text of textsOf(item)) if (text.body.includes('FORGE:')) out.push(text.author);
  return out;
}

/** Every annotation in an item's body and comments, split into trusted and ignored. */
export function collectAnnotations(item: WorkItem, policy: TrustPolicy): { found: Located[]; ignored: Ignored[] } {
  const found: Located[] = [];
  const ignored: Ignored[] = [];
  for (const src of textsOf(item)) {
    const standing = standingOf(item, src, policy);
    for (const annotation of parseAndValidate(src.body)) {
      if (standing.counts)
        found.push({ annotation, source: src.kind, item: item.number, comment: src.comment, url: src.url, author: src.author });
      else
        ignored.push({
          kind: standing.kind,
          type: annotation.type,
          item: item.number,
          url: src.url,
          author: src.author,
          reason: standing.why,
        });
    }
  }
  return { found, ignored };
}

/**
 * The trusted annotations of one type in the comments of #item, oldest first.
 * Only comments that contain `FORGE:{type}` at all are parsed.
 */
export function trustedOfType(comments: readonly ThreadComment[], item: number, type: string, policy: TrustPolicy): Located<Annotation>[] {
  const out: Located<Annotation>[] = [];
  // A last editor's association, as they write elsewhere in these comments (GraphQL names the editor; REST does not).
  const seen = new Map<string, string>();
  for (const c of comments) if (c.author.login) seen.set(c.author.login.toLowerCase(), c.author.association);
  const editorTrusted = (c: ThreadComment) =>
    c.editedBy
      ? c.editedBy.trusted
      : c.editor
        ? counts('comment', { login: c.editor, association: seen.get(c.editor.toLowerCase()) ?? 'NONE' }, policy)
        : true;
  for (const comment of comments) {
    if (!comment.body.includes(`FORGE:${type}`) || !trustOfSource({ kind: 'comment', author: comment.author }, policy).counts) continue;
    // Hidden, last edited by someone untrusted, or left out of GitHub's answer: it does not speak for its author.
    if (comment.hidden || comment.unverified !== undefined || !editorTrusted(comment)) continue;
    for (const annotation of parse(comment.body))
      if (annotation.type === type) out.push({ annotation, source: 'comment', item, comment, url: comment.url, author: comment.author });
  }
  return out;
}

/**
 * Who last edited a comment or body decides as its author does: an editor's
 * association is taken from where the same login writes elsewhere in these
 * threads (this repository's only), else none. For threads read with GraphQL,
 * which names each text's last editor (`editor`, `bodyEditor`).
 */
export function markEditors(items: readonly WorkItem[], policy: TrustPolicy): void {
  const seen = new Map<string, string>();
  for (const item of items) {
    if (item.foreign) continue;
    for (const a of [item.author, ...item.comments.map((c) => c.author)]) if (a.login) seen.set(a.login.toLowerCase(), a.association);
  }
  const as = (login: string): { login: string; trusted: boolean } => ({
    login,
    trusted: counts('comment', { login, association: seen.get(login.toLowerCase()) ?? 'NONE' }, policy),
  });
  for (const item of items) {
    if (item.bodyEditor) item.bodyEditedBy = as(item.bodyEditor);
    for (const c of item.comments) if (c.editor) c.editedBy = as(c.editor);
  }
}
