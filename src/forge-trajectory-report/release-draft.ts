/**
 * The release notes kept in one draft release per milestone: a block of this
 * action's own between two markers that name the milestone, one compact entry
 * per issue closed as completed, grouped by task type. Text outside the block
 * is the maintainer's and is kept byte for byte. Pure: finding the release,
 * reading issues and writing are the logic's.
 */
import { inert, linkTarget } from '../common/markdown.js';
import {
  blockBegin,
  blockEnd,
  ENTRY_BEGIN,
  entryBegin,
  entryEnd,
  groupOf,
  GROUP_ORDER,
  GROUP_TITLES,
  type NoteSubject,
} from './notes-format.js';

/** GitHub refuses a release body over 125,000 characters. */
export const MAX_RELEASE_BODY = 125_000;

/** One issue's entry as the draft holds it: its group (task type) and its text between its markers. */
export interface DraftEntry {
  number: number;
  group: string;
  text: string;
}

/** The lines between a begin and an end marker that are whole lines of `body`: [start of begin, end of end), or null. */
function span(body: string, begin: string, end: string): [number, number] | null {
  const lines = body.split('\n');
  let offset = 0;
  let from = -1;
  for (const line of lines) {
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (from < 0 && bare === begin) from = offset;
    else if (from >= 0 && bare === end) return [from, offset + bare.length];
    offset += line.length + 1;
  }
  return null;
}

/** Does this release body hold the block of `milestone`? (How the draft is found: by its marker, never by its name.) */
export function holdsBlock(body: string | null, milestone: number): boolean {
  return body !== null && span(body, blockBegin(milestone), blockEnd(milestone)) !== null;
}

const HEADING = '### ';

/** The entries of the block in `body`, each with the group heading it stands under. */
export function readEntries(body: string, milestone: number): DraftEntry[] {
  const at = span(body, blockBegin(milestone), blockEnd(milestone));
  if (at === null) return [];
  const lines = body
    .slice(at[0], at[1])
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const titles = new Map(Object.entries(GROUP_TITLES).map(([g, t]) => [t, g]));
  const out: DraftEntry[] = [];
  let group = 'Other';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith(HEADING)) group = titles.get(lines[i].slice(HEADING.length)) ?? group;
    const m = ENTRY_BEGIN.exec(lines[i]);
    if (!m) continue;
    const number = Number(m[1]);
    const close = lines.indexOf(entryEnd(number), i);
    if (close < 0) continue;
    out.push({ number, group, text: lines.slice(i, close + 1).join('\n') });
    i = close;
  }
  return out;
}

/** One issue's compact entry: about 350 characters at most, so a milestone of 250 issues fits GitHub's limit. */
export function releaseEntry(r: NoteSubject): DraftEntry {
  const title = r.issue.title.length > 120 ? `${r.issue.title.slice(0, 119)}…` : r.issue.title;
  const pr = r.prNumber !== null ? ` — [PR #${r.prNumber}](${linkTarget(r.prUrl ?? '')})` : '';
  const note = r.found ? '' : ' (no trajectory)';
  // What the trajectory says, on the entry's one line: the investigation's verdict and the decisions, cut short.
  const oneLine = (t: string, max: number) => {
    const flat = t.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  };
  const verdict = r.investigator?.verdict ? ` · ${inert(oneLine(r.investigator.verdict, 40))}` : '';
  const decided = r.found && r.decisions && r.decisions.trim() !== '' ? ` — ${inert(oneLine(r.decisions, 100))}` : '';
  const line = `- [#${r.issue.number}](${linkTarget(r.issue.url)}) ${inert(title)}${pr}${note}${verdict}${decided}`;
  return { number: r.issue.number, group: groupOf(r), text: [entryBegin(r.issue.number), line, entryEnd(r.issue.number)].join('\n') };
}

/**
 * The block for these entries, grouped and ordered by issue number. Entries
 * that would take the body past GitHub's limit are left out and named in a
 * line of the block itself — never cut silently.
 */
export function composeBlock(
  milestone: number,
  title: string,
  entries: readonly DraftEntry[],
  room: number,
): { block: string; left: number[] } {
  const sorted = [...entries].sort((a, b) => a.number - b.number);
  const build = (kept: readonly DraftEntry[], left: number[]) => {
    const out = [blockBegin(milestone), `## ${inert(title)}`, '', `${kept.length} issue(s) closed as completed.`, ''];
    for (const g of GROUP_ORDER) {
      const list = kept.filter((e) => e.group === g);
      if (list.length === 0) continue;
      out.push(`${HEADING}${GROUP_TITLES[g]}`, '', ...list.map((e) => e.text), '');
    }
    if (left.length > 0)
      out.push(
        `${left.length} more issue(s) do not fit GitHub's ${MAX_RELEASE_BODY.toLocaleString('en')}-character release body: ${left
          .slice(0, 200)
          .map((n) => `#${n}`)
          .join(', ')}${left.length > 200 ? ', …' : ''}`,
        '',
      );
    out.push(blockEnd(milestone));
    return out.join('\n');
  };
  let kept = sorted;
  let block = build(kept, []);
  while (block.length > room && kept.length > 0) {
    // Drop the newest issues first: the notes keep the milestone's earlier work whole.
    const cut = Math.max(1, Math.ceil((block.length - room) / 180));
    kept = kept.slice(0, Math.max(0, kept.length - cut));
    block = build(
      kept,
      sorted.slice(kept.length).map((e) => e.number),
    );
  }
  return { block, left: sorted.slice(kept.length).map((e) => e.number) };
}

/** The milestones whose blocks a release body holds, by their begin markers. */
export function blockMilestones(body: string | null): number[] {
  return [...(body ?? '').matchAll(/^<!-- forge-release-notes:begin milestone=(\d{1,10}) -->\r?$/gm)].map((m) => Number(m[1]));
}

/**
 * The body with these issues' entries gone from `milestone`'s block (its
 * title line kept as written), or null when the block holds none of them: an
 * issue moved to another milestone leaves the draft it was in.
 */
export function withoutEntries(body: string, milestone: number, numbers: ReadonlySet<number>): string | null {
  const entries = readEntries(body, milestone);
  const rest = entries.filter((e) => !numbers.has(e.number));
  if (rest.length === entries.length) return null;
  const at = span(body, blockBegin(milestone), blockEnd(milestone));
  if (at === null) return null;
  const titleLine = body.slice(at[0], at[1]).split('\n')[1] ?? '## ';
  const lines = composeBlock(milestone, '', rest, Number.POSITIVE_INFINITY).block.split('\n');
  lines[1] = titleLine.endsWith('\r') ? titleLine.slice(0, -1) : titleLine;
  return withBlock(body, milestone, lines.join('\n'));
}

/** The release body with the block put in place of the old one (or appended): the maintainer's text is untouched. */
export function withBlock(body: string | null, milestone: number, block: string): string {
  const current = body ?? '';
  const at = span(current, blockBegin(milestone), blockEnd(milestone));
  if (at === null) return current === '' ? block : `${current}${current.endsWith('\n') ? '\n' : '\n\n'}${block}`;
  return current.slice(0, at[0]) + block + current.slice(at[1]);
}
