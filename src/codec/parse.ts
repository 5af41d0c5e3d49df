/**
 * parse(body) — spec §3. One pass over the lines of a comment:
 *
 *   state OUTSIDE  — an opening fence moves to FENCED; an opening tag starts a
 *                    new annotation (ending the current one); a sentinel line
 *                    attaches to the current annotation; anything else is text.
 *   state FENCED   — every line is text until the closing fence (NOTES.md §2).
 *
 * Lines are classified by a character scan (tags.ts), never by a backtracking
 * regular expression, so the time is linear in the body's length.
 */
import { readCard } from './card.js';
import { decode } from './escape.js';
import { closesFence, openingFence, type Fence } from './fences.js';
import { isBlankLine, splitLines, type Line } from './lines.js';
import { classifyLine } from './tags.js';
import {
  completeWhenPresent,
  completionSentinels,
  isControl,
  isReserved,
  partialSentinels,
  typeSpec,
} from './registry.js';
import {
  linesToContent,
  readDesignSpec,
  readFindings,
  readStructure,
  readTrajectory,
} from './structure.js';
import type { Annotation, SentinelState } from './types.js';

interface Block {
  type: string;
  value: string | null;
  startLine: number;
  /** Exclusive: the next tag's line, or the line count. */
  stopLine: number;
  sentinels: { name: string; line: number }[];
}

/** Fence marks per line: 0 outside, 1 inside a fence, 2 an opening delimiter. */
function scan(lines: Line[]): { blocks: Block[]; fenced: Uint8Array } {
  const fenced = new Uint8Array(lines.length);
  const blocks: Block[] = [];
  let fence: Fence | null = null;
  let current: Block | null = null;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].text;
    if (fence) {
      fenced[i] = 1;
      if (closesFence(text, fence)) fence = null;
      continue;
    }
    const opened = openingFence(text);
    if (opened) {
      fence = opened;
      fenced[i] = 2;
      continue;
    }
    // Cheap reject: every tag and sentinel holds `<!--`.
    if (text.indexOf('<!--') < 0) continue;
    const cls = classifyLine(text);
    if (cls.kind === 'open') {
      if (current) current.stopLine = i;
      current = { type: cls.type, value: cls.value, startLine: i, stopLine: lines.length, sentinels: [] };
      blocks.push(current);
    } else if (cls.kind === 'sentinel' && current) {
      // A sentinel before any opening tag belongs to nothing and is ignored.
      current.sentinels.push({ name: cls.name, line: i });
    }
  }
  return { blocks, fenced };
}

/**
 * Inline values and markers are one line and complete by presence. A custom
 * type written in the inline form (`<!-- FORGE:ACME: v -->`) is read the same way.
 */
function isAtomic(block: Block): boolean {
  const spec = typeSpec(block.type);
  return spec ? spec.form !== 'body' : block.value !== null;
}

function sentinelOutcome(block: Block): { state: SentinelState; sentinel: string | null; line: number | null; foreign: string[] } {
  const type = block.type;
  const atomic = isAtomic(block);
  const complete = atomic ? [] : completionSentinels(type);
  const partial = atomic ? [] : partialSentinels(type);
  let state: SentinelState | null = null;
  let sentinel: string | null = null;
  let line: number | null = null;
  const foreign: string[] = [];
  // The last sentinel of its own type decides: a sentinel is the final line (§3.2).
  for (const s of block.sentinels) {
    if (complete.includes(s.name)) {
      state = 'complete';
      sentinel = s.name;
      line = s.line;
    } else if (partial.includes(s.name)) {
      state = 'partial';
      sentinel = s.name;
      line = s.line;
    } else {
      foreign.push(s.name);
    }
  }
  if (state === null) state = atomic || completeWhenPresent(type) ? 'complete' : 'interrupted';
  return { state, sentinel, line, foreign };
}

function build(body: string, lines: Line[], fenced: Uint8Array, block: Block): Annotation {
  const spec = typeSpec(block.type);
  const atomic = isAtomic(block);
  const outcome = sentinelOutcome(block);

  let endLine: number;
  if (atomic) endLine = block.startLine;
  else if (outcome.line !== null) endLine = outcome.line;
  else {
    endLine = block.stopLine - 1;
    while (endLine > block.startLine && isBlankLine(lines[endLine].text)) endLine--;
  }

  const sentinelLines = new Set(block.sentinels.map((s) => s.line));
  const indices: number[] = [];
  if (!atomic) for (let i = block.startLine + 1; i <= endLine; i++) if (!sentinelLines.has(i)) indices.push(i);
  const content = linesToContent(lines, fenced, indices);
  const structure = readStructure(content, spec);

  const inlineValue = block.value === null ? null : decode(block.value);
  const annotation: Annotation = {
    type: block.type,
    category: spec?.category ?? 'custom',
    isReserved: isReserved(block.type),
    isControl: isControl(block.type),
    sentinelState: outcome.state,
    sentinel: outcome.sentinel,
    inlineValue,
    title: structure.title,
    fields: structure.fields,
    fieldList: structure.fieldList,
    sections: structure.sections,
    tables: structure.tables,
    checklist: structure.checklist,
    foreignSentinels: outcome.foreign,
    start: lines[block.startLine].start,
    end: lines[endLine].end,
    startLine: block.startLine,
    endLine,
    raw: body.slice(lines[block.startLine].start, lines[endLine].end),
  };
  switch (spec?.structure) {
    case 'reviewer-findings':
      annotation.findings = readFindings(content);
      break;
    case 'trajectory':
      annotation.trajectory = readTrajectory(structure);
      break;
    case 'design-spec':
      annotation.designSpec = readDesignSpec(content).value;
      break;
    case 'card':
      // The CARD surface is base64url: read the raw value, nothing to decode.
      annotation.card = readCard(block.value);
      break;
    default:
      break;
  }
  return annotation;
}

/** Every annotation in a comment body, in order. Never throws; unknown types are kept (§7.2). */
export function parse(body: string): Annotation[] {
  if (typeof body !== 'string' || body.indexOf('<!--') < 0) return [];
  const lines = splitLines(body);
  const { blocks, fenced } = scan(lines);
  return blocks.map((b) => build(body, lines, fenced, b));
}

/** The annotations of one type in a body. */
export function findAnnotations(body: string, type: string): Annotation[] {
  return parse(body).filter((a) => a.type === type);
}
