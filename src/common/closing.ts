/**
 * The issues a PR body closes: GitHub's closing keywords (close, closes,
 * closed, fix, fixes, fixed, resolve, resolves, resolved; any case) followed
 * by `#N`, `owner/repo#N` for this repository, or an issue URL of this
 * repository — in the text GitHub renders as prose: a keyword inside an HTML
 * comment (a PR template's `<!-- e.g. Fixes #7 -->`), a fenced or indented code
 * block, or a code span links nothing on GitHub, and nothing here.
 */
import { closesFence, openingFence, type Fence } from '../codec/index.js';

const KEYWORDS = new Set(['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved']);

export function closingIssues(body: string, repository: string): number[] {
  const out: number[] = [];
  const repo = repository.toLowerCase();
  // Tokenise on whitespace; a keyword may end with ':' ("Fixes: #12").
  const tokens = proseOf(body).split(/\s+/);
  for (let i = 0; i + 1 < tokens.length; i++) {
    const word = tokens[i].replace(/:$/, '').toLowerCase();
    if (!KEYWORDS.has(word)) continue;
    const n = referencedIssue(tokens[i + 1].replace(/[.,;:)]+$/, ''), repo);
    if (n !== null && !out.includes(n)) out.push(n);
  }
  return out;
}

function referencedIssue(ref: string, repo: string): number | null {
  let m = /^#(\d{1,10})$/.exec(ref);
  if (m) return Number(m[1]);
  m = /^([A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100})#(\d{1,10})$/.exec(ref);
  if (m) return m[1].toLowerCase() === repo ? Number(m[2]) : null;
  m = /^https?:\/\/[^/\s]{1,255}\/([A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100})\/issues\/(\d{1,10})$/.exec(ref);
  if (m) return m[1].toLowerCase() === repo ? Number(m[2]) : null;
  return null;
}

const blank = (s: string) => ' '.repeat(s.length);
const isBlankLine = (line: string) => line.trim() === '';
/** Four columns of indentation (a tab counts as four): an indented code line, after a blank line. */
const indentedCode = (line: string) => /^(?: {4}| {0,3}\t)/.test(line) && !isBlankLine(line);

/**
 * `body` with everything GitHub does not read as prose blanked out (kept the
 * same length, line by line): HTML comments (across lines too), fenced code
 * blocks (CommonMark: an unclosed fence runs to the end), indented code blocks
 * (only after a blank line or the body's start, as CommonMark has them: an
 * indented line inside a paragraph is its continuation), and code spans (a run
 * of backticks to the next run of the same length on the line). One pass.
 */
export function proseOf(body: string): string {
  const lines = body.split(/\r\n|\r|\n/);
  const out: string[] = [];
  let fence: Fence | null = null;
  let inComment = false;
  let inIndented = false;
  let previousBlank = true;
  for (const line of lines) {
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      out.push(blank(line));
      continue;
    }
    if (!inComment) {
      const opened = openingFence(line);
      if (opened) {
        fence = opened;
        out.push(blank(line));
        previousBlank = false;
        continue;
      }
      if ((previousBlank || inIndented) && indentedCode(line)) {
        inIndented = true;
        out.push(blank(line));
        continue;
      }
    }
    inIndented = inIndented && isBlankLine(line);
    const inline = proseOfLine(line, inComment);
    inComment = inline.inComment;
    out.push(inline.text);
    previousBlank = isBlankLine(line);
  }
  return out.join('\n');
}

/** One line with HTML comments and code spans blanked; whether a comment is still open at its end. */
function proseOfLine(line: string, commentOpen: boolean): { text: string; inComment: boolean } {
  let text = '';
  let i = 0;
  let inComment = commentOpen;
  while (i < line.length) {
    if (inComment) {
      const end = line.indexOf('-->', i);
      if (end < 0) return { text: text + blank(line.slice(i)), inComment: true };
      text += blank(line.slice(i, end + 3));
      i = end + 3;
      inComment = false;
      continue;
    }
    if (line.startsWith('<!--', i)) {
      inComment = true;
      continue;
    }
    if (line[i] === '`') {
      let run = 0;
      while (line[i + run] === '`') run++;
      const ticks = '`'.repeat(run);
      // The closing run is exactly as long: no backtick right after it.
      let close = line.indexOf(ticks, i + run);
      while (close >= 0 && line[close + run] === '`') {
        let next = close;
        while (line[next] === '`') next++;
        close = line.indexOf(ticks, next);
      }
      if (close < 0) {
        text += ticks;
        i += run;
        continue;
      }
      text += blank(line.slice(i, close + run));
      i = close + run;
      continue;
    }
    text += line[i];
    i++;
  }
  return { text, inComment };
}
