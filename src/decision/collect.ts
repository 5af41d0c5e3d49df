/**
 * Every annotation of the threads a stage reads, with where it is, when it
 * was written, and whether it may be handed on: trusted (common/trust.ts, the
 * one place trust is decided), shown on GitHub, and last edited by someone
 * trusted. Nothing here decides which one is used; select.ts does.
 */
import { getField, parseAndValidate, type CheckedAnnotation } from '../codec/index.js';
import { CONTEXT_DIGEST, CONTEXT_DIGEST_FIELD } from '../common/context-digest.js';
import type { Author, TrustPolicy } from '../common/trust.js';
import { markEditors as markEditorsOf, standingOf, textsOf } from '../common/trusted-annotations.js';
import type { ThreadComment, WorkItem } from '../common/work-item.js';

/** Which part of the context a thread is: the work item's own (its issues and PR), or a sub-issue's parent. */
export type Scope = 'own' | 'parent';

export interface Candidate {
  annotation: CheckedAnnotation;
  /** Stable across reads while the text stands: repository, item, the comment (or body), and the annotation's place in it. */
  id: string;
  scope: Scope;
  item: WorkItem;
  comment: ThreadComment | null;
  url: string;
  author: Author;
  /** When it was written: its comment's time; a body's annotation, the item's opening (oldest). */
  createdAt: string | null;
  /** Null when it may be handed on; otherwise why not (untrusted author, hidden, edited by a stranger). */
  untrusted: string | null;
  /** The `Context digest` it records: the upstream context it was written against. */
  contextDigest: string | null;
}

/** A thread the reader was given, and the repository it belongs to (owner/name). */
export interface Thread {
  item: WorkItem;
  repository: string;
  scope: Scope;
}

/** Who last edited a comment or body decides as its author does (common/trusted-annotations.ts). */
export function markEditors(threads: readonly Thread[], policy: TrustPolicy): void {
  markEditorsOf(
    threads.map((t) => t.item),
    policy,
  );
}

/** Every annotation in the threads, in reading order (thread, then body, then comments oldest first). */
export function collectCandidates(threads: readonly Thread[], policy: TrustPolicy): Candidate[] {
  const out: Candidate[] = [];
  for (const { item, repository, scope } of threads) {
    for (const text of textsOf(item)) {
      if (!text.body.includes('FORGE:')) continue;
      const standing = standingOf(item, text, policy);
      const where = text.comment ? `comment/${text.comment.id}` : 'body';
      parseAndValidate(text.body).forEach((annotation, index) => {
        out.push({
          annotation,
          id: `${repository.toLowerCase()}#${item.number}/${where}/${index}`,
          scope,
          item,
          comment: text.comment,
          url: text.url,
          author: text.author,
          createdAt: text.comment ? text.comment.createdAt : (item.createdAt ?? null),
          untrusted: standing.counts ? null : standing.why,
          contextDigest: readDigest(annotation),
        });
      });
    }
  }
  return out;
}

function readDigest(a: CheckedAnnotation): string | null {
  const v = (getField(a.fields, CONTEXT_DIGEST_FIELD) ?? '').replace(/`/g, '').trim();
  return CONTEXT_DIGEST.test(v) ? v : null;
}
