/**
 * A value quoted for an error message: line breaks shown as ⏎ and long values
 * cut, so the message stays one line and still names what was given.
 */
export function quote(value: unknown, max = 80): string {
  const text = oneLine(String(value));
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * Text on one line, its line breaks shown as ⏎: a message that carries
 * annotation or issue text can never start a line of its own — so never a
 * `::command::` line in a workflow log, whatever the text holds.
 */
export function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '⏎');
}
