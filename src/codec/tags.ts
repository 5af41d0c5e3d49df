/**
 * Classifies one line as an opening tag, a sentinel, or text. Written as a
 * scan over character codes with no regular expressions, so the time is
 * linear in the line's length whatever it holds (implementation-notes.md §5).
 */
import {
  COLON,
  DASH,
  EM_DASH,
  EN_DASH,
  EXCLAMATION,
  GREATER_THAN,
  isBlankChar,
  isTypeNameChar,
  isUpper,
  skipBlank,
  trimBlank,
  trimBlankEnd,
} from './chars.js';
import { isInline, isReserved } from './registry.js';

export type LineClass =
  | { kind: 'text' }
  | { kind: 'open'; type: string; value: string | null; valueForm: 'colon' | 'dash' | null }
  | { kind: 'sentinel'; name: string; type: string; state: SentinelWord; forgePrefix: boolean };

/**
 * The words a sentinel line ends with. COMPLETE (§3.2) and PARTIAL (§3.3);
 * INVALID only so that a deployed `<!-- INVESTIGATION:INVALID -->` is
 * recognised and reported — it completes nothing.
 */
export type SentinelWord = 'COMPLETE' | 'PARTIAL' | 'INVALID';

const TEXT: LineClass = { kind: 'text' };

/** Does the HTML comment interior close early (`-->` or `--!>`)? Then it is not one tag. */
function closesEarly(s: string, from: number, to: number): boolean {
  // `to` is where the line's own `-->` starts: reading a character past the
  // interior meets that `-`, never `>`, so the `--!>` check needs no bound.
  for (let i = from; i + 2 < to; i++) {
    if (s.charCodeAt(i) === DASH && s.charCodeAt(i + 1) === DASH) {
      const c = s.charCodeAt(i + 2);
      if (c === GREATER_THAN) return true;
      if (c === EXCLAMATION && s.charCodeAt(i + 3) === GREATER_THAN) return true;
    }
  }
  return false;
}

/**
 * The end of the type name starting at `from` (`from` itself when none starts
 * there). It needs no end bound: the interior ends at a blank or at the `-` of
 * `-->`, and neither is part of a name.
 */
function readName(s: string, from: number): number {
  if (!isUpper(s.charCodeAt(from))) return from;
  let i = from + 1;
  while (isTypeNameChar(s.charCodeAt(i))) i++;
  return i;
}

function sentinelState(s: string, from: number, to: number): SentinelWord | null {
  const word = s.slice(from, to);
  return word === 'COMPLETE' || word === 'PARTIAL' || word === 'INVALID' ? word : null;
}

export function classifyLine(line: string): LineClass {
  const a = skipBlank(line, 0, line.length);
  const b = trimBlankEnd(line, a, line.length);
  // Both delimiters may overlap (`<!-->`): the interior is then empty or
  // negative, no name can be read from it, and the line is text.
  if (!line.startsWith('<!--', a) || !line.startsWith('-->', b - 3)) return TEXT;
  if (closesEarly(line, a + 4, b - 3)) return TEXT;
  const i = skipBlank(line, a + 4, b - 3);
  const j = trimBlankEnd(line, i, b - 3);

  if (line.startsWith('FORGE:', i)) return classifyForge(line, i + 6, j);

  // `<!-- NAME:COMPLETE -->` / `<!-- NAME:PARTIAL -->`
  const nameEnd = readName(line, i);
  if (nameEnd === i || line.charCodeAt(nameEnd) !== COLON) return TEXT;
  const state = sentinelState(line, nameEnd + 1, j);
  if (!state) return TEXT;
  const type = line.slice(i, nameEnd);
  return { kind: 'sentinel', name: `${type}:${state}`, type, state, forgePrefix: false };
}

function classifyForge(line: string, i: number, j: number): LineClass {
  const nameEnd = readName(line, i);
  if (nameEnd === i) return TEXT;
  const type = line.slice(i, nameEnd);
  if (nameEnd === j) return { kind: 'open', type, value: null, valueForm: null };
  const c = line.charCodeAt(nameEnd);

  if (c === COLON) {
    const afterColon = nameEnd + 1;
    const rawValue = line.slice(afterColon, j);
    // Inline-value types take everything after the colon as their value, so
    // `<!-- FORGE:PRIOR_GIST: COMPLETE -->` is the value COMPLETE (implementation-notes.md §2).
    if (isInline(type)) return { kind: 'open', type, value: trimBlank(rawValue), valueForm: 'colon' };
    const k = skipBlank(line, afterColon, j);
    const state = sentinelState(line, k, j);
    // A reserved non-inline type reads `FORGE:T:COMPLETE` (or `: COMPLETE`) as its sentinel;
    // a custom type only without the space — with it, it is a custom inline value.
    if (state && (k === afterColon || isReserved(type))) {
      return { kind: 'sentinel', name: `FORGE:${type}:${state}`, type, state, forgePrefix: true };
    }
    if (k > afterColon || isReserved(type)) return { kind: 'open', type, value: trimBlank(rawValue), valueForm: 'colon' };
    return TEXT;
  }

  if (isBlankChar(c)) {
    const k = skipBlank(line, nameEnd, j);
    const d = line.charCodeAt(k);
    // `<!-- FORGE:DISPATCHER — {desc} -->`: em dash, en dash, or a lone hyphen.
    const isDash = d === EM_DASH || d === EN_DASH || (d === DASH && (k + 1 === j || isBlankChar(line.charCodeAt(k + 1))));
    if (isDash) return { kind: 'open', type, value: trimBlank(line.slice(k + 1, j)), valueForm: 'dash' };
  }
  return TEXT;
}
