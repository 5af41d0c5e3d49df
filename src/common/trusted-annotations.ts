/**
 * The annotations of a thread split by trust: anyone who can comment can type a
 * tag, so only trusted authors' annotations are counted; the rest are kept,
 * with why, to be reported.
 */
import { parse, parseAndValidate, type Annotation, type CheckedAnnotation } from '../codec/index.js';
import { isTrusted, whyUntrusted, type Author, type TrustPolicy } from './trust.js';
import type { ThreadComment, WorkItem } from './work-item.js';

/** Where an annotation was found. */
export interface Located {
  annotation: CheckedAnnotation;
  /** The item (issue or PR number) holding it. */
  item: number;
  /** Comment id, or null for the issue or PR body. */
  commentId: number | null;
  url: string;
  author: Author;
  trusted: boolean;
}

export interface Ignored {
  type: string;
  item: number;
  url: string;
  author: Author;
  reason: string;
}

/** Every annotation in an item's body and comments, split into trusted and ignored. */
export function collectAnnotations(item: WorkItem, policy: TrustPolicy): { found: Located[]; ignored: Ignored[] } {
  const found: Located[] = [];
  const ignored: Ignored[] = [];
  // An issue body counts as written by the author.
  const sources = [
    { id: null as number | null, url: item.url, author: item.author, body: item.body },
    ...item.comments.map((c) => ({ id: c.id as number | null, url: c.url, author: c.author, body: c.body })),
  ];
  for (const src of sources) {
    if (!src.body || src.body.indexOf('<!--') < 0) continue;
    const trusted = isTrusted(policy, src.author);
    for (const annotation of parseAndValidate(src.body)) {
      if (trusted) found.push({ annotation, item: item.number, commentId: src.id, url: src.url, author: src.author, trusted });
      else ignored.push({ type: annotation.type, item: item.number, url: src.url, author: src.author, reason: whyUntrusted(src.author) });
    }
  }
  return { found, ignored };
}

/** An annotation and the comment holding it. */
export interface InComment {
  annotation: Annotation;
  comment: ThreadComment;
}

/**
 * The trusted annotations of one type in these comments, oldest first. Only
 * comments that contain `FORGE:{type}` at all are parsed.
 */
export function trustedOfType(comments: readonly ThreadComment[], type: string, policy: TrustPolicy): InComment[] {
  const out: InComment[] = [];
  for (const comment of comments) {
    if (!comment.body.includes(`FORGE:${type}`) || !isTrusted(policy, comment.author)) continue;
    for (const annotation of parse(comment.body)) if (annotation.type === type) out.push({ annotation, comment });
  }
  return out;
}
