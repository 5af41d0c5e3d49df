/**
 * A value quoted for an error message: line breaks shown as ⏎ and long values
 * cut, so the message stays one line and still names what was given.
 */
export function quote(value: unknown, max = 80): string {
  const text = String(value).replace(/\r\n|\r|\n/g, '⏎');
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
