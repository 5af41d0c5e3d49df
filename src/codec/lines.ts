/**
 * The one line model every part of the codec uses: a line ends at LF, CR, or
 * CRLF (GitHub returns CRLF). Nothing else — not U+2028, U+2029 or U+0085 —
 * ends a line, so no character inside a value can start a line of its own.
 *
 * Lines are kept as offsets into the body, not as strings: a line's text is
 * sliced only when something needs to read it, which keeps parsing linear and
 * light on memory even for a body of 65,536 empty lines.
 */
import { isBlankChar, SPACE, TAB } from './chars.js';

let scratchStart = new Int32Array(1024);
let scratchEnd = new Int32Array(1024);
let scratchFenced = new Uint8Array(1024);

function ensureScratch(size: number): void {
  if (scratchStart.length >= size) return;
  let cap = scratchStart.length;
  while (cap < size) cap *= 2;
  scratchStart = new Int32Array(cap);
  scratchEnd = new Int32Array(cap);
  scratchFenced = new Uint8Array(cap);
}

/** A line's place relative to fenced code blocks (micromark names its states; so do we). */
export const OUTSIDE_FENCE = 0;
/** Inside a fence: its content lines and its closing delimiter. */
export const IN_FENCE = 1;
/** The line that opens a fence. */
export const FENCE_OPENING = 2;

export class LineTable {
  readonly body: string;
  readonly count: number;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Per line: OUTSIDE_FENCE, IN_FENCE (content and closing delimiter) or FENCE_OPENING. Set by the scanner. */
  readonly fenced: Uint8Array;

  constructor(body: string) {
    this.body = body;
    const n = body.length;
    // One pass into scratch arrays reused across calls (a body has at most
    // length + 1 lines); the table keeps views of them. parse() is synchronous
    // and keeps no table after it returns, so reuse is safe and saves an
    // allocation and a counting pass per comment.
    ensureScratch(n + 1);
    const start = scratchStart;
    const end = scratchEnd;
    let line = 0;
    let s = 0;
    // Native indexOf finds each LF and each CR: far faster than a character
    // loop on ordinary text, and still linear. A CR right before an LF is part
    // of CRLF; any other CR ends a line by itself.
    let cr = body.indexOf('\r');
    for (;;) {
      const nl = body.indexOf('\n', s);
      const stop = nl < 0 ? n : nl;
      // A CR right before the LF is part of CRLF, not a line of its own.
      while (cr >= 0 && cr < stop && cr !== nl - 1) {
        start[line] = s;
        end[line] = cr;
        line++;
        s = cr + 1;
        cr = body.indexOf('\r', s);
      }
      if (nl < 0) break;
      start[line] = s;
      end[line] = cr >= s && cr === nl - 1 ? nl - 1 : nl;
      line++;
      s = nl + 1;
      // The CR of this line's CRLF is behind us now: find the next one. Any other CR in hand is still ahead.
      if (cr === nl - 1) cr = body.indexOf('\r', s);
    }
    start[line] = s;
    end[line] = n;
    this.count = line + 1;
    this.start = start;
    this.end = end;
    this.fenced = scratchFenced;
    scratchFenced.fill(0, 0, this.count);
  }

  text(i: number): string {
    return this.body.slice(this.start[i], this.end[i]);
  }

  /** Offset of the first character that is not a space or tab (the line's end when there is none). */
  firstNonBlank(i: number): number {
    const e = this.end[i];
    let p = this.start[i];
    const body = this.body;
    while (p < e && (body.charCodeAt(p) === SPACE || body.charCodeAt(p) === TAB)) p++;
    return p;
  }

  isBlank(i: number): boolean {
    return this.firstNonBlank(i) === this.end[i];
  }
}

/** Line texts, for callers that want strings. */
export function splitLines(body: string): string[] {
  const t = new LineTable(body);
  const out: string[] = [];
  for (let i = 0; i < t.count; i++) out.push(t.text(i));
  return out;
}

export function isBlankLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isBlankChar(c)) return false;
  }
  return true;
}
