/**
 * What an annotation's enum fields say, read once and the way validation
 * reads them: `CHANGES_REQUESTED — the null guard is missing`,
 * `**CHANGES_REQUESTED**` and `` `INVALID` (duplicate of #7) `` are the values
 * their leading token names (codec `matchEnum` over the registry's list). The
 * gate's verdict rule and the reader's next-phase rule both ask here, so a value
 * that validates never fails to decide.
 */
import { getField, matchEnum, stripCodeSpan, typeSpec, type Annotation } from '../codec/index.js';

/**
 * The listed value `field` of `annotation` starts with (upper case, as the
 * registry spells it), or null when the field is absent or names none of them.
 */
export function enumValue(annotation: Annotation, field: string): string | null {
  const raw = getField(annotation.fields, field);
  if (raw === undefined) return null;
  const values = typeSpec(annotation.type)?.fields.find((f) => f.name.toLowerCase() === field.toLowerCase())?.values;
  const text = stripCodeSpan(raw).trim();
  if (!values) return text === '' ? null : text.toUpperCase();
  return matchEnum(text, values);
}

/** REVIEWER's and INVESTIGATOR's `Verdict`, as read for deciding. */
export function verdictOf(annotation: Annotation): string | null {
  return enumValue(annotation, 'Verdict');
}

/**
 * The characters that separate "Review" from its domain in a REVIEWER title
 * (`## Review — SECURITY`, `## Review - LOGIC`, `## Review: DATABASE`): the
 * colon and every dash Unicode has in common use.
 */
const SEPARATORS = new Set([':', '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\uFE58', '\uFE63', '\uFF0D']);

/** What a REVIEWER that names no domain speaks for: one domain of its own. */
export const NO_DOMAIN = '(no domain)';

/** A REVIEWER as a line names it: `REVIEWER (SECURITY)`, or `REVIEWER` alone when it names no domain. */
export function reviewerName(domain: string): string {
  return domain === NO_DOMAIN ? 'REVIEWER' : `REVIEWER (${domain})`;
}

/**
 * The review domain a REVIEWER speaks for, whose newest REVIEWER decides:
 * the text after the first separator, or — with no separator — the whole
 * heading as written (`## Security review` is its own domain, never merged
 * with `## Logic review`; `## Review` alone names none). Compared in upper case with white space folded, so
 * `security` and `SECURITY` are one domain; any other spelling is another.
 */
export function reviewDomain(annotation: Annotation): string {
  const title = (annotation.title ?? '').trim();
  let cut = -1;
  for (let i = 0; i < title.length; i++)
    if (SEPARATORS.has(title[i])) {
      cut = i;
      break;
    }
  const domain = (cut >= 0 ? title.slice(cut + 1) : title).trim().replace(/\s+/g, ' ').toUpperCase();
  // The template's own word alone (`## Review`) names no domain.
  return domain === '' || (cut < 0 && domain === 'REVIEW') ? NO_DOMAIN : domain;
}
