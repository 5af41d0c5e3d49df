/**
 * Reads the Markdown structure inside one annotation: fields, sections,
 * tables, checklists, and the per-type shapes (REVIEWER findings, TRAJECTORY,
 * the DESIGN_SPEC jsonc block). Every reader is one pass over the lines.
 */
import {
  ASTERISK,
  BACKSLASH,
  COLON,
  DASH,
  DOT,
  GRAVE,
  isBlankChar,
  isDigit,
  isEcmaSpace,
  LEFT_BRACKET,
  NUMBER_SIGN,
  PLUS,
  RIGHT_BRACKET,
  RIGHT_PAREN,
  SPACE,
  trimBlank,
  VERTICAL_BAR,
} from './chars.js';
import { decode, decodeKey } from './escape.js';
import { closesFence, fenceInfo, openingFence, type Fence } from './fences.js';
import { parseJsonc } from './jsonc.js';
import { FENCE_OPENING, IN_FENCE, OUTSIDE_FENCE, type LineTable } from './lines.js';
import { aliasFor, type TypeSpec } from './registry.js';
import type { Annotation, ChecklistItem, Field, Finding, Table, Trajectory } from './types.js';

/** The part of an annotation the Markdown reader fills. */
export type Structure = Pick<Annotation, 'title' | 'fields' | 'fieldList' | 'sections' | 'tables' | 'checklist' | 'fieldAliases'>;

/**
 * Set an own property even when the key is `__proto__`: keys come from comment
 * text, and a plain assignment would silently drop that one (or, for an
 * object value, change the prototype).
 */
export function setOwn(target: Record<string, string>, key: string, value: string): void {
  // defineProperty only where it is needed: it turns an object slow, and this runs per field.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** `**Key**: value` or `**Key:** value` at column 0; null for any other line. */
export function parseFieldLine(text: string): { key: string; value: string } | null {
  if (text.charCodeAt(0) !== ASTERISK || text.charCodeAt(1) !== ASTERISK) return null;
  const close = text.indexOf('**', 2);
  if (close <= 2) return null;
  const rawKey = text.slice(2, close);
  const rest = close + 2;
  let key: string;
  let value: string;
  if (text.charCodeAt(rest) === COLON) {
    key = rawKey;
    value = text.slice(rest + 1);
  } else if (rawKey.endsWith(':') && (rest === text.length || isBlankChar(text.charCodeAt(rest)))) {
    key = rawKey.slice(0, -1);
    value = text.slice(rest);
  } else {
    return null;
  }
  key = trimBlank(key);
  if (key === '') return null;
  return { key: decodeKey(key), value: decode(trimBlank(value)) };
}

/** `## Title` / `### Heading`: level and text, or null. */
export function parseHeading(text: string): { level: number; text: string } | null {
  let level = 0;
  while (level < text.length && text.charCodeAt(level) === NUMBER_SIGN) level++;
  if (level < 2 || level > 3) return null;
  const c = text.charCodeAt(level);
  if (level !== text.length && !isBlankChar(c)) return null;
  let body = trimBlank(text.slice(level));
  // Optional closing sequence of #s.
  let e = body.length;
  while (e > 0 && body.charCodeAt(e - 1) === NUMBER_SIGN) e--;
  if (e < body.length && (e === 0 || body.charCodeAt(e - 1) === SPACE)) body = trimBlank(body.slice(0, e));
  return { level, text: decode(body) };
}

/** A field, section or cell by key: the exact key first, else any letter case (the spec writes `Task type` and `Task Type`). */
export function getField(record: Record<string, string>, key: string): string | undefined {
  if (Object.hasOwn(record, key)) return record[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(record)) if (k.toLowerCase() === lower) return record[k];
  return undefined;
}

function splitRow(text: string): string[] {
  let s = trimBlank(text);
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let from = 0;
  // The text of a cell read so far when it holds `\|` (a literal bar); usually empty.
  let escaped = '';
  for (let bar = s.indexOf('|'); bar >= 0; bar = s.indexOf('|', bar + 1)) {
    if (bar > 0 && s.charCodeAt(bar - 1) === BACKSLASH) {
      escaped += `${s.slice(from, bar - 1)}|`;
      from = bar + 1;
      continue;
    }
    cells.push(decode(trimBlank(escaped + s.slice(from, bar))));
    escaped = '';
    from = bar + 1;
  }
  cells.push(decode(trimBlank(escaped + s.slice(from))));
  return cells;
}

function isDelimiterRow(text: string): boolean {
  const s = trimBlank(text);
  if (!s.includes('-')) return false;
  let sawDash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === DASH) sawDash = true;
    else if (c !== VERTICAL_BAR && c !== COLON && !isBlankChar(c)) return false;
  }
  return sawDash && s.includes('|');
}

/** `- [ ] text` / `- [x] text` with any list marker and indent. */
function parseChecklist(text: string): { checked: boolean; text: string } | null {
  const s = trimBlank(text);
  const m = s.charCodeAt(0);
  if (
    (m !== DASH && m !== ASTERISK && m !== PLUS) ||
    s.charCodeAt(1) !== SPACE ||
    s.charCodeAt(2) !== LEFT_BRACKET ||
    s.charCodeAt(4) !== RIGHT_BRACKET
  )
    return null;
  const box = s[3];
  if (box !== ' ' && box !== 'x' && box !== 'X') return null;
  if (s.length > 5 && s.charCodeAt(5) !== SPACE) return null;
  return { checked: box !== ' ', text: decode(trimBlank(s.slice(5))) };
}

/**
 * A section's Markdown: the content lines from `from` to `to` (exclusive),
 * blank lines trimmed at both ends. One slice of the body when the lines are
 * contiguous (the common case), else the lines joined.
 */
function sectionText(t: LineTable, lines: number[], from: number, to: number): string {
  let a = from;
  let b = to;
  while (a < b && t.isBlank(lines[a])) a++;
  while (b > a && t.isBlank(lines[b - 1])) b--;
  if (a === b) return '';
  let text: string;
  if (lines[b - 1] - lines[a] === b - 1 - a) {
    text = t.body.slice(t.start[lines[a]], t.end[lines[b - 1]]);
    // Line breaks become LF: CRLF (what GitHub returns), then any lone CR. Native splits, no pattern to compile.
    if (text.indexOf('\r') >= 0) {
      text = text.split('\r\n').join('\n');
      if (text.indexOf('\r') >= 0) text = text.split('\r').join('\n');
    }
  } else {
    const parts: string[] = [];
    for (let k = a; k < b; k++) parts.push(t.text(lines[k]));
    text = parts.join('\n');
  }
  return decode(text);
}

/** CommonMark: an ordered list item's number has at most nine digits (`1234567890.` is a paragraph). */
const LIST_ITEM_DIGITS_MAX = 9;

/** A list item (`- `, `* `, `+ `, `1. `, `1) `) starting at `p`. */
function isListItem(body: string, p: number, e: number): boolean {
  const c = body.charCodeAt(p);
  if (c === DASH || c === ASTERISK || c === PLUS) return p + 1 === e || isBlankChar(body.charCodeAt(p + 1));
  let q = p;
  while (q < e && isDigit(body.charCodeAt(q))) q++;
  if (q === p || q - p > LIST_ITEM_DIGITS_MAX) return false;
  const d = body.charCodeAt(q);
  return (d === DOT || d === RIGHT_PAREN) && (q + 1 === e || body.charCodeAt(q + 1) === SPACE);
}

/**
 * The value a producer writes under a `**Key**:` line left empty: the list
 * items or indented lines that follow (blank lines before the first allowed),
 * joined with LF. Each line is looked at by at most one such key, since a list
 * or indented line is never itself a field line: linear overall.
 */
function valueUnder(t: LineTable, lines: number[], n: number): string {
  const parts: string[] = [];
  for (let m = n + 1; m < lines.length; m++) {
    const i = lines[m];
    if (t.fenced[i] !== OUTSIDE_FENCE) break;
    const p = t.firstNonBlank(i);
    const e = t.end[i];
    if (p === e) {
      if (parts.length === 0) continue;
      break;
    }
    if (p === t.start[i] && !isListItem(t.body, p, e)) break;
    parts.push(trimBlank(t.text(i)));
  }
  return decode(parts.join('\n'));
}

/** A `### Heading` section as a range of content-line indexes: [from, to). */
interface SectionRange {
  heading: string;
  from: number;
  to: number;
}

/**
 * The state one pass over an annotation's content lines carries. Each
 * construct below reads one kind of line and updates it; `readStructure`
 * dispatches by the line's first character, so prose costs one look.
 */
class StructureReader {
  title: string | null = null;
  readonly fields: Record<string, string> = {};
  /** Lower-cased keys already set: the first occurrence of a key wins. */
  readonly seenKeys = new Set<string>();
  readonly fieldList: Field[] = [];
  readonly ranges: SectionRange[] = [];
  readonly seenSections = new Set<string>();
  readonly tables: Table[] = [];
  readonly checklist: ChecklistItem[] = [];
  /** The `### heading` the current line sits under. */
  section: string | null = null;
  /** The section range still growing, if its heading was the first of that name. */
  open: SectionRange | null = null;
  /** Has anything but blank lines been read? (`## Title` only counts before it.) */
  sawContent = false;
  /** The table the previous line belonged to, which a `|` line continues. */
  table: Table | null = null;

  constructor(
    readonly t: LineTable,
    readonly lines: number[],
  ) {}
}

/** A construct reads line `n` (line index `i`, first non-blank at `p`); it returns the last index it consumed, or -1 when the line is not its kind. */
type Construct = (r: StructureReader, n: number, i: number, p: number) => number;

/** `## Title` before anything else, or `### Heading` opening a section. */
const heading: Construct = (r, n, i, p) => {
  if (p !== r.t.start[i]) return -1;
  const h = parseHeading(r.t.text(i));
  if (!h) return -1;
  if (!r.sawContent && h.level === 2 && r.title === null) {
    r.title = h.text;
    return n;
  }
  r.section = h.text;
  if (r.open) r.open.to = n;
  r.open = null;
  // First occurrence wins; a later duplicate heading is not merged into it.
  if (!r.seenSections.has(h.text)) {
    r.seenSections.add(h.text);
    r.open = { heading: h.text, from: n + 1, to: r.lines.length };
    r.ranges.push(r.open);
  }
  return n;
};

/** `**Key**: value` or `**Key:** value` at column 0; an empty value takes the list under it. */
const fieldLine: Construct = (r, n, i, p) => {
  if (p !== r.t.start[i] || r.t.body.charCodeAt(p + 1) !== ASTERISK) return -1;
  const field = parseFieldLine(r.t.text(i));
  if (!field) return -1;
  if (field.value === '') field.value = valueUnder(r.t, r.lines, n);
  r.fieldList.push({ key: field.key, value: field.value, line: i });
  const lower = field.key.toLowerCase();
  if (!r.seenKeys.has(lower)) {
    r.seenKeys.add(lower);
    setOwn(r.fields, field.key, field.value);
  }
  return n;
};

/** `| a | b |`: a row of the open table, or a header row when a delimiter row follows it. */
const tableLine: Construct = (r, n, i) => {
  const { t, lines } = r;
  if (r.table) {
    const cells = splitRow(t.text(i));
    const row: Record<string, string> = {};
    const headers = r.table.headers;
    for (let k = 0; k < headers.length; k++) setOwn(row, headers[k], cells[k] ?? '');
    r.table.rows.push(row);
    return n;
  }
  if (n + 1 < lines.length && t.fenced[lines[n + 1]] === OUTSIDE_FENCE && isDelimiterRow(t.text(lines[n + 1]))) {
    r.table = { section: r.section, headers: splitRow(t.text(i)), rows: [] };
    r.tables.push(r.table);
    return n + 1;
  }
  return -1;
};

/** `- [ ] text` / `- [x] text`, any list marker and indent. */
const checklistItem: Construct = (r, n, i, p) => {
  if (r.t.body.charCodeAt(p + 2) !== LEFT_BRACKET) return -1;
  const item = parseChecklist(r.t.text(i));
  if (!item) return -1;
  r.checklist.push({ section: r.section, ...item });
  return n;
};

/** The constructs a line may be, by its first non-blank character, tried in order. */
const CONSTRUCTS: Readonly<Partial<Record<number, readonly Construct[]>>> = {
  [NUMBER_SIGN]: [heading],
  [ASTERISK]: [fieldLine, checklistItem],
  [VERTICAL_BAR]: [tableLine],
  [DASH]: [checklistItem],
  [PLUS]: [checklistItem],
};

/**
 * Reads fields, sections, tables and checklists from the annotation's content
 * lines (tag and sentinel lines already removed): one pass, then the
 * section texts, the fields templates write as sections, and known aliases.
 */
export function readStructure(t: LineTable, lines: number[], spec: TypeSpec | undefined): Structure {
  const r = new StructureReader(t, lines);
  for (let n = 0; n < lines.length; n++) {
    const i = lines[n];
    const p = t.firstNonBlank(i);
    if (p === t.end[i]) {
      r.table = null;
      continue;
    }
    const c = t.body.charCodeAt(p);
    let last = -1;
    // Most lines are prose with no construct: no list is made for them (cold code pays per allocation).
    const constructs = t.fenced[i] === OUTSIDE_FENCE ? CONSTRUCTS[c] : undefined;
    if (constructs !== undefined) {
      for (let k = 0; k < constructs.length && last < 0; k++) last = constructs[k](r, n, i, p);
    }
    // A table runs over consecutive `|` lines; anything else ends it.
    if (c !== VERTICAL_BAR || t.fenced[i] !== OUTSIDE_FENCE || last < 0) r.table = null;
    r.sawContent = true;
    if (last > n) n = last;
  }
  const sections: Record<string, string> = {};
  for (const range of r.ranges) setOwn(sections, range.heading, sectionText(t, lines, range.from, range.to));
  fieldsFromSections(r, sections, spec);
  return {
    title: r.title,
    fields: r.fields,
    fieldList: r.fieldList,
    sections,
    tables: r.tables,
    checklist: r.checklist,
    fieldAliases: resolveAliases(r, spec),
  };
}

/** Fields the template writes as `### Name` + `**VALUE** — reason` (implementation-notes.md §2). */
function fieldsFromSections(r: StructureReader, sections: Record<string, string>, spec: TypeSpec | undefined): void {
  for (const f of spec?.fields ?? []) {
    if (!f.fromSection || r.seenKeys.has(f.name.toLowerCase())) continue;
    const sectionBody = getField(sections, f.name);
    // A section's text is trimmed of blank lines (sectionText): its first line, when there is one, is the value.
    if (sectionBody === undefined || sectionBody === '') continue;
    const nl = sectionBody.indexOf('\n');
    const value = unwrapBold(trimBlank(nl < 0 ? sectionBody : sectionBody.slice(0, nl)));
    setOwn(r.fields, f.name, value);
    r.fieldList.push({ key: f.name, value, line: -1 });
  }
}

/** Other spellings of template fields (registry `aliases`): read as the field unless the field itself is there. */
function resolveAliases(r: StructureReader, spec: TypeSpec | undefined): Structure['fieldAliases'] {
  const found: Structure['fieldAliases'] = [];
  if (!spec?.aliases) return found;
  for (const f of r.fieldList) {
    const canonical = aliasFor(spec.type, f.key);
    if (canonical === undefined || r.seenKeys.has(canonical.toLowerCase())) continue;
    r.seenKeys.add(canonical.toLowerCase());
    setOwn(r.fields, canonical, f.value);
    found.push({ written: f.key, field: canonical });
  }
  return found;
}

/** `**NO** — reason` → `NO — reason`. */
function unwrapBold(s: string): string {
  if (!s.startsWith('**')) return s;
  const close = s.indexOf('**', 2);
  if (close < 0) return s;
  return s.slice(2, close) + s.slice(close + 2);
}

const FINDING_KEYS: Record<string, keyof Finding> = {
  severity: 'severity',
  location: 'location',
  issue: 'issue',
  'suggested fix': 'suggestedFix',
  prevention: 'prevention',
};

/** REVIEWER findings: `- **Severity**: X` opens one; the indented bold lines after it fill it. */
export function readFindings(t: LineTable, lines: number[]): Finding[] {
  const findings: Finding[] = [];
  let cur: Finding | null = null;
  for (const i of lines) {
    if (t.fenced[i] !== OUTSIDE_FENCE) continue;
    // Only `#`, `-`, `*` and bold lines matter here: look before slicing.
    const c = t.body.charCodeAt(t.firstNonBlank(i));
    if (c !== NUMBER_SIGN && c !== DASH && c !== ASTERISK) continue;
    let s = trimBlank(t.text(i));
    if (s.startsWith('#')) {
      cur = null;
      continue;
    }
    const bullet = (s.startsWith('- ') || s.startsWith('* ')) && s.slice(2).trimStart().startsWith('**');
    if (bullet) s = s.slice(2).trimStart();
    const field = parseFieldLine(s);
    if (!field) continue;
    const key = FINDING_KEYS[field.key.toLowerCase()];
    if (!key) continue;
    if (bullet || cur === null || (key === 'severity' && cur.severity !== null)) {
      // A detail line with no finding opened yet starts one anyway: nothing is dropped.
      cur = { severity: null, location: null, issue: null, suggestedFix: null, prevention: null };
      findings.push(cur);
    }
    cur[key] = field.value;
  }
  return findings;
}

function cell(row: Record<string, string>, name: string): string {
  return getField(row, name) ?? '';
}

/** The table whose headers include `Phase` (any letter case): the trajectory's own. */
function phaseTable(tables: Table[]): Table | null {
  for (const table of tables) for (const h of table.headers) if (h.toLowerCase() === 'phase') return table;
  return null;
}

/** The number after the first `PR #` followed by a digit (up to nine digits), or null. */
export function prNumberIn(text: string): number | null {
  for (let at = text.indexOf('PR #'); at >= 0; at = text.indexOf('PR #', at + 1)) {
    let end = at + 4;
    while (end < at + 13 && isDigit(text.charCodeAt(end))) end++;
    if (end > at + 4) return Number(text.slice(at + 4, end));
  }
  return null;
}

/** The code span after the first `Branch:` that has one (at most four spaces between, 1–255 characters in it), or null. */
export function branchIn(text: string): string | null {
  for (let at = text.indexOf('Branch:'); at >= 0; at = text.indexOf('Branch:', at + 1)) {
    let open = at + 7;
    while (open < at + 11 && isEcmaSpace(text.charCodeAt(open))) open++;
    if (text.charCodeAt(open) !== GRAVE) continue;
    const close = text.indexOf('`', open + 1);
    if (close > open + 1 && close - open - 1 <= 255) return text.slice(open + 1, close);
  }
  return null;
}

export function readTrajectory(structure: Structure): Trajectory {
  const phases: Trajectory['phases'] = [];
  let prNumber: number | null = null;
  let branch: string | null = null;
  for (const row of phaseTable(structure.tables)?.rows ?? []) {
    const phase = { phase: cell(row, 'Phase'), result: cell(row, 'Result'), notes: cell(row, 'Notes') };
    phases.push(phase);
    const text = `${phase.result} ${phase.notes}`;
    prNumber ??= prNumberIn(text);
    branch ??= branchIn(text);
  }
  const fields = structure.fields;
  return {
    phases,
    decisions: getField(fields, 'Decisions') ?? null,
    anomalies: getField(fields, 'Anomalies') ?? null,
    completed: getField(fields, 'Completed') ?? null,
    prNumber,
    branch,
  };
}

/** The first ```jsonc / ```json block, parsed; null when absent or unreadable. */
export function readDesignSpec(t: LineTable, lines: number[]): unknown {
  for (let n = 0; n < lines.length; n++) {
    if (t.fenced[lines[n]] !== FENCE_OPENING) continue;
    const opening = t.text(lines[n]);
    const info = fenceInfo(opening).toLowerCase();
    if (info !== 'jsonc' && info !== 'json' && info !== 'json5') continue;
    const fence = openingFence(opening) as Fence;
    const body: string[] = [];
    for (let m = n + 1; m < lines.length && t.fenced[lines[m]] === IN_FENCE; m++) body.push(t.text(lines[m]));
    // The closing delimiter is fenced too; drop it when present.
    if (body.length > 0 && closesFence(body[body.length - 1], fence)) body.pop();
    return parseJsonc(decode(body.join('\n')));
  }
  return null;
}
