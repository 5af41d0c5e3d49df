/** A line's place relative to fenced code blocks (micromark names its states; so do we). */
export declare const OUTSIDE_FENCE = 0;
/** Inside a fence: its content lines and its closing delimiter. */
export declare const IN_FENCE = 1;
/** The line that opens a fence. */
export declare const FENCE_OPENING = 2;
export declare class LineTable {
    readonly body: string;
    readonly count: number;
    readonly start: Int32Array;
    readonly end: Int32Array;
    /** Per line: OUTSIDE_FENCE, IN_FENCE (content and closing delimiter) or FENCE_OPENING. Set by the scanner. */
    readonly fenced: Uint8Array;
    constructor(body: string);
    text(i: number): string;
    /** Offset of the first character that is not a space or tab (the line's end when there is none). */
    firstNonBlank(i: number): number;
    isBlank(i: number): boolean;
}
/** Line texts, for callers that want strings. */
export declare function splitLines(body: string): string[];
export declare function isBlankLine(text: string): boolean;
