/**
 * The character codes the codec's scanners compare against, by name (the
 * micromark way: no bare numbers in the state machines), and the few
 * character classes they share.
 */
export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const EXCLAMATION = 33;
export const NUMBER_SIGN = 35;
export const RIGHT_PAREN = 41;
export const ASTERISK = 42;
export const PLUS = 43;
export const DASH = 45;
export const DOT = 46;
export const DIGIT_0 = 48;
export const DIGIT_9 = 57;
export const COLON = 58;
export const GREATER_THAN = 62;
export const UPPER_A = 65;
export const UPPER_Z = 90;
export const LEFT_BRACKET = 91;
export const BACKSLASH = 92;
export const RIGHT_BRACKET = 93;
export const UNDERSCORE = 95;
export const GRAVE = 96;
export const VERTICAL_BAR = 124;
export const TILDE = 126;
export const EN_DASH = 0x2013;
export const EM_DASH = 0x2014;

/** Space or tab: the only blank characters. Other whitespace is content (and never a line break). */
export function isBlankChar(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * What a regular expression's `\s` matches: tab to carriage return, space, and
 * the Unicode spaces. Only TRAJECTORY's `Branch:` reader uses it, to keep the
 * exact rule the pattern it replaced had; everywhere else blank means space or tab.
 */
export function isEcmaSpace(c: number): boolean {
  return (
    (c >= TAB && c <= CR) ||
    c === SPACE ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

export function isUpper(c: number): boolean {
  return c >= UPPER_A && c <= UPPER_Z;
}

export function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}

/** `[A-Z0-9_]`: the characters after the first in a type name. */
export function isTypeNameChar(c: number): boolean {
  return isUpper(c) || isDigit(c) || c === UNDERSCORE;
}

/** The first offset in [from, to) that is not a space or tab; `to` when there is none. */
export function skipBlank(s: string, from: number, to: number): number {
  let i = from;
  while (i < to && isBlankChar(s.charCodeAt(i))) i++;
  return i;
}

/** The end of [from, to) once trailing spaces and tabs are dropped; `from` when nothing else is left. */
export function trimBlankEnd(s: string, from: number, to: number): number {
  let j = to;
  while (j > from && isBlankChar(s.charCodeAt(j - 1))) j--;
  return j;
}

/** Trim spaces and tabs only. (One function with its own loops: it runs for nearly every value read.) */
export function trimBlank(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s.charCodeAt(a) === SPACE || s.charCodeAt(a) === TAB)) a++;
  while (b > a && (s.charCodeAt(b - 1) === SPACE || s.charCodeAt(b - 1) === TAB)) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}
