/**
 * The platform-neutral shape of an issue or PR thread. The GitHub layer reads
 * into it; the CLI reads a JSON export into it; evaluation only sees this.
 */
import { parseAndValidate, type CheckedAnnotation } from '../codec/index.js';
import { isTrusted, whyUntrusted, type Author, type TrustPolicy } from './trust.js';

export interface ThreadComment {
  id: number;
  url: string;
  author: Author;
  body: string;
  createdAt: string | null;
}

export interface WorkItem {
  number: number;
  kind: 'issue' | 'pull';
  url: string;
  title: string;
  author: Author;
  body: string;
  labels: string[];
  state: string | null;
  milestone: { number: number; title: string } | null;
  comments: ThreadComment[];
}

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
