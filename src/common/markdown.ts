/** Text placed in a Markdown table cell: a `|` would end the cell and a line break the row. */
export function tableCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}
