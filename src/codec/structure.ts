/**
 * Reads the Markdown structure inside one annotation: fields, sections,
 * tables, checklists, and the per-type shapes (REVIEWER findings, TRAJECTORY,
 * the DESIGN_SPEC jsonc block). Every reader is one pass over the lines.
 */
import { decode, decodeKey, trimBlank } from './escape.js';
import { fenceInfo } from './fences.js';
import { isBlankLine, type LineTable } from './lines.js';
import type { TypeSpec } from './registry.js';
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
  if (text.charCodeAt(0) !== 42 || text.charCodeAt(1) !== 42) return null;
  const close = text.indexOf('**', 2);
  if (close <= 2) return null;
  const rawKey = text.slice(2, close);
  const rest = close + 2;
  let key: string;
  let value: string;
  if (text.charCodeAt(rest) === 58 /* : */) {
    key = rawKey;
    value = text.slice(rest + 1);
  } else if (rawKey.endsWith(':') && (rest === text.length || text.charCodeAt(rest) === 32 || text.charCodeAt(rest) === 9)) {
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
  while (level < text.length && text.charCodeAt(level) === 35) level++;
  if (level < 2 || level > 3) return null;
  const c = text.charCodeAt(level);
  if (level !== text.length && c !== 32 && c !== 9) return null;
  let body = trimBlank(text.slice(level));
  // Optional closing sequence of #s.
  let e = body.length;
  while (e > 0 && body.charCodeAt(e - 1) === 35) e--;
  if (e < body.length && (e === 0 || body.charCodeAt(e - 1) === 32)) body = trimBlank(body.slice(0, e));
  return { level, text: decode(body) };
}

function lookupKey(record: Record<string, string>, key: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(record, key)) return record[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(record)) if (k.toLowerCase() === lower) return record[k];
  return undefined;
}

export { lookupKey as getCaseInsensitive };

function splitRow(text: string): string[] {
  let s = trimBlank(text);
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let from = 0;
  let cur = '';
  for (let bar = s.indexOf('|'); bar >= 0; bar = s.indexOf('|', bar + 1)) {
    if (bar > 0 && s.charCodeAt(bar - 1) === 92 /* \\ */) {
      // `\|` is a literal bar inside the cell.
      cur += s.slice(from, bar - 1) + '|';
      from = bar + 1;
      continue;
    }
    cells.push(cur + s.slice(from, bar));
    cur = '';
    from = bar + 1;
  }
  cells.push(cur + s.slice(from));
  return cells.map((cell) => decode(trimBlank(cell)));
}

function isDelimiterRow(text: string): boolean {
  const s = trimBlank(text);
  if (!s.includes('-')) return false;
  let sawDash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 45) sawDash = true;
    else if (c !== 124 && c !== 58 && c !== 32 && c !== 9) return false;
  }
  return sawDash && s.includes('|');
}

/** `- [ ] text` / `- [x] text` with any list marker and indent. */
function parseChecklist(text: string): { checked: boolean; text: string } | null {
  const s = trimBlank(text);
  const m = s.charCodeAt(0);
  if ((m !== 45 && m !== 42 && m !== 43) || s.charCodeAt(1) !== 32 || s.charCodeAt(2) !== 91 || s.charCodeAt(4) !== 93) return null;
  const box = s[3];
  if (box !== ' ' && box !== 'x' && box !== 'X') return null;
  if (s.length > 5 && s.charCodeAt(5) !== 32) return null;
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
    if (text.indexOf('\r') >= 0) text = text.replace(/\r\n?/g, '\n');
  } else {
    const parts: string[] = [];
    for (let k = a; k < b; k++) parts.push(t.text(lines[k]));
    text = parts.join('\n');
  }
  return decode(text);
}

/** A list item (`- `, `* `, `+ `, `1. `, `1) `) starting at `p`. */
function isListItem(body: string, p: number, e: number): boolean {
  const c = body.charCodeAt(p);
  if (c === 45 || c === 42 || c === 43) return p + 1 === e || body.charCodeAt(p + 1) === 32 || body.charCodeAt(p + 1) === 9;
  let q = p;
  while (q < e && body.charCodeAt(q) >= 48 && body.charCodeAt(q) <= 57) q++;
  if (q === p || q - p > 9) return false;
  const d = body.charCodeAt(q);
  return (d === 46 || d === 41) && (q + 1 === e || body.charCodeAt(q + 1) === 32);
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
    if (t.fenced[i] !== 0) break;
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

/**
 * Reads fields, sections, tables and checklists from the annotation's content
 * lines (tag and sentinel lines already removed). Each line is classified by
 * its first character, so prose lines cost one look.
 */
export function readStructure(t: LineTable, lines: number[], spec: TypeSpec | undefined): Structure {
  const body = t.body;
  let title: string | null = null;
  const fields: Record<string, string> = {};
  const seenKeys = new Set<string>();
  const fieldList: Field[] = [];
  // Sections are ranges of `lines`: [heading, first content index, end index].
  const ranges: Array<[string, number, number]> = [];
  const seenSections = new Set<string>();
  const tables: Table[] = [];
  const checklist: ChecklistItem[] = [];
  let section: string | null = null;
  let open: [string, number, number] | null = null;
  let sawContent = false;
  let table: Table | null = null;

  for (let n = 0; n < lines.length; n++) {
    const i = lines[n];
    const s = t.start[i];
    const e = t.end[i];
    const p = t.firstNonBlank(i);
    if (p === e) {
      table = null;
      continue;
    }
    if (t.fenced[i] !== 0) {
      table = null;
      sawContent = true;
      continue;
    }
    const c = body.charCodeAt(p);
    if (c === 35 /* # */ && p === s) {
      const heading = parseHeading(t.text(i));
      if (heading) {
        table = null;
        if (!sawContent && heading.level === 2 && title === null) {
          title = heading.text;
          sawContent = true;
          continue;
        }
        section = heading.text;
        if (open) open[2] = n;
        open = null;
        // First occurrence wins; a later duplicate heading is not merged into it.
        if (!seenSections.has(section)) {
          seenSections.add(section);
          open = [section, n + 1, lines.length];
          ranges.push(open);
        }
        sawContent = true;
        continue;
      }
    }
    if (c === 42 /* * */ && p === s && body.charCodeAt(p + 1) === 42) {
      const field = parseFieldLine(t.text(i));
      if (field) {
        if (field.value === '') field.value = valueUnder(t, lines, n);
        fieldList.push({ key: field.key, value: field.value, line: i });
        const lower = field.key.toLowerCase();
        if (!seenKeys.has(lower)) {
          seenKeys.add(lower);
          setOwn(fields, field.key, field.value);
        }
      }
    }
    if (c === 124 /* | */) {
      if (table) {
        const cells = splitRow(t.text(i));
        const row: Record<string, string> = {};
        const headers = table.headers;
        for (let k = 0; k < headers.length; k++) setOwn(row, headers[k], cells[k] ?? '');
        table.rows.push(row);
      } else if (n + 1 < lines.length && t.fenced[lines[n + 1]] === 0 && isDelimiterRow(t.text(lines[n + 1]))) {
        table = { section, headers: splitRow(t.text(i)), rows: [] };
        tables.push(table);
        n++;
        sawContent = true;
        continue;
      }
    } else {
      table = null;
    }
    if ((c === 45 || c === 42 || c === 43) && body.charCodeAt(p + 2) === 91 /* [ */) {
      const item = parseChecklist(t.text(i));
      if (item) checklist.push({ section, ...item });
    }
    sawContent = true;
  }

  const sections: Record<string, string> = {};
  for (const [heading, from, to] of ranges) setOwn(sections, heading, sectionText(t, lines, from, to));

  // Fields the template writes as `### Name` + `**VALUE** — reason` (implementation-notes.md §2).
  for (const f of spec?.fields ?? []) {
    if (!f.fromSection || seenKeys.has(f.name.toLowerCase())) continue;
    const sectionBody = lookupKey(sections, f.name);
    if (sectionBody === undefined) continue;
    const first = sectionBody.split('\n').find((l) => !isBlankLine(l));
    if (first === undefined) continue;
    const value = unwrapBold(trimBlank(first));
    setOwn(fields, f.name, value);
    fieldList.push({ key: f.name, value, line: -1 });
  }

  // Other spellings of template fields (registry `aliases`): read as the field
  // unless the field itself is there, which always wins.
  const fieldAliases: Structure['fieldAliases'] = [];
  const aliases = spec?.aliases;
  if (aliases) {
    for (const f of fieldList) {
      const canonical = aliasOf(aliases, f.key);
      if (canonical === undefined || seenKeys.has(canonical.toLowerCase())) continue;
      seenKeys.add(canonical.toLowerCase());
      setOwn(fields, canonical, f.value);
      fieldAliases.push({ written: f.key, field: canonical });
    }
  }

  return { title, fields, fieldList, sections, tables, checklist, fieldAliases };
}

function aliasOf(aliases: Record<string, string>, key: string): string | undefined {
  const lower = key.toLowerCase();
  for (const [written, canonical] of Object.entries(aliases)) if (written.toLowerCase() === lower) return canonical;
  return undefined;
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
    if (t.fenced[i] !== 0) continue;
    // Only `#`, `-`, `*` and bold lines matter here: look before slicing.
    const c = t.body.charCodeAt(t.firstNonBlank(i));
    if (c !== 35 && c !== 45 && c !== 42) continue;
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
  return getCell(row, name) ?? '';
}

function getCell(row: Record<string, string>, name: string): string | undefined {
  return lookupKey(row, name);
}

export function readTrajectory(structure: Structure): Trajectory {
  const table = structure.tables.find((t) => t.headers.some((h) => h.toLowerCase() === 'phase'));
  const phases = (table?.rows ?? []).map((row) => ({
    phase: cell(row, 'Phase'),
    result: cell(row, 'Result'),
    notes: cell(row, 'Notes'),
  }));
  let prNumber: number | null = null;
  let branch: string | null = null;
  for (const p of phases) {
    const text = `${p.result} ${p.notes}`;
    if (prNumber === null) {
      const m = /PR #(\d{1,9})/.exec(text);
      if (m) prNumber = Number(m[1]);
    }
    if (branch === null) {
      const m = /Branch:\s{0,4}`([^`]{1,255})`/.exec(text);
      if (m) branch = m[1];
    }
  }
  const f = (k: string) => lookupKey(structure.fields, k) ?? null;
  return { phases, decisions: f('Decisions'), anomalies: f('Anomalies'), completed: f('Completed'), prNumber, branch };
}

/** The first ```jsonc / ```json block, parsed; null when absent or unreadable. */
export function readDesignSpec(t: LineTable, lines: number[]): { found: boolean; value: unknown } {
  for (let n = 0; n < lines.length; n++) {
    if (t.fenced[lines[n]] !== 2) continue;
    const info = fenceInfo(t.text(lines[n])).toLowerCase();
    if (info !== 'jsonc' && info !== 'json' && info !== 'json5') continue;
    const body: string[] = [];
    for (let m = n + 1; m < lines.length && t.fenced[lines[m]] === 1; m++) body.push(t.text(lines[m]));
    // The closing delimiter is fenced too; drop it when present.
    if (body.length > 0 && /^\s{0,3}(`{3,}|~{3,})\s*$/.test(body[body.length - 1])) body.pop();
    return { found: true, value: parseJsonc(decode(body.join('\n'))) };
  }
  return { found: false, value: null };
}

/** JSON with `//` and `/* *\/` comments and trailing commas; null when it does not parse. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  // Trailing commas: a comma followed only by whitespace before } or ].
  let cleaned = '';
  for (let k = 0; k < out.length; k++) {
    const c = out[k];
    if (c === '"') {
      let j = k + 1;
      while (j < out.length && out[j] !== '"') j += out[j] === '\\' ? 2 : 1;
      cleaned += out.slice(k, j + 1);
      k = j;
      continue;
    }
    if (c === ',') {
      let j = k + 1;
      while (j < out.length && /\s/.test(out[j])) j++;
      if (out[j] === '}' || out[j] === ']') continue;
    }
    cleaned += c;
  }
  try {
    return JSON.parse(cleaned);
  } catch {
    return null;
  }
}
