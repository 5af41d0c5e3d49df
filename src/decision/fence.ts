/**
 * Text quoted from GitHub, made into data: a CommonMark fenced code block
 * whose fence is longer than any run of backticks the text holds, so no line
 * of it can close the fence (a closing fence must be at least as long as the
 * opening one, CommonMark 4.5) and nothing inside can pose as the pack's own
 * heading, instruction or link. Tildes cannot close a backtick fence at all.
 */

const GRAVE = 0x60;

/** The longest run of backticks in `text`. One pass. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === GRAVE ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** `text` inside a fence no line of it can close, on lines of its own. The info string says it is data. */
export function fenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  const body = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  return `${fence}text\n${body}\n${fence}`;
}

/**
 * The first `keep` characters of `text`, cut at the last line end within
 * them when one is in their second half (a whole line reads better than half
 * of one), and never between the two halves of a surrogate pair.
 */
export function cutText(text: string, keep: number): string {
  if (keep >= text.length) return text;
  if (keep <= 0) return '';
  let end = keep;
  const nl = text.lastIndexOf('\n', end - 1);
  if (nl >= end / 2) end = nl;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return text.slice(0, end);
}
