/**
 * What a stranger's text hides from a person reading it on GitHub, made
 * visible before it is quoted to an agent: HTML comments (GitHub renders them
 * as nothing), zero-width characters and bidirectional controls (they hide or
 * reorder what a reader sees). The pack quotes the text with each such thing
 * shown as a marked, inert note — never dropped, never left to act unseen —
 * and says how many there were. Pure.
 */

/** Characters that render as nothing or reorder the text around them, by code point. */
const INVISIBLE: ReadonlySet<number> = new Set([
  0x200b,
  0x200c,
  0x200d,
  0x200e,
  0x200f, // zero width space, non-joiner, joiner; LRM, RLM
  0x2060,
  0x2061,
  0x2062,
  0x2063,
  0x2064, // word joiner, invisible operators
  0xfeff, // zero width no-break space (BOM)
  0x061c, // Arabic letter mark
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e, // bidi embeddings and overrides
  0x2066,
  0x2067,
  0x2068,
  0x2069, // bidi isolates
]);

export interface Revealed {
  text: string;
  /** How many HTML comments and invisible characters were made visible. */
  comments: number;
  invisible: number;
}

const hex = (c: number) => c.toString(16).toUpperCase().padStart(4, '0');

/** The text with every HTML comment and invisible character shown as a marked note. */
export function revealHidden(text: string): Revealed {
  let comments = 0;
  let invisible = 0;
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      const inner = end < 0 ? text.slice(i + 4) : text.slice(i + 4, end);
      comments++;
      // The comment's words stay readable as data; its markers no longer hide it.
      out += `[hidden HTML comment: ${inner.replace(/<!--|-->/g, '')}]`;
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    const code = text.codePointAt(i) as number;
    if (INVISIBLE.has(code)) {
      invisible++;
      out += `[U+${hex(code)}]`;
    } else out += String.fromCodePoint(code);
    i += code > 0xffff ? 2 : 1;
  }
  return { text: out, comments, invisible };
}

/** One line saying what was made visible; null when nothing was hidden. */
export function revealedNote(r: Revealed): string | null {
  if (r.comments === 0 && r.invisible === 0) return null;
  const parts = [
    r.comments > 0 ? `${r.comments} HTML comment${r.comments === 1 ? '' : 's'}` : '',
    r.invisible > 0 ? `${r.invisible} zero-width or bidirectional character${r.invisible === 1 ? '' : 's'}` : '',
  ].filter((p) => p !== '');
  return `It hid ${parts.join(' and ')} that GitHub does not show: each is shown below in [brackets], as text.`;
}
