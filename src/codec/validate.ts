/**
 * validate(annotation) — the sentinel (§3.2), partial (§3.3), required fields
 * and enum values per type (§4), and the per-type rules the registry names.
 * Every error names the type, the field and the section of the spec.
 */
import { isTypeNameChar } from './chars.js';
import { cardErrors } from './card.js';
import { completionSentinels, isReferenceTypeName, typeSpec, type FieldSpec, type TypeSpec } from './registry.js';
import { getField } from './structure.js';
import { oneLine } from './quote.js';
import { nearestReserved } from './near-miss.js';
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
    const wordChar = isTypeNameChar(next);
    if (Number.isNaN(next) || !wordChar) return candidate;
  }
  return null;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function isIso8601(value: string): boolean {
  const v = value.trim().replace(/^`|`$/g, '');
  return ISO_8601.test(v) && !Number.isNaN(Date.parse(v));
}

/** Collects a validation's findings by weight. */
interface Findings {
  errors: string[];
  warnings: string[];
  templateGaps: string[];
}

/** Something the spec's template shows is absent: a warning, and a gap for `validation: template`. */
function gap(out: Findings, text: string): void {
  out.templateGaps.push(text);
  out.warnings.push(text);
}

function checkField(spec: TypeSpec, field: FieldSpec, a: Annotation, out: Findings): void {
  const value = getField(a.fields, field.name);
  const where = `${a.type}: field "${field.name}"`;
  if (value === undefined || value.trim() === '') {
    const what = value === undefined ? 'missing' : 'empty';
    if (field.presence === 'required') out.errors.push(`${where} is ${what} — required (${field.because ?? spec.ref})`);
    else if (field.presence === 'template') gap(out, `${where} is ${what} — the ${spec.ref} template shows it`);
    return;
  }
  if (field.values && !matchEnum(value, field.values)) {
    const text = `${where} is "${oneLine(value)}" — expected one of ${field.values.join(', ')} (${spec.ref})`;
    (field.strictValues === false ? out.warnings : out.errors).push(text);
  }
  // The template's `{ISO 8601 timestamp}` is a placeholder, not a normative value list.
  if (field.format === 'iso8601' && !isIso8601(value))
    out.warnings.push(`${where} is "${oneLine(value)}" — expected an ISO 8601 timestamp (${spec.ref})`);
}

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

/** Per-type structure rules, keyed by the registry's `structure` name. */
const STRUCTURE_RULES: Record<string, (a: Annotation, spec: TypeSpec, out: Findings) => void> = {
  'reviewer-findings': (a, spec, out) => {
    (a.findings ?? []).forEach((f, i) => {
      if (f.severity === null) gap(out, `${a.type}: finding ${i + 1} has no "Severity" — the ${spec.ref} template shows it`);
      else if (!matchEnum(f.severity, SEVERITIES))
        out.errors.push(
          `${a.type}: finding ${i + 1} "Severity" is "${oneLine(f.severity)}" — expected one of ${SEVERITIES.join(', ')} (${spec.ref})`,
        );
    });
  },
  trajectory: (a, spec, out) => {
    if (!a.trajectory || a.trajectory.phases.length === 0)
      gap(out, `${a.type}: the phase table (| Phase | Result | Notes |) is missing or empty — the ${spec.ref} template shows it`);
  },
  'design-spec': (a, spec, out) => {
    const v = a.designSpec;
    if (v === undefined || v === null || typeof v !== 'object' || Array.isArray(v))
      gap(out, `${a.type}: no readable \`\`\`jsonc block holding the spec object — the ${spec.ref} template shows one`);
  },
  'design-rationale': (a, spec, out) => {
    const raw = a.raw;
    if (!/rejected[ \t]{0,4}:[ \t]{0,4}\S/i.test(raw))
      out.errors.push(`${a.type}: carries no explicitly rejected alternative ("Considered & rejected: …") (${spec.ref})`);
    if (!/(?:→|->)[ \t]*Produces DESIGN_SPEC/.test(raw))
      out.errors.push(`${a.type}: missing the "→ Produces DESIGN_SPEC: {link}" line (${spec.ref})`);
  },
  card: (a, spec, out) => {
    for (const e of cardErrors(a.card ?? null)) out.errors.push(`${a.type}: ${e} (${spec.ref})`);
  },
};

/** The sentinel's verdict: errors for reserved types; for a custom type, warnings only (§7.2(4)). */
function checkSentinel(a: Annotation, spec: TypeSpec | undefined, out: Findings): void {
  const misclosures = spec?.misclosures ?? {};
  const misclosed = a.sentinelState === 'interrupted' ? a.foreignSentinels.find((s) => Object.hasOwn(misclosures, s)) : undefined;
  let problem: string | null = null;
  if (a.sentinelState === 'partial') {
    problem = `${a.type}: marked partial by <!-- ${a.sentinel} --> — not complete; re-run the producing phase (§3.3)`;
  } else if (misclosed !== undefined) {
    const expected = completionSentinels(a.type)[0];
    problem = `${a.type}: closed with ${misclosed}, ${misclosures[misclosed]} — end it with <!-- ${expected} --> to complete it (${spec?.ref ?? '§3.2'})`;
  } else if (a.sentinelState === 'interrupted') {
    const expected = spec ? completionSentinels(a.type)[0] : `${a.type}:COMPLETE`;
    problem = `${a.type}: completion sentinel <!-- ${expected} --> is missing — treated as interrupted (§3.2)`;
  }
  if (problem !== null) (spec ? out.errors : out.warnings).push(problem);
  for (const s of a.foreignSentinels) {
    if (s === misclosed) continue;
    out.warnings.push(`${a.type}: sentinel <!-- ${s} --> inside this annotation belongs to another type and is ignored (§3.2)`);
  }
}

export function validate(a: Annotation): ValidationResult {
  const out: Findings = { errors: [], warnings: [], templateGaps: [] };
  const spec = typeSpec(a.type);

  if (!isReferenceTypeName(a.type))
    out.warnings.push(
      `${a.type}: type name is outside [A-Z_]+ — readers using the reference grammar will not see it (implementation-notes.md §2)`,
    );

  checkSentinel(a, spec, out);

  if (!spec) {
    // §7.2(4), §8: a consumer never fails on a type it does not know.
    const near = nearestReserved(a.type);
    out.warnings.push(`${a.type}: not a reserved type — read and tolerated (§7.2, §8)${near ? `; did you mean ${near}?` : ''}`);
    return { valid: true, ...out };
  }

  if (spec.form === 'inline') {
    if (a.inlineValue === null || a.inlineValue.trim() === '') out.errors.push(`${a.type}: inline value is empty (§3.4)`);
    else if (spec.category === 'cross-artifact' && spec.postedIn !== 'gist-description' && !/^https?:\/\/\S+$/.test(a.inlineValue))
      out.warnings.push(`${a.type}: inline value "${oneLine(a.inlineValue)}" is not a URL (§4.2)`);
  } else if (spec.form === 'described-marker') {
    if (!a.inlineValue) out.warnings.push(`${a.type}: marker has no " — {description}" (§4.3)`);
  } else if (spec.form === 'body' && a.inlineValue !== null) {
    out.warnings.push(`${a.type}: takes no inline value; "${oneLine(a.inlineValue)}" is ignored (§3.4)`);
  }

  for (const alias of a.fieldAliases)
    out.warnings.push(
      `${a.type}: field "${oneLine(alias.written)}" read as "${alias.field}" — the ${spec.ref} template writes "${alias.field}"`,
    );
  for (const field of spec.fields) checkField(spec, field, a, out);
  for (const section of spec.sections) {
    if (section.presence === undefined || section.presence === 'optional') continue;
    if (getField(a.sections, section.heading) !== undefined) continue;
    if (section.presence === 'required') out.errors.push(`${a.type}: section "### ${section.heading}" is missing — required (${spec.ref})`);
    else gap(out, `${a.type}: section "### ${section.heading}" is missing — the ${spec.ref} template shows it`);
  }
  if (spec.structure) STRUCTURE_RULES[spec.structure]?.(a, spec, out);

  return { valid: out.errors.length === 0, ...out };
}
