/**
 * The one line model every part of the codec uses: a line ends at LF, CR, or
 * CRLF (GitHub returns CRLF). Nothing else — not U+2028, U+2029 or U+0085 —
 * ends a line, so no character inside a value can start a line of its own.
 */

export interface Line {
  /** Offset of the first character. */
  start: number;
  /** Offset just past the last character, before the break. */
  end: number;
  /** Offset just past the line break (equals `end` on the last line). */
  next: number;
  text: string;
}

export function splitLines(body: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  const n = body.length;
  for (let i = 0; i < n; i++) {
    const c = body.charCodeAt(i);
    if (c === 10 || c === 13) {
      const next = c === 13 && body.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
      lines.push({ start, end: i, next, text: body.slice(start, i) });
      i = next - 1;
      start = next;
    }
  }
  lines.push({ start, end: n, next: n, text: body.slice(start, n) });
  return lines;
}

export function isBlankLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}
