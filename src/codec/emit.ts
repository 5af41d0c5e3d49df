/**
 * emit(type, input) — the canonical text of each spec template: tag, title,
 * lead table, fields, sections (tables, checklists, lists), free body, and the
 * completion (or partial) sentinel as the last line.
 *
 * Every key, value, heading and Markdown body passes through encode() (NOTES.md
 * §1), single-line slots are folded, and open fences are closed, so nothing a
 * caller passes can add an annotation or change a sentinel state. The type
 * name is validated, never escaped.
 */
import { cardValue } from './card.js';
import { encode, encodeKey, foldLine } from './escape.js';
import { closeOpenFences } from './fences.js';
import { parse } from './parse.js';
import {
  completionSentinels,
  emittedPartialSentinel,
  isReferenceTypeName,
  isTypeName,
  typeSpec,
  type SectionSpec,
  type TypeSpec,
} from './registry.js';
import type { Finding } from './types.js';

export type Scalar = string | number | boolean | null;
export type SectionValue =
  | string
  | Array<string | { checked?: boolean; text: string } | Record<string, Scalar>>;

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

/** Multi-line Markdown: normalise breaks to LF, escape, close any fence left open. */
function markdown(text: string): string {
  const normal = text.split('\r\n').join('\n').split('\r').join('\n');
  const lines = normal.split('\n');
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a].trim() === '') a++;
  while (b > a && lines[b - 1].trim() === '') b--;
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
        const it = item as { checked?: boolean; text: string };
        return `- [${it.checked ? 'x' : ' '}] ${line(it.text)}`;
      }
      const text = line(item);
      if (kind === 'checklist') return `- [ ] ${text}`;
      if (kind === 'numbered') return `${i + 1}. ${text}`;
      return `- ${text}`;
    })
    .join('\n');
}

function fieldLine(style: TypeSpec['keyStyle'], key: string, value: unknown): string {
  const k = encodeKey(foldLine(key));
  if (k === '') throw new EmitError('a field key is empty');
  const v = line(value);
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
  return pairs.map((p, i) => ({ p, i })).sort((x, y) => rank(x.p[0]) - rank(y.p[0]) || x.i - y.i).map((x) => x.p);
}

function orderedSections(spec: TypeSpec | undefined, sections: Record<string, SectionValue>): Array<[string, SectionValue, SectionSpec | undefined]> {
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
    out.push(`- **Severity**: ${line(f.severity ?? '')}`);
    const rest: Array<[string, unknown]> = [
      ['Location', f.location],
      ['Issue', f.issue],
      ['Suggested fix', f.suggestedFix],
      ['Prevention', f.prevention],
    ];
    for (const [k, v] of rest) if (v !== undefined && v !== null) out.push(`  **${k}**: ${line(v)}`);
  }
  return out.join('\n');
}

function tagLine(type: string, value?: string, dash = false): string {
  if (value === undefined) return `<!-- FORGE:${type} -->`;
  return dash ? `<!-- FORGE:${type} — ${value} -->` : `<!-- FORGE:${type}: ${value} -->`;
}

function emitAtomic(type: string, spec: TypeSpec | undefined, input: EmitInput, warnings: string[]): string {
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

function emitBody(type: string, spec: TypeSpec | undefined, input: EmitInput): string {
  const blocks: string[] = [];
  const title = input.title ?? spec?.title;
  if (title !== undefined && title !== '') blocks.push(`## ${line(title)}`);
  if (input.table && input.table.length > 0) blocks.push(renderTable(input.table, spec?.leadTable?.columns));
  const fields = orderedFields(spec, input.fields).map(([k, v]) => fieldLine(spec?.keyStyle ?? 'colon-after', k, v));
  if (fields.length > 0) blocks.push(fields.join('\n'));
  const sections = { ...(input.sections ?? {}) };
  if (input.findings && input.findings.length > 0 && !Object.keys(sections).some((h) => h.toLowerCase() === 'findings'))
    blocks.push(`### Findings\n${renderFindings(input.findings)}`);
  for (const [heading, value, sectionSpec] of orderedSections(spec, sections)) {
    const h = line(heading);
    if (h === '') throw new EmitError('a section heading is empty');
    const content = renderSection(sectionSpec, value);
    blocks.push(content === '' ? `### ${h}` : `### ${h}\n${content}`);
  }
  if (input.body !== undefined && input.body.trim() !== '') blocks.push(markdown(input.body));

  const sentinel = input.status === 'partial' ? emittedPartialSentinel(type) : completionSentinels(type)[0];
  // The templates put the title right under the tag; blank lines separate the rest.
  const head = title !== undefined && title !== '' ? `${tagLine(type)}\n${blocks.shift()}` : tagLine(type);
  let text = [head, ...blocks].join('\n\n');
  if (sentinel) text += `\n\n<!-- ${sentinel} -->`;
  return text;
}

/** The annotation text and any warnings. Throws EmitError on input it cannot write faithfully. */
export function emitAnnotation(type: string, input: EmitInput = {}): Emitted {
  if (typeof type !== 'string' || !isTypeName(type))
    throw new EmitError(`"${String(type)}" is not a type name: use upper-case letters, digits and _ , starting with a letter`);
  const warnings: string[] = [];
  if (!isReferenceTypeName(type))
    warnings.push(`type ${type} is outside [A-Z_]+: readers using the reference grammar <!-- FORGE:[A-Z_]+ --> will not see it`);
  const spec = typeSpec(type);
  const atomic = spec ? spec.form !== 'body' : input.value !== undefined && !input.fields && !input.sections && !input.body;
  const text = atomic ? emitAtomic(type, spec, input, warnings) : emitBody(type, spec, input);

  // Belt and braces: what we write must read back as exactly one annotation of this type.
  const back = parse(text);
  const want = input.status === 'partial' ? 'partial' : 'complete';
  if (back.length !== 1 || back[0].type !== type || back[0].sentinelState !== want)
    throw new EmitError(`internal: emitted ${type} does not read back as one ${want} annotation`);
  return { text, warnings };
}

export function emit(type: string, input: EmitInput = {}): string {
  return emitAnnotation(type, input).text;
}

/** The partial sentinel line for a type (§3.3), in the shape mirroring its completion sentinel. */
export function emitPartial(type: string): string {
  if (!isTypeName(type)) throw new EmitError(`"${type}" is not a type name`);
  return `<!-- ${emittedPartialSentinel(type)} -->`;
}
