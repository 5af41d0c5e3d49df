/**
 * The one line model every part of the codec uses: a line ends at LF, CR, or
 * CRLF (GitHub returns CRLF). Nothing else — not U+2028, U+2029 or U+0085 —
 * ends a line, so no character inside a value can start a line of its own.
 *
 * Lines are kept as offsets into the body, not as strings: a line's text is
 * sliced only when something needs to read it, which keeps parsing linear and
 * light on memory even for a body of 65,536 empty lines.
 */

const LONE_CR = /\r(?!\n)/;

export class LineTable {
  readonly body: string;
  readonly count: number;
  readonly start: number[] = [];
  readonly end: number[] = [];
  /** 0 outside a fence, 1 inside one (closing delimiter included), 2 an opening delimiter. Set by the scanner. */
  readonly fenced: Uint8Array;

  constructor(body: string) {
    this.body = body;
    const { start, end } = this;
    // Native indexOf finds line feeds far faster than a character loop; a CR
    // before the LF is trimmed. Only a body with a lone CR needs the slow path.
    if (!LONE_CR.test(body)) {
      let s = 0;
      for (let nl = body.indexOf('\n'); nl >= 0; nl = body.indexOf('\n', s)) {
        start.push(s);
        end.push(nl > s && body.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
        s = nl + 1;
      }
      start.push(s);
      end.push(body.length);
    } else {
      let s = 0;
      for (let i = 0; i < body.length; i++) {
        const c = body.charCodeAt(i);
        if (c === 10 || c === 13) {
          start.push(s);
          end.push(i);
          if (c === 13 && body.charCodeAt(i + 1) === 10) i++;
          s = i + 1;
        }
      }
      start.push(s);
      end.push(body.length);
    }
    this.count = start.length;
    this.fenced = new Uint8Array(this.count);
  }

  text(i: number): string {
    return this.body.slice(this.start[i], this.end[i]);
  }

  /** Offset of the first character that is not a space or tab (the line's end when there is none). */
  firstNonBlank(i: number): number {
    const e = this.end[i];
    let p = this.start[i];
    while (p < e) {
      const c = this.body.charCodeAt(p);
      if (c !== 32 && c !== 9) break;
      p++;
    }
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
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}
