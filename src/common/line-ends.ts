/**
 * GitHub stores bodies edited on the web with CRLF (and old clients wrote a
 * lone CR): two texts are the same when their lines are, whatever ends them.
 */
export function sameText(a: string, b: string): boolean {
  return a === b || normaliseBreaks(a) === normaliseBreaks(b);
}

function normaliseBreaks(s: string): string {
  return s.indexOf('\r') < 0 ? s : s.replace(/\r\n?/g, '\n');
}
