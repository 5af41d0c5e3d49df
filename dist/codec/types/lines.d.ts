export declare class LineTable {
    readonly body: string;
    readonly count: number;
    readonly start: Int32Array;
    readonly end: Int32Array;
    /** 0 outside a fence, 1 inside one (closing delimiter included), 2 an opening delimiter. Set by the scanner. */
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
