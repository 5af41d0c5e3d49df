/**
 * The release-notes format, in one place: the markers an issue's entry sits
 * between (so a notes file or a draft is updated in place), the markers of a
 * milestone's block in a draft release (how the draft is found: by its
 * marker, never by its name), and the groups entries stand under (features
 * first, then the spec's §4.1 task types) with their headings. The Markdown
 * (render.ts), the draft (release-draft.ts) and the notes file (notes-file.ts)
 * all write and read with these, so they can never disagree.
 */
import { matchEnum, TASK_TYPES } from '../codec/index.js';

export const entryBegin = (n: number) => `<!-- forge-release-note:begin #${n} -->`;
export const entryEnd = (n: number) => `<!-- forge-release-note:end #${n} -->`;
/** An entry's begin marker as a whole line: the issue's number. */
export const ENTRY_BEGIN = /^<!-- forge-release-note:begin #(\d{1,10}) -->$/;

export const blockBegin = (milestone: number) => `<!-- forge-release-notes:begin milestone=${milestone} -->`;
export const blockEnd = (milestone: number) => `<!-- forge-release-notes:end milestone=${milestone} -->`;

/** Features first, then the spec's §4.1 order. */
const GROUPS = ['Feature', ...TASK_TYPES.filter((t) => t !== 'Feature')];

export const GROUP_TITLES: Record<string, string> = {
  Feature: 'Features',
  'Bug Fix': 'Bug fixes',
  Refactor: 'Refactors',
  Maintenance: 'Maintenance',
  Investigation: 'Investigations',
  Other: 'Other',
};

/** Every group in the order the notes show them. */
export const GROUP_ORDER: readonly string[] = [...GROUPS, 'Other'];

/** What an entry is made from: the issue, its PR, and the task type the INVESTIGATOR (or the trajectory) gives. */
export interface NoteSubject {
  issue: { number: number; title: string; url: string };
  found: boolean;
  prNumber: number | null;
  prUrl: string | null;
  investigator: { taskType: string | null; verdict?: string | null } | null;
  /** The trajectory's Decisions (trusted text: only a trusted trajectory is read). */
  decisions?: string | null;
}

/** The group of an issue's entry: its task type, matched as the spec spells it; Other when it has none. */
export function groupOf(r: NoteSubject): string {
  return r.investigator?.taskType ? (matchEnum(r.investigator.taskType, GROUPS) ?? 'Other') : 'Other';
}
