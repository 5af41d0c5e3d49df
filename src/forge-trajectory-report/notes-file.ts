/**
 * The release-notes file in the workspace: one issue's entry appended or
 * replaced in place between its markers, or a milestone's notes written whole.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeWorkspaceFile } from '../common/paths.js';
import { entryBegin, entryEnd } from './notes-format.js';

/** Where `line` stands as a whole line of `text`, from `from` on; -1 when it does not. */
function lineIndexOf(text: string, line: string, from: number): number {
  for (let at = text.indexOf(line, from); at >= 0; at = text.indexOf(line, at + 1)) {
    const startsLine = at === 0 || text[at - 1] === '\n';
    const after = text[at + line.length];
    if (startsLine && (after === undefined || after === '\n' || after === '\r')) return at;
  }
  return -1;
}

/** Append (or replace in place) the entry for one issue: running twice never duplicates it. */
export function writeEntry(path: string, number: number, entry: string): 'appended' | 'replaced' {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  // Markers count only as whole lines: entry text is inert (no `<` survives), so
  // only this action writes them, and a marker quoted mid-line is never one.
  const begin = lineIndexOf(current, entryBegin(number), 0);
  const end = begin >= 0 ? lineIndexOf(current, entryEnd(number), begin) : -1;
  if (begin >= 0 && end >= 0) {
    writeWorkspaceFile(path, current.slice(0, begin) + entry + current.slice(end + entryEnd(number).length));
    return 'replaced';
  }
  const sep = current === '' || current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  writeWorkspaceFile(path, `${current + sep + entry}\n`);
  return 'appended';
}

/** A milestone's notes replace the file. */
export function writeWhole(path: string, markdown: string): 'replaced' {
  writeWorkspaceFile(path, `${markdown}\n`);
  return 'replaced';
}
