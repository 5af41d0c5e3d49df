/**
 * CommonMark fenced code blocks, as far as annotations care (implementation-notes.md §2): a
 * fence opens with three or more backticks or tildes indented at most three
 * spaces; it closes with a line of the same character, at least as long, and
 * nothing else but spaces; an unclosed fence runs to the end of the comment.
 * Inside a fence, tags, sentinels and fields are text — GitHub shows them.
 */
import { GRAVE, isBlankChar, SPACE, TILDE } from './chars.js';

export interface Fence {
  char: number;
  length: number;
}

function leadingSpaces(text: string): number {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) === SPACE) i++;
  return i;
}

function runLength(text: string, from: number, char: number): number {
  let i = from;
  while (i < text.length && text.charCodeAt(i) === char) i++;
  return i - from;
}

/** The fence this line opens, or null. */
export function openingFence(text: string): Fence | null {
  const indent = leadingSpaces(text);
  if (indent > 3) return null;
  const char = text.charCodeAt(indent);
  if (char !== GRAVE && char !== TILDE) return null;
  const length = runLength(text, indent, char);
  if (length < 3) return null;
  // A backtick fence's info string may not contain a backtick.
  if (char === GRAVE && text.indexOf('`', indent + length) >= 0) return null;
  return { char, length };
}

/** The info string after an opening fence (`jsonc` in ```jsonc). */
export function fenceInfo(text: string): string {
  const indent = leadingSpaces(text);
  const char = text.charCodeAt(indent);
  const length = runLength(text, indent, char);
  return text.slice(indent + length).trim();
}

export function closesFence(text: string, fence: Fence): boolean {
  const indent = leadingSpaces(text);
  if (indent > 3) return false;
  const length = runLength(text, indent, fence.char);
  if (length < fence.length) return false;
  for (let i = indent + length; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isBlankChar(c)) return false;
  }
  return true;
}

/**
 * Close any fence left open at the end of emitted Markdown, so that nothing the
 * emitter writes after it (a field, a sentinel) is swallowed into a code block.
 */
export function closeOpenFences(markdown: string, lines: string[]): string {
  let open: Fence | null = null;
  for (const text of lines) {
    if (open) {
      if (closesFence(text, open)) open = null;
    } else {
      open = openingFence(text);
    }
  }
  if (!open) return markdown;
  return `${markdown}\n${String.fromCharCode(open.char).repeat(open.length)}`;
}
