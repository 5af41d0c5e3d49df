/** Text placed in a Markdown table cell: a `|` would end the cell and a line break the row. */
export function tableCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

/**
 * Text from issues and annotations made inert for Markdown we publish
 * (release notes, summaries, the status comment): one line, table-safe, no
 * HTML — `<` and `>` are escaped, so no comment, tag or entry marker can be
 * formed — no link or image (`[text](url)`, `![img](url)`: the brackets are
 * written as entities, so a stranger's text cannot point a reader anywhere or
 * load a tracking image), no live `@mention` (a zero-width space after the
 * `@` keeps GitHub from notifying), and no autolink: GitHub links a bare
 * `https://…`, `http://…` and `www.…` (and `mailto:`/`xmpp:` addresses) in
 * text, so a zero-width space goes where the pattern needs its separator.
 */
export function inert(s: string): string {
  return tableCell(s)
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\[/g, '&#91;')
    .replace(/\]/g, '&#93;')
    .replace(/@(?=[A-Za-z0-9_-])/g, '@&#8203;')
    .replace(/\b(https?|mailto|xmpp):/gi, '$1&#8203;:')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}&#8203;.`);
}

/**
 * A URL as a Markdown link target: `(`, `)`, blanks, `<`, `>`, `|` and `\\`
 * percent-encoded, so a target taken from someone's text (a gist URL with `)`)
 * cannot close the link early and open an image or a second link, or break a
 * table row. The one way every summary and report writes a link target.
 */
export function linkTarget(url: string): string {
  // encodeURIComponent leaves ( and ) alone: they are written out here.
  return url.replace(/[()\s<>|\\]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
}
