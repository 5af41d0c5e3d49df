/** Splitting list-shaped inputs: comma- or newline-separated, blanks dropped. */
export function splitList(input: string): string[] {
  return input
    .split(/[,\n\r]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
