/**
 * Injection hardening (implementation-notes.md §1). Byte-compatible with the reference codec:
 * `&` is escaped first so the scheme is injective, then the three sequences that
 * open or close an HTML comment. Decoding runs the same steps in reverse.
 */
import { trimBlank } from './chars.js';

const ENCODE: ReadonlyArray<[string, string]> = [
  ['&', '&amp;'],
  ['<!--', '&lt;!--'],
  ['-->', '--&gt;'],
  ['--!>', '--!&gt;'],
];

const DECODE: ReadonlyArray<[string, string]> = [
  ['--!&gt;', '--!>'],
  ['--&gt;', '-->'],
  ['&lt;!--', '<!--'],
  ['&amp;', '&'],
];

export function encode(text: string): string {
  // No shortcut here: encode runs once per value written, and writing is rare next to reading.
  let out = text;
  for (const [from, to] of ENCODE) out = out.split(from).join(to);
  return out;
}

export function decode(text: string): string {
  // Every encoded sequence holds `&`: most values have none and come back as they are (decode runs per value read).
  if (text.indexOf('&') < 0) return text;
  let out = text;
  for (const [from, to] of DECODE) out = out.split(from).join(to);
  return out;
}

/*
 * Keys additionally escape `*` as `&#42;`: a key is delimited by `**`, so a key
 * holding `**` could not otherwise be read back. `&` is already escaped, so
 * `&#42;` can only have come from `*`.
 */
export function encodeKey(key: string): string {
  return encode(key).split('*').join('&#42;');
}

export function decodeKey(key: string): string {
  if (key.indexOf('&') < 0) return key;
  return decode(key.split('&#42;').join('*'));
}

/**
 * Fold a value for a single-line slot: every line break (CRLF counts as one)
 * becomes one space, then surrounding spaces and tabs are trimmed. U+2028,
 * U+2029 and U+0085 are not line breaks to this codec anywhere, so they stay.
 */
export function foldLine(value: string): string {
  // A plain alternation of literals: the engine's own linear scan, no backtracking.
  return trimBlank(value.replace(/\r\n|\r|\n/g, ' '));
}
