/**
 * validate(annotation) — the sentinel (§3.2), partial (§3.3), required fields
 * and enum values per type (§4), and the per-type rules the registry names.
 * Every error names the type, the field and the section of the spec.
 */
import { cardErrors } from './card.js';
import { completionSentinels, isReferenceTypeName, typeSpec, type FieldSpec, type TypeSpec } from './registry.js';
import { getCaseInsensitive } from './structure.js';
import type { Annotation, ValidationResult } from './types.js';

/** Does `value` start with one of `values` (case-insensitively), followed by a non-word character? */
export function matchEnum(value: string, values: readonly string[]): string | null {
  let v = value.trim();
  // `**NO** — reason`, `` `HIGH` ``: look through bold and code marks.
  while (v.startsWith('*') || v.startsWith('`')) v = v.slice(1);
  const upper = v.toUpperCase();
  for (const candidate of values) {
    const c = candidate.toUpperCase();
    if (!upper.startsWith(c)) continue;
    const next = upper.charCodeAt(c.length);
    const wordChar = (next >= 65 && next <= 90) || (next >= 48 && next <= 57) || next === 95;
    if (Number.isNaN(next) || !wordChar) return candidate;
  }
  return null;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function isIso8601(value: string): boolean {
  const v = value.trim().replace(/^`|`$/g, '');
  return ISO_8601.test(v) && !Number.isNaN(Date.parse(v));
}

function checkField(spec: TypeSpec, field: FieldSpec, a: Annotation, errors: string[], warnings: string[]): void {
  const value = getCaseInsensitive(a.fields, field.name);
  const where = `${a.type}: field "${field.name}"`;
  if (value === undefined || value.trim() === '') {
    if (field.required) errors.push(`${where} is ${value === undefined ? 'missing' : 'empty'} — required (${spec.ref})`);
    return;
  }
  if (field.values && !matchEnum(value, field.values)) {
    const text = `${where} is "${value}" — expected one of ${field.values.join(', ')} (${spec.ref})`;
    (field.strictValues === false ? warnings : errors).push(text);
  }
  if (field.format === 'iso8601' && !isIso8601(value)) errors.push(`${where} is "${value}" — expected an ISO 8601 timestamp (${spec.ref})`);
}

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

/** Per-type structure rules, keyed by the registry's `structure` name. */
const STRUCTURE_RULES: Record<string, (a: Annotation, spec: TypeSpec, errors: string[], warnings: string[]) => void> = {
  'reviewer-findings': (a, spec, errors) => {
    (a.findings ?? []).forEach((f, i) => {
      if (f.severity === null) errors.push(`${a.type}: finding ${i + 1} has no "Severity" (${spec.ref})`);
      else if (!matchEnum(f.severity, SEVERITIES))
        errors.push(`${a.type}: finding ${i + 1} "Severity" is "${f.severity}" — expected one of ${SEVERITIES.join(', ')} (${spec.ref})`);
    });
  },
  trajectory: (a, spec, errors) => {
    if (!a.trajectory || a.trajectory.phases.length === 0)
      errors.push(`${a.type}: the phase table (| Phase | Result | Notes |) is missing or empty (${spec.ref})`);
  },
  'design-spec': (a, spec, errors) => {
    const v = a.designSpec;
    if (v === undefined || v === null || typeof v !== 'object' || Array.isArray(v))
      errors.push(`${a.type}: no readable \`\`\`jsonc block holding the spec object (${spec.ref})`);
  },
  'design-rationale': (a, spec, errors) => {
    const raw = a.raw;
    if (!/rejected[ \t]{0,4}:[ \t]{0,4}\S/i.test(raw))
      errors.push(`${a.type}: carries no explicitly rejected alternative ("Considered & rejected: …") (${spec.ref})`);
    if (!/(?:→|->)[ \t]*Produces DESIGN_SPEC/.test(raw))
      errors.push(`${a.type}: missing the "→ Produces DESIGN_SPEC: {link}" line (${spec.ref})`);
  },
  card: (a, spec, errors) => {
    for (const e of cardErrors(a.card ?? null)) errors.push(`${a.type}: ${e} (${spec.ref})`);
  },
};

export function validate(a: Annotation): ValidationResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  const spec = typeSpec(a.type);

  if (!isReferenceTypeName(a.type))
    warnings.push(`${a.type}: type name is outside [A-Z_]+ — readers using the reference grammar will not see it (NOTES.md §2)`);

  if (a.sentinelState === 'partial') {
    errors.push(`${a.type}: marked partial by <!-- ${a.sentinel} --> — not complete; re-run the producing phase (§3.3)`);
  } else if (a.sentinelState === 'interrupted') {
    const expected = completionSentinels(a.type);
    errors.push(
      `${a.type}: completion sentinel <!-- ${expected[0]} --> is missing — treated as interrupted (§3.2)`,
    );
  }
  for (const s of a.foreignSentinels)
    warnings.push(`${a.type}: sentinel <!-- ${s} --> inside this annotation belongs to another type and is ignored (§3.2)`);

  if (!spec) {
    warnings.push(`${a.type}: not a reserved type — read and tolerated (§7.2, §8)`);
    return { valid: errors.length === 0, errors, warnings };
  }

  if (spec.form === 'inline') {
    if (a.inlineValue === null || a.inlineValue.trim() === '') errors.push(`${a.type}: inline value is empty (§3.4)`);
    else if (spec.category === 'cross-artifact' && spec.location !== 'gist-description' && !/^https?:\/\/\S+$/.test(a.inlineValue))
      warnings.push(`${a.type}: inline value "${a.inlineValue}" is not a URL (§4.2)`);
  } else if (spec.form === 'described-marker') {
    if (!a.inlineValue) warnings.push(`${a.type}: marker has no " — {description}" (§4.3)`);
  } else if (spec.form === 'body' && a.inlineValue !== null) {
    warnings.push(`${a.type}: takes no inline value; "${a.inlineValue}" is ignored (§3.4)`);
  }

  for (const field of spec.fields) checkField(spec, field, a, errors, warnings);
  for (const section of spec.sections) {
    if (section.required && getCaseInsensitive(a.sections, section.heading) === undefined)
      errors.push(`${a.type}: section "### ${section.heading}" is missing — required (${spec.ref})`);
  }
  if (spec.structure) STRUCTURE_RULES[spec.structure]?.(a, spec, errors, warnings);

  return { valid: errors.length === 0, errors, warnings };
}
