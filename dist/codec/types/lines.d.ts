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
export declare function splitLines(body: string): Line[];
export declare function isBlankLine(text: string): boolean;
