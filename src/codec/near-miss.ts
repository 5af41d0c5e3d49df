/**
 * What looks like an annotation but is not one a consumer finds: an opening
 * tag with no `-->`, a tag in the wrong letter case, a sentinel whose opener is
 * not there, a type one edit away from a reserved one. A linter over lines for
 * the CLI — the parser itself stays exact (spec §3.1), so a near miss is
 * reported, never read as an annotation. Linear: each line is looked at once.
 */
import { isReserved, partialSentinels, TYPES } from './registry.js';
import type { Annotation } from './types.js';

export interface NearMiss {
  /** 1-based line of the body. */
  line: number;
  message: string;
}

/** Edit distance between two short names (type names are at most a few dozen characters). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/**
 * The reserved type `name` is most likely a typo of, or null: not reserved
 * itself, and within one edit per five letters (at least one) of a reserved name.
 */
export function nearestReserved(name: string): string | null {
  if (isReserved(name)) return null;
  for (const t of TYPES) if (editDistance(name, t.type) <= Math.max(1, Math.floor(t.type.length / 5))) return t.type;
  return null;
}

/**
 * Every sentinel of a reserved type, by its text, with the type it closes: the
 * completion sentinel, and the partial shapes §3.3 and the deployed types
 * write (`<!-- FORGE:ARCHITECT:PARTIAL -->` among them, which starts like a tag).
 */
const SENTINEL_OF = new Map<string, string>([
  ...TYPES.filter((t) => t.complete !== null).map((t): [string, string] => [t.complete as string, t.type]),
  ...TYPES.filter((t) => t.complete !== null).flatMap((t) => partialSentinels(t.type).map((p): [string, string] => [p, t.type])),
]);

const OPEN = '<!--';
const CLOSE = '-->';

/** The text between `<!--` and `-->` of a whole-line comment, trimmed; null when the line is not one. */
function commentText(line: string): { text: string; closed: boolean } | null {
  const t = line.trim();
  if (!t.startsWith(OPEN)) return null;
  const closed = t.endsWith(CLOSE) && t.length >= OPEN.length + CLOSE.length;
  return { text: (closed ? t.slice(OPEN.length, -CLOSE.length) : t.slice(OPEN.length)).trim(), closed };
}

/** The type a `FORGE:` tag names: up to the first blank, `:` or `—`. */
function tagType(text: string): string {
  let end = 'FORGE:'.length;
  while (end < text.length && !' \t:—'.includes(text[end])) end++;
  return text.slice('FORGE:'.length, end);
}

/** The near misses in `body`, given the annotations the parser found in it. */
export function nearMisses(body: string, found: readonly Annotation[]): NearMiss[] {
  const out: NearMiss[] = [];
  const lines = body.split(/\r\n|\r|\n/);
  // Lines inside a found annotation of type T: a sentinel of T there is at home.
  const within = (n: number, type: string) => found.some((a) => a.type === type && a.startLine <= n && n <= a.endLine);
  for (let i = 0; i < lines.length; i++) {
    const c = commentText(lines[i]);
    if (c === null) continue;
    const line = i + 1;
    const head = c.text.slice(0, 'FORGE:'.length);
    if (head !== 'FORGE:' && head.toUpperCase() === 'FORGE:') {
      out.push({ line, message: `tag in the wrong case: "${lines[i].trim()}" — consumers read only upper-case FORGE: tags` });
      continue;
    }
    // `<!-- FORGE:BUILDER:COMPLETE -->` starts like a tag but is BUILDER's sentinel: alone, it closes nothing.
    const closes = c.closed ? SENTINEL_OF.get(c.text) : undefined;
    if (closes) {
      if (!within(i, closes))
        out.push({ line, message: `sentinel ${c.text} without its opener: no <!-- FORGE:${closes} --> comes before it` });
      continue;
    }
    if (head === 'FORGE:' && !c.closed) {
      out.push({ line, message: `opening tag with no "-->": "${lines[i].trim()}" is not a tag` });
      continue;
    }
    if (head === 'FORGE:') {
      const type = tagType(c.text);
      const near = type === '' ? null : nearestReserved(type);
      if (near) out.push({ line, message: `FORGE:${type} is not a reserved type — did you mean ${near}?` });
    }
  }
  return out;
}
