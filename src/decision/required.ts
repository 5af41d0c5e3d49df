/**
 * The required types as a step or the pipeline names them: a preset or a list
 * of type names, and how strictly each must hold. Read by the gate and the
 * reader's chain alike (no decision here, so nothing here imports one).
 */
import { isTypeName, nearestReserved, quote } from '../codec/index.js';
import { UsageError } from '../common/errors.js';
import { splitList } from '../common/lists.js';

export const PRESETS: Record<string, string[]> = {
  // §11: the minimum viable adoption.
  minimal: ['INVESTIGATOR', 'BUILDER'],
  // §7.3: the full conformance check.
  lifecycle: ['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY'],
};

/**
 * How much a required annotation must hold besides being present and complete:
 * `strict` — no errors (the spec's normative rules and the fields deployed
 * readers rely on); `template` — also every field the spec's template shows;
 * `presence` — nothing more.
 */
export type Validation = 'strict' | 'template' | 'presence';
export const VALIDATIONS: readonly Validation[] = ['strict', 'template', 'presence'];

export function parseRequired(input: string | undefined, name = 'required'): string[] {
  const text = input === undefined || input.trim() === '' ? 'minimal' : input.trim();
  if (PRESETS[text]) return [...PRESETS[text]];
  const out: string[] = [];
  for (const raw of splitList(text.replace(/[ \t]+/g, ','))) {
    const type = raw.startsWith('FORGE:') ? raw.slice(6) : raw;
    if (PRESETS[type]) {
      for (const t of PRESETS[type]) if (!out.includes(t)) out.push(t);
      continue;
    }
    if (!isTypeName(type))
      throw new UsageError(`${name}: ${quote(raw)} is not a FORGE type name (e.g. INVESTIGATOR, BUILDER) or a preset (minimal, lifecycle)`);
    if (!out.includes(type)) out.push(type);
  }
  if (out.length === 0) throw new UsageError(`${name}: no types given`);
  return out;
}

/**
 * Custom types may be required, but a near miss of a reserved name is almost
 * always a typo that would fail every gate: `INVESTIGATR` → "did you mean
 * INVESTIGATOR?" (a warning, in the CLI and in forge-check alike).
 */
export function requiredWarnings(required: readonly string[]): string[] {
  const out: string[] = [];
  for (const type of required) {
    const near = nearestReserved(type);
    if (near) out.push(`required: ${type} is not a reserved type — did you mean ${near}?`);
  }
  return out;
}
