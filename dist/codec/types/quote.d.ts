/**
 * A value quoted for an error message: line breaks shown as ⏎ and long values
 * cut, so the message stays one line and still names what was given.
 */
export declare function quote(value: unknown, max?: number): string;
