/** Plain work items for the logic's unit tests: no server, no runner. */
import type { Author } from '../../src/common/trust.js';
import type { ThreadComment, WorkItem } from '../../src/common/work-item.js';

export const OWNER: Author = { login: 'octo-owner', association: 'OWNER' };
export const STRANGER: Author = { login: 'drive-by', association: 'NONE' };

let nextId = 1;

export function comment(body: string, author: Author = OWNER): ThreadComment {
  const id = nextId++;
  return { id, url: `https://github.example/o/r/issues/1#issuecomment-${id}`, author, body, createdAt: null };
}

export function item(number: number, comments: ThreadComment[], extra: Partial<WorkItem> = {}): WorkItem {
  return {
    number,
    kind: 'issue',
    url: `https://github.example/o/r/issues/${number}`,
    title: `Issue ${number}`,
    author: OWNER,
    body: '',
    labels: [],
    state: 'open',
    milestone: null,
    comments,
    ...extra,
  };
}

/** An annotation as the actions locate it: in a comment (or none) of issue #item, by the owner. */
export function located<A>(
  annotation: A,
  item = 1,
): { annotation: A; source: 'comment'; item: number; comment: null; url: string; author: Author } {
  return { annotation, source: 'comment', item, comment: null, url: `https://github.example/o/r/issues/${item}`, author: OWNER };
}
