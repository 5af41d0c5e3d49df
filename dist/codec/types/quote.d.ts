/**
 * A value quoted for an error message: line breaks shown as ⏎ and long values
 * cut, so the message stays one line and still names what was given.
 */
export declare function quote(value: unknown, max?: number): string;
/**
 * Text on one line, its line breaks shown as ⏎: a message that carries
 * annotation or issue text can never start a line of its own — so never a
 * `::command::` line in a workflow log, whatever the text holds.
 */
export declare function oneLine(text: string): string;
