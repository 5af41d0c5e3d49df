/** Splitting list-shaped inputs: comma- or newline-separated, blanks dropped. */
export function splitList(input: string): string[] {
  return input
    .split(/[,\n\r]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A user mistake: reported as one line, never with a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
