/**
 * parse(body) — spec §3. One pass over the lines of a comment:
 *
 *   state OUTSIDE  — an opening fence moves to FENCED; an opening tag starts a
 *                    new annotation (ending the current one, §3.1); a sentinel
 *                    line attaches to the current annotation without ending
 *                    it; anything else is text.
 *   state FENCED   — every line is text until the closing fence (implementation-notes.md §2).
 *
 * A tag or sentinel is a whole trimmed line and a fence starts its line, so
 * only lines holding `<!--`, ``` or ~~~ are looked at, by a character scan
 * (tags.ts, fences.ts), never by a backtracking regular expression: time is
 * linear.
 */
import { readCard } from './card.js';
import { decode } from './escape.js';
import { closesFence, openingFence, type Fence } from './fences.js';
import { FENCE_OPENING, IN_FENCE, LineTable } from './lines.js';
import { classifyLine } from './tags.js';
import { completeWhenPresent, isControl, isReserved, sentinelSets, typeSpec, type TypeSpec } from './registry.js';
import { parseFieldLine, readDesignSpec, readFindings, readStructure, readTrajectory } from './structure.js';
import type { Annotation, SentinelState } from './types.js';

interface Block {
  type: string;
  value: string | null;
  startLine: number;
  /** Exclusive: the next tag's line, or the line count. */
  stopLine: number;
  sentinels: { name: string; line: number }[];
}

/** The scanner's two states (see the header). */
type ScanState = 'outside' | 'fenced';

/** What can change the scanner's state, as it first appears on a line: the rest of a comment is never looked at. */
const MARKS = ['<!--', '```', '~~~'] as const;

/**
 * One pass over the lines that can matter — those holding `<!--`, or three
 * backticks or tildes — found by the engine's own string search: a comment is
 * mostly prose, and an action parses each one once, before any loop is warm.
 * Each such line is then classified whole (a tag or a fence must start it).
 */
function scan(t: LineTable): Block[] {
  const body = t.body;
  const blocks: Block[] = [];
  let state: ScanState = 'outside';
  let fence: Fence | null = null;
  let fenceLine = 0;
  let current: Block | null = null;
  const next = MARKS.map((m) => body.indexOf(m));
  let line = 0;
  for (;;) {
    // The earliest mark still ahead.
    let k = -1;
    for (let m = 0; m < MARKS.length; m++) if (next[m] >= 0 && (k < 0 || next[m] < next[k])) k = m;
    if (k < 0) break;
    const pos = next[k];
    // Marks come in order, so the line only moves forward: one pass over the line starts in all.
    while (line + 1 < t.count && t.start[line + 1] <= pos) line++;
    // Whatever the line holds, its other marks are behind us now.
    const after = t.end[line];
    for (let m = 0; m < MARKS.length; m++) if (next[m] >= 0 && next[m] <= after) next[m] = body.indexOf(MARKS[m], after);
    switch (state) {
      case 'fenced':
        if (closesFence(t.text(line), fence as Fence)) {
          t.fenced.fill(IN_FENCE, fenceLine + 1, line + 1);
          state = 'outside';
        }
        break;
      case 'outside': {
        if (k > 0) {
          const opened = openingFence(t.text(line));
          if (opened) {
            fence = opened;
            fenceLine = line;
            state = 'fenced';
            t.fenced[line] = FENCE_OPENING;
          }
          break;
        }
        const cls = classifyLine(t.text(line));
        if (cls.kind === 'open') {
          if (current) current.stopLine = line;
          current = { type: cls.type, value: cls.value, startLine: line, stopLine: t.count, sentinels: [] };
          blocks.push(current);
        } else if (cls.kind === 'sentinel' && current) {
          // A sentinel before any opening tag belongs to nothing and is ignored.
          current.sentinels.push({ name: cls.name, line });
        }
        break;
      }
    }
  }
  // An unclosed fence runs to the end of the comment.
  if (state === 'fenced') t.fenced.fill(IN_FENCE, fenceLine + 1, t.count);
  return blocks;
}

/**
 * Inline values and markers are one line and complete by presence. A custom
 * type written in the inline form (`<!-- FORGE:ACME: v -->`) is read the same way.
 */
function isAtomic(block: Block): boolean {
  const spec = typeSpec(block.type);
  return spec ? spec.form !== 'body' : block.value !== null;
}

function sentinelOutcome(
  block: Block,
  atomic: boolean,
): { state: SentinelState; sentinel: string | null; line: number | null; foreign: string[] } {
  const sets = sentinelSets(block.type);
  let state: SentinelState | null = null;
  let sentinel: string | null = null;
  let line: number | null = null;
  const foreign: string[] = [];
  // The last sentinel of its own type decides, wherever it stands in the extent:
  // producers append sections after it, and one template writes it on line 2.
  for (const s of block.sentinels) {
    if (!atomic && sets.complete.has(s.name)) {
      state = 'complete';
      sentinel = s.name;
      line = s.line;
    } else if (!atomic && sets.partial.has(s.name)) {
      state = 'partial';
      sentinel = s.name;
      line = s.line;
    } else {
      foreign.push(s.name);
    }
  }
  if (state === null) state = atomic || completeWhenPresent(block.type) ? 'complete' : 'interrupted';
  return { state, sentinel, line, foreign };
}

/**
 * The last line of a one-line form's own text: the tag, and the `**Key**:`
 * lines right under it (a marker's deployed fields). What follows is the
 * comment's, not the marker's, even though §3.1's extent runs on.
 */
function atomicCloseLine(t: LineTable, block: Block, endLine: number): number {
  let k = block.startLine;
  // parseFieldLine takes only unindented lines, and a line right under a tag or a field line is never in a fence.
  while (k < endLine && parseFieldLine(t.text(k + 1)) !== null) k++;
  return k;
}

/** The per-type readers, by the registry's `structure` name (the CARD surface is base64url: nothing to decode). */
const TYPE_READERS: Partial<
  Record<NonNullable<TypeSpec['structure']>, (a: Annotation, t: LineTable, content: number[], block: Block) => void>
> = {
  'reviewer-findings': (a, t, content) => {
    a.findings = readFindings(t, content);
  },
  trajectory: (a) => {
    a.trajectory = readTrajectory(a);
  },
  'design-spec': (a, t, content) => {
    a.designSpec = readDesignSpec(t, content);
  },
  card: (a, _t, _content, block) => {
    a.card = readCard(block.value);
  },
};

function build(t: LineTable, block: Block): Annotation {
  const spec = typeSpec(block.type);
  const atomic = isAtomic(block);
  const outcome = sentinelOutcome(block, atomic);

  // §3.1: the extent runs to the next opening tag or the end of the comment;
  // a sentinel does not end it (text appended after the sentinel is the
  // annotation's). Trailing blank lines are left out.
  let endLine = block.stopLine - 1;
  // Stops at the tag line at the latest: it is never blank.
  while (t.isBlank(endLine)) endLine--;
  const closeLine = atomic ? atomicCloseLine(t, block, endLine) : (outcome.line ?? endLine);

  const content: number[] = [];
  let k = 0;
  const sentinels = block.sentinels;
  for (let i = block.startLine + 1; i <= endLine; i++) {
    while (k < sentinels.length && sentinels[k].line < i) k++;
    if (k < sentinels.length && sentinels[k].line === i) continue;
    content.push(i);
  }
  const structure = readStructure(t, content, spec);

  const annotation: Annotation = {
    type: block.type,
    category: spec?.category ?? 'custom',
    isReserved: isReserved(block.type),
    isControl: isControl(block.type),
    sentinelState: outcome.state,
    sentinel: outcome.sentinel,
    inlineValue: block.value === null ? null : decode(block.value),
    title: structure.title,
    fields: structure.fields,
    fieldList: structure.fieldList,
    sections: structure.sections,
    tables: structure.tables,
    checklist: structure.checklist,
    foreignSentinels: outcome.foreign,
    fieldAliases: structure.fieldAliases,
    start: t.start[block.startLine],
    end: t.end[endLine],
    closeEnd: t.end[closeLine],
    startLine: block.startLine,
    endLine,
    raw: t.body.slice(t.start[block.startLine], t.end[endLine]),
  };
  if (spec?.structure) TYPE_READERS[spec.structure]?.(annotation, t, content, block);
  return annotation;
}

/** Every annotation in a comment body, in order. Never throws; unknown types are kept (§7.2). */
export function parse(body: string): Annotation[] {
  // A shortcut for the common comment with no HTML comment at all: the scan would find nothing either.
  if (typeof body !== 'string' || body.indexOf('<!--') < 0) return [];
  const t = new LineTable(body);
  return scan(t).map((b) => build(t, b));
}

/** The annotations of one type in a body. */
export function findAnnotations(body: string, type: string): Annotation[] {
  return parse(body).filter((a) => a.type === type);
}
