/**
 * emit(type, input) — the canonical text of each spec template: tag, title,
 * lead table, fields, sections (tables, checklists, lists), free body, and the
 * completion (or partial) sentinel as the last line.
 *
 * Every key, value, heading and Markdown body passes through encode() (implementation-notes.md
 * §1), single-line slots are folded, and open fences are closed, so nothing a
 * caller passes can add an annotation or change a sentinel state. The type
 * name is validated, never escaped.
 */
import { GRAVE } from './chars.js';
import { quote } from './quote.js';
import { cardValue } from './card.js';
import { encode, encodeKey, foldLine } from './escape.js';
import { closeOpenFences } from './fences.js';
import { parse } from './parse.js';
import { isBlankLine, splitLines } from './lines.js';
import {
  emittedCompleteSentinel,
  emittedPartialSentinel,
  isReferenceTypeName,
  isTypeName,
  typeSpec,
  type SectionSpec,
  type TypeSpec,
} from './registry.js';
import type { Finding } from './types.js';

export type Scalar = string | number | boolean | null;
export type SectionValue = string | Array<string | { checked?: boolean; text: string } | Record<string, Scalar>>;

export interface EmitInput {
  /** `**Key**: value` lines; a mapping or ordered pairs. Arrays are joined with ", ". */
  fields?: Record<string, unknown> | Array<[string, unknown]>;
  /** `### Heading` → Markdown, or a list of items / table rows rendered by the section's kind. */
  sections?: Record<string, SectionValue>;
  /** Rows of the table written after the title (TRAJECTORY's phase table). */
  table?: Array<Record<string, Scalar>>;
  /** REVIEWER findings, written under `### Findings`. */
  findings?: Array<Partial<Finding>>;
  /** Free Markdown placed before the sentinel. */
  body?: string;
  /** Inline value (§3.4), or a marker's description. */
  value?: string;
  /** CARD payload; encoded as `v1 sha:… b64:…`. */
  card?: unknown;
  status?: 'complete' | 'partial';
  /** The `## ` title; defaults to the type's template title. */
  title?: string;
}

export class EmitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmitError';
  }
}

export interface Emitted {
  text: string;
  warnings: string[];
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(scalarText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** One-line slot: fold line breaks, then escape. */
function line(v: unknown): string {
  return encode(foldLine(scalarText(v)));
}

function cellText(v: unknown): string {
  return line(v).split('|').join('\\|');
}

/**
 * Multi-line Markdown: split with the codec's one line model (CR, LF, CRLF —
 * never U+2028/U+2029), drop blank (space/tab) lines at both ends, escape,
 * and close any fence left open. A line of only U+2028 or a no-break space is
 * content and is written as it was.
 */
function markdown(text: string): string {
  const lines = splitLines(text);
  let a = 0;
  let b = lines.length;
  while (a < b && isBlankLine(lines[a])) a++;
  while (b > a && isBlankLine(lines[b - 1])) b--;
  const kept = lines.slice(a, b);
  return closeOpenFences(encode(kept.join('\n')), kept);
}

function renderTable(rows: Array<Record<string, Scalar>>, columns: string[] | undefined): string {
  const cols = [...(columns ?? [])];
  for (const row of rows) for (const k of Object.keys(row)) if (!cols.includes(k)) cols.push(k);
  const out = [`| ${cols.map(cellText).join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`];
  for (const row of rows) out.push(`| ${cols.map((c) => cellText(row[c] ?? '')).join(' | ')} |`);
  return out.join('\n');
}

function renderSection(spec: SectionSpec | undefined, value: SectionValue): string {
  if (typeof value === 'string') return markdown(value);
  if (!Array.isArray(value)) throw new EmitError('a section value must be Markdown text or a list');
  if (value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && !('text' in v)))
    return renderTable(value as Array<Record<string, Scalar>>, spec?.columns);
  const kind = spec?.kind ?? 'list';
  return value
    .map((item, i) => {
      if (typeof item === 'object' && item !== null && 'text' in item) {
        // `checked` may arrive as the string "true" from YAML read as strings.
        const it = item as { checked?: boolean | string; text: string };
        return `- [${it.checked === true || it.checked === 'true' ? 'x' : ' '}] ${line(it.text)}`;
      }
      const text = line(item);
      if (kind === 'checklist') return `- [ ] ${text}`;
      if (kind === 'numbered') return `${i + 1}. ${text}`;
      return `- ${text}`;
    })
    .join('\n');
}

/**
 * A value as a CommonMark code span: a backtick run longer than any inside it,
 * padded with a space where the value starts or ends with a backtick.
 */
export function codeSpan(value: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    run = value.charCodeAt(i) === GRAVE ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const ticks = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${value}${pad}${ticks}`;
}

/** Does `value` already stand as one code span (`` `x` ``)? */
function isCodeSpan(value: string): boolean {
  return stripCodeSpan(value) !== value;
}

/**
 * The text inside one enclosing code span (`` `fix/x` `` → `fix/x`, CommonMark's
 * one-space padding removed), or the value unchanged when it is not one. The
 * one helper every reader of a code-span field (BUILDER's Branch) uses.
 */
export function stripCodeSpan(value: string): string {
  const v = value.trim();
  let n = 0;
  while (n < v.length && v.charCodeAt(n) === GRAVE) n++;
  if (n === 0 || v.length < 2 * n + 1) return value;
  const ticks = v.slice(0, n);
  if (!v.endsWith(ticks) || v.charCodeAt(v.length - n - 1) === GRAVE) return value;
  const inner = v.slice(n, v.length - n);
  // The closing run must be the first backtick run of exactly n inside.
  let i = 0;
  while (i < inner.length) {
    if (inner.charCodeAt(i) !== GRAVE) {
      i++;
      continue;
    }
    let j = i;
    while (j < inner.length && inner.charCodeAt(j) === GRAVE) j++;
    if (j - i === n) return value;
    i = j;
  }
  if (inner.trim() === '') return value;
  return inner.length >= 2 && inner.startsWith(' ') && inner.endsWith(' ') ? inner.slice(1, -1) : inner;
}

function fieldLine(style: TypeSpec['keyStyle'], key: string, value: unknown, asCode = false): string {
  const k = encodeKey(foldLine(key));
  if (k === '') throw new EmitError('a field key is empty');
  let v = line(value);
  if (asCode && v !== '' && !isCodeSpan(v)) v = codeSpan(v);
  const sep = v === '' ? '' : ' ';
  return style === 'colon-inside' ? `**${k}:**${sep}${v}` : `**${k}**:${sep}${v}`;
}

function orderedFields(spec: TypeSpec | undefined, fields: EmitInput['fields']): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = Array.isArray(fields) ? fields : Object.entries(fields ?? {});
  if (!spec) return pairs;
  const rank = (k: string) => {
    const i = spec.fields.findIndex((f) => f.name.toLowerCase() === k.trim().toLowerCase());
    return i < 0 ? spec.fields.length : i;
  };
  return pairs
    .map((p, i) => ({ p, i }))
    .sort((x, y) => rank(x.p[0]) - rank(y.p[0]) || x.i - y.i)
    .map((x) => x.p);
}

function orderedSections(
  spec: TypeSpec | undefined,
  sections: Record<string, SectionValue>,
): Array<[string, SectionValue, SectionSpec | undefined]> {
  const entries = Object.entries(sections);
  const find = (h: string) => spec?.sections.findIndex((s) => s.heading.toLowerCase() === h.trim().toLowerCase()) ?? -1;
  return entries
    .map(([h, v], i) => ({ h, v, i, r: find(h) }))
    .sort((a, b) => (a.r < 0 ? 1e9 : a.r) - (b.r < 0 ? 1e9 : b.r) || a.i - b.i)
    .map(({ h, v, r }) => [h, v, r >= 0 ? spec?.sections[r] : undefined]);
}

function renderFindings(findings: Array<Partial<Finding>>): string {
  const out: string[] = [];
  for (const f of findings) {
    const severity = line(f.severity ?? '');
    out.push(severity === '' ? '- **Severity**:' : `- **Severity**: ${severity}`);
    const rest: Array<[string, unknown]> = [
      ['Location', f.location],
      ['Issue', f.issue],
      ['Suggested fix', f.suggestedFix],
      ['Prevention', f.prevention],
    ];
    for (const [k, v] of rest) {
      if (v === undefined || v === null) continue;
      // The template writes the location as a code span: `{filepath}:{line}`.
      const text = k === 'Location' && line(v) !== '' && !isCodeSpan(line(v)) ? codeSpan(line(v)) : line(v);
      out.push(`  **${k}**: ${text}`);
    }
  }
  return out.join('\n');
}

function tagLine(type: string, value?: string, dash = false): string {
  if (value === undefined) return `<!-- FORGE:${type} -->`;
  return dash ? `<!-- FORGE:${type} — ${value} -->` : `<!-- FORGE:${type}: ${value} -->`;
}

/** The tag line of a one-line form (inline value, marker, described marker). */
function atomicTag(type: string, spec: TypeSpec | undefined, input: EmitInput, warnings: string[]): string {
  if (input.status === 'partial') throw new EmitError(`${type} is written in one line and has no partial form`);
  const form = spec?.form ?? 'inline';
  if (form === 'marker') {
    if (input.value !== undefined && input.value !== '') warnings.push(`${type} is a marker with no value; the value was not written`);
    return tagLine(type);
  }
  let value: string;
  if (spec?.structure === 'card' && input.card !== undefined) value = cardValue(input.card);
  else value = line(input.value ?? '');
  if (form === 'described-marker') return value === '' ? tagLine(type) : tagLine(type, value, true);
  if (value.trim() === '') throw new EmitError(`${type} needs a non-empty value (§3.4)`);
  return tagLine(type, value);
}

/**
 * A one-line form, with any fields written as `**Key**:` lines right under the
 * tag (the deployed shape of markers such as CLAIM_RELEASED) and anything else
 * given after them: nothing the caller passes is dropped.
 */
function emitAtomic(type: string, spec: TypeSpec | undefined, input: EmitInput, warnings: string[]): string {
  const tag = atomicTag(type, spec, input, warnings);
  const fields = fieldLines(spec, input.fields);
  const head = fields.length > 0 ? `${tag}\n${fields.join('\n')}` : tag;
  const rest = [...(input.title ? [`## ${line(input.title)}`] : []), ...bodyBlocks(spec, input)];
  return [head, ...rest].join('\n\n');
}

function fieldLines(spec: TypeSpec | undefined, fields: EmitInput['fields']): string[] {
  const codeFields = new Set((spec?.fields ?? []).filter((f) => f.codeSpan).map((f) => f.name.toLowerCase()));
  return orderedFields(spec, fields).map(([k, v]) =>
    fieldLine(spec?.keyStyle ?? 'colon-after', k, v, codeFields.has(k.trim().toLowerCase())),
  );
}

/**
 * A partial annotation's default title: a template title that says the work is complete ("Implementation
 * Complete") would tell a reader the opposite of what the sentinel says, so it reads "(partial)" instead.
 */
function partialTitle(title: string | undefined): string | undefined {
  return title?.endsWith(' Complete') ? `${title.slice(0, -' Complete'.length)} (partial)` : title;
}

function emitBody(type: string, spec: TypeSpec | undefined, input: EmitInput): string {
  const blocks: string[] = [];
  const title = input.title ?? (input.status === 'partial' ? partialTitle(spec?.title) : spec?.title);
  if (title !== undefined && title !== '') blocks.push(`## ${line(title)}`);
  if (input.table && input.table.length > 0) blocks.push(renderTable(input.table, spec?.leadTable?.columns));
  const fields = fieldLines(spec, input.fields);
  if (fields.length > 0) blocks.push(fields.join('\n'));
  blocks.push(...bodyBlocks(spec, input));

  const sentinel = input.status === 'partial' ? emittedPartialSentinel(type) : emittedCompleteSentinel(type);
  // The templates put the title right under the tag; blank lines separate the rest.
  const head = title !== undefined && title !== '' ? `${tagLine(type)}\n${blocks.shift()}` : tagLine(type);
  let text = [head, ...blocks].join('\n\n');
  if (sentinel) text += `\n\n<!-- ${sentinel} -->`;
  return text;
}

/** Findings, sections and free Markdown: the part after the fields. */
function bodyBlocks(spec: TypeSpec | undefined, input: EmitInput): string[] {
  const blocks: string[] = [];
  const sections = { ...(input.sections ?? {}) };
  if (input.findings && input.findings.length > 0 && !Object.keys(sections).some((h) => h.toLowerCase() === 'findings'))
    blocks.push(`### Findings\n${renderFindings(input.findings)}`);
  for (const [heading, value, sectionSpec] of orderedSections(spec, sections)) {
    const h = line(heading);
    if (h === '') throw new EmitError('a section heading is empty');
    const content = renderSection(sectionSpec, value);
    blocks.push(content === '' ? `### ${h}` : `### ${h}\n${content}`);
  }
  if (input.body !== undefined && !isBlankText(input.body)) blocks.push(markdown(input.body));
  return blocks;
}

function isBlankText(text: string): boolean {
  return splitLines(text).every(isBlankLine);
}

/** The keys an emit input may have; anything else is a mistake, never silently dropped. */
const INPUT_KEYS = new Set(['fields', 'sections', 'table', 'findings', 'body', 'value', 'card', 'status', 'title']);

function checkInputKeys(type: string, input: EmitInput): void {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new EmitError(`emit(${type}, input): input must be an object`);
  const unknown = Object.keys(input).filter((k) => !INPUT_KEYS.has(k));
  if (unknown.length > 0)
    throw new EmitError(
      `emit(${type}): unknown input key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} — fields go under \`fields\` (emit('${type}', { fields: { ${JSON.stringify(unknown[0])}: … } })); the other keys are ${[...INPUT_KEYS].join(', ')}`,
    );
}

/** The annotation text and any warnings. Throws EmitError on input it cannot write faithfully. */
export function emitAnnotation(type: string, input: EmitInput = {}): Emitted {
  if (typeof type !== 'string' || !isTypeName(type))
    throw new EmitError(`${quote(type)} is not a type name: use upper-case letters, digits and _ , starting with a letter`);
  const warnings: string[] = [];
  if (!isReferenceTypeName(type))
    warnings.push(`type ${type} is outside [A-Z_]+: readers using the reference grammar <!-- FORGE:[A-Z_]+ --> will not see it`);
  checkInputKeys(type, input);
  const spec = typeSpec(type);
  const atomic = spec ? spec.form !== 'body' : input.value !== undefined && !input.fields && !input.sections && !input.body;
  const text = atomic ? emitAtomic(type, spec, input, warnings) : emitBody(type, spec, input);

  // Belt and braces: what we write must read back as exactly one annotation of this type.
  const back = parse(text);
  const want = input.status === 'partial' ? 'partial' : 'complete';
  // Unreachable while the rules above hold (every input shape is tested to read back); kept so a
  // future rule that breaks one fails loudly instead of posting a broken annotation.
  if (back.length !== 1 || back[0].type !== type || back[0].sentinelState !== want)
    throw new EmitError(`internal: emitted ${type} does not read back as one ${want} annotation`);
  return { text, warnings };
}

/** What an EmitInput may hold: any other key makes the object the spec's plain field map. */
const EMIT_INPUT_KEYS: ReadonlySet<string> = new Set([
  'fields',
  'sections',
  'table',
  'findings',
  'body',
  'value',
  'card',
  'status',
  'title',
]);

/**
 * §13.2's `emit(type, fields)`: the second argument is either the full
 * EmitInput (fields, sections, body, …) or, as the spec writes it, the fields
 * themselves (`emit('BUILDER', { Branch: 'fix/x', Commits: 'a1b2c3d' })`) —
 * told apart by its keys: an object none of whose keys EmitInput has is a
 * field map. One that mixes the two is refused (emitAnnotation names the
 * stray keys): its intent cannot be told, and nothing given is ever dropped.
 */
export function emit(type: string, input: EmitInput | Record<string, unknown> = {}): string {
  const isObject = typeof input === 'object' && input !== null && !Array.isArray(input);
  const keys = isObject ? Object.keys(input) : [];
  const plainFields = keys.length > 0 && keys.every((k) => !EMIT_INPUT_KEYS.has(k));
  return emitAnnotation(type, plainFields ? { fields: input as Record<string, unknown> } : (input as EmitInput)).text;
}

/** The partial sentinel line for a type (§3.3), in the shape mirroring its completion sentinel. */
export function emitPartial(type: string): string {
  if (!isTypeName(type)) throw new EmitError(`${quote(type)} is not a type name`);
  return `<!-- ${emittedPartialSentinel(type)} -->`;
}
