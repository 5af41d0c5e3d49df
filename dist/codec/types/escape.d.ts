export declare function encode(text: string): string;
export declare function decode(text: string): string;
export declare function encodeKey(key: string): string;
export declare function decodeKey(key: string): string;
/**
 * Fold a value for a single-line slot: every line break (CRLF counts as one)
 * becomes one space, then surrounding spaces and tabs are trimmed. U+2028,
 * U+2029 and U+0085 are not line breaks to this codec anywhere, so they stay.
 */
export declare function foldLine(value: string): string;
