/**
 * The character codes the codec's scanners compare against, by name (the
 * micromark way: no bare numbers in the state machines), and the few
 * character classes they share.
 */
export declare const TAB = 9;
export declare const LF = 10;
export declare const CR = 13;
export declare const SPACE = 32;
export declare const EXCLAMATION = 33;
export declare const NUMBER_SIGN = 35;
export declare const RIGHT_PAREN = 41;
export declare const ASTERISK = 42;
export declare const PLUS = 43;
export declare const DASH = 45;
export declare const DOT = 46;
export declare const DIGIT_0 = 48;
export declare const DIGIT_9 = 57;
export declare const COLON = 58;
export declare const GREATER_THAN = 62;
export declare const UPPER_A = 65;
export declare const UPPER_Z = 90;
export declare const LEFT_BRACKET = 91;
export declare const BACKSLASH = 92;
export declare const RIGHT_BRACKET = 93;
export declare const UNDERSCORE = 95;
export declare const GRAVE = 96;
export declare const VERTICAL_BAR = 124;
export declare const TILDE = 126;
export declare const EN_DASH = 8211;
export declare const EM_DASH = 8212;
/** Space or tab: the only blank characters. Other whitespace is content (and never a line break). */
export declare function isBlankChar(c: number): boolean;
/**
 * What a regular expression's `\s` matches: tab to carriage return, space, and
 * the Unicode spaces. Only TRAJECTORY's `Branch:` reader uses it, to keep the
 * exact rule the pattern it replaced had; everywhere else blank means space or tab.
 */
export declare function isEcmaSpace(c: number): boolean;
export declare function isUpper(c: number): boolean;
export declare function isDigit(c: number): boolean;
/** `[A-Z0-9_]`: the characters after the first in a type name. */
export declare function isTypeNameChar(c: number): boolean;
/** The first offset in [from, to) that is not a space or tab; `to` when there is none. */
export declare function skipBlank(s: string, from: number, to: number): number;
/** The end of [from, to) once trailing spaces and tabs are dropped; `from` when nothing else is left. */
export declare function trimBlankEnd(s: string, from: number, to: number): number;
/** Trim spaces and tabs only. (One function with its own loops: it runs for nearly every value read.) */
export declare function trimBlank(s: string): string;
