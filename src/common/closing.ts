/**
 * The issues a PR body closes: GitHub's closing keywords (close, closes,
 * closed, fix, fixes, fixed, resolve, resolves, resolved; any case) followed
 * by `#N`, `owner/repo#N` for this repository, or an issue URL of this repository.
 */
const KEYWORDS = new Set(['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved']);

export function closingIssues(body: string, repository: string): number[] {
  const out: number[] = [];
  const repo = repository.toLowerCase();
  // Tokenise on whitespace; a keyword may end with ':' ("Fixes: #12").
  const tokens = body.split(/\s+/);
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
