/**
 * A thread exported with `gh`, read into the neutral thread shape: what
 * `forge check`, `forge validate` and `forge context` take offline. gh writes
 * an issue's comments in three shapes, and all three are the same thread:
 *
 * - `gh api …/comments`: one JSON array;
 * - `gh api --paginate …/comments`: one array per page, written one after the
 *   other (`[…][…]`: not one JSON value, so JSON.parse refuses it);
 * - `gh api --paginate --slurp …/comments`: an array of those pages (`[[…],[…]]`).
 *
 * Or an object `{issue, comments}` whose `comments` is any of those, and
 * optionally `parent: {issue, comments}` (a sub-issue's parent).
 */
import { UsageError } from '../common/errors.js';
import type { WorkItem } from '../common/work-item.js';
import { toComment, toWorkItem } from './rest-shapes.js';

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The top-level JSON values of `text`, written one after another (what
 * `gh api --paginate` prints). One pass over the characters: depth counts
 * brackets outside strings, and a value ends where depth returns to zero.
 * Anything between values but white space is not such a stream: null.
 */
export function splitJsonStream(text: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (depth === 0) {
      if (c === OPEN_BRACKET || c === OPEN_BRACE) {
        start = i;
        depth = 1;
      } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0xfeff) return null;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) depth++;
    else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
      if (depth === 0) out.push(text.slice(start, i + 1));
    }
  }
  return depth === 0 && !inString ? out : null;
}

/** The JSON of a file: one value, or the values of a `--paginate` stream as a list of pages. */
function readJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const parts = splitJsonStream(text);
    if (parts === null || parts.length < 2)
      throw new UsageError(
        `${file} is not a thread export: check and context read the JSON of an issue's comments (gh api --paginate repos/OWNER/REPO/issues/N/comments > thread.json); a Markdown comment body is for parse and validate`,
      );
    try {
      return { pages: parts.map((p) => JSON.parse(p)) };
    } catch {
      throw new UsageError(`${file} is not valid JSON (nor pages of JSON as gh api --paginate writes them)`);
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The comments of any of gh's shapes: one array, an array of pages, or pages one after another. */
function commentsOf(value: unknown, file: string): unknown[] | null {
  if (isObject(value) && Array.isArray(value.pages)) return commentsOf(value.pages, file);
  if (!Array.isArray(value)) return null;
  // --slurp: every element is a page (an array); an empty export is no comments.
  if (value.length > 0 && value.every((x) => Array.isArray(x))) return (value as unknown[][]).flat();
  if (value.some((x) => Array.isArray(x))) throw new UsageError(`${file}: mixes comments and pages of comments`);
  return value;
}

/** The issue a comment belongs to, from its `issue_url` (every REST comment has one), or null. */
function issueNumberOf(comments: readonly unknown[]): number | null {
  for (const c of comments) {
    const url = isObject(c) && typeof c.issue_url === 'string' ? c.issue_url : '';
    const m = /\/issues\/(\d+)$/.exec(url);
    if (m) return Number(m[1]);
  }
  return null;
}

function threadOf(value: unknown, file: string, number: number | null): WorkItem {
  const bare = commentsOf(value, file);
  if (bare !== null) {
    const n = number ?? issueNumberOf(bare);
    if (n === null)
      throw new UsageError(`${file} is a bare comment array and names no issue: add --number N (or export {issue, comments})`);
    return toWorkItem({ number: n }, bare.map(toComment));
  }
  if (isObject(value)) {
    const comments = commentsOf(value.comments, file);
    if (comments !== null) return toWorkItem(value.issue ?? { number: number ?? issueNumberOf(comments) ?? 0 }, comments.map(toComment));
  }
  throw new UsageError(
    `${file}: expected a JSON array of comments or an object {issue, comments} (what gh api writes, with or without --paginate or --slurp)`,
  );
}

/** A thread export, and the parent's when the export carries one (`parent: {issue, comments}`). */
export interface ThreadExport {
  item: WorkItem;
  parent: WorkItem | null;
}

/**
 * A `gh api …/comments` export in any of gh's shapes, or `{issue, comments}`.
 * A bare array names its issue through its comments' `issue_url`; `number`
 * supplies it otherwise (null asks for it, rather than report "issue #0").
 */
export function readThreadExportWithParent(text: string, file: string, number: number | null = null): ThreadExport {
  const data = readJson(text, file);
  const item = threadOf(data, file, number);
  const parentData = isObject(data) ? data.parent : undefined;
  const parent = isObject(parentData) ? threadOf(parentData, `${file} (parent)`, null) : null;
  return { item, parent };
}

export function readThreadExport(text: string, file: string, number: number | null = null): WorkItem {
  return readThreadExportWithParent(text, file, number).item;
}
