/**
 * Admission: may the router start an agent on this work item at all? A
 * person decides, never the item's own text. An item is admitted when its
 * author is one the pipeline file's `admit.authors` names (by default the
 * trusted authors), or when a person with triage rights or more put the
 * admitting label on it (`admit.label`, or a stage's `starts` label): who put
 * a label there is GitHub's record of the label event, checked against that
 * person's role here, so a stranger can neither type nor label their way in.
 * Everything else waits, and the board says how to admit it. Pure: the GitHub
 * layer reads who labelled and their role.
 */
import type { Admit } from '../common/pipeline.js';
import { counts, parseTrustPolicy, PERMISSIONS, type Author, type Labelled, type Permission, type TrustPolicy } from '../common/trust.js';

/** The weakest role whose label admits: triage is GitHub's role for managing issues and labels without write access. */
export const ADMITTING_ROLE: Permission = 'triage';

export type Admission =
  | { admitted: true; by: string }
  | {
      admitted: false;
      why: string;
      /** How a person admits it: one line for the board. */
      how: string;
    };

/** The labels that admit an item when a person put them there: the file's admit label and each stage's `starts` label. */
export function admittingLabels(admit: Admit, startsLabels: readonly (string | null)[]): string[] {
  const out: string[] = [];
  for (const l of [admit.label, ...startsLabels]) if (l && !out.some((x) => x.toLowerCase() === l.toLowerCase())) out.push(l);
  return out;
}

/** The admitting labels the item carries now (GitHub matches label names whatever their letter case). */
export function admittingLabelsOn(itemLabels: readonly string[], admitting: readonly string[]): string[] {
  return admitting.filter((l) => itemLabels.some((x) => x.toLowerCase() === l.toLowerCase()));
}

/**
 * The policy `admit.authors` names: trusted-authors itself, none, or a list of
 * its own (sharing the roles read so far, for a `permission:` entry).
 */
export function admitPolicy(admit: Admit, trust: TrustPolicy): TrustPolicy | null {
  if (admit.authors === 'none') return null;
  if (admit.authors === 'trusted') return trust;
  const policy = parseTrustPolicy(admit.authors);
  policy.permissions = trust.permissions;
  return policy;
}

/** Does `admit.authors` admit this author's own item? */
export function authorAdmitted(admit: Admit, author: Author, trust: TrustPolicy): boolean {
  const policy = admitPolicy(admit, trust);
  return policy !== null && counts('issue-body', author, policy);
}

const atLeast = (role: Permission | 'none', min: Permission) => PERMISSIONS.indexOf(role as Permission) >= PERMISSIONS.indexOf(min);

/**
 * The item's admission. `labelled`: the newest label events of the admitting
 * labels it carries (null when none was read: it carries none, or its author
 * already admits it).
 */
export function admissionOf(
  item: { author: Author; labels: readonly string[] },
  admit: Admit,
  trust: TrustPolicy,
  admitting: readonly string[],
  labelled: readonly Labelled[] | null,
): Admission {
  if (authorAdmitted(admit, item.author, trust))
    return { admitted: true, by: `opened by ${item.author.login ?? '(unknown)'}, an admitted author` };
  const person = (labelled ?? []).find((l) => !l.bot && atLeast(l.role, ADMITTING_ROLE));
  if (person) return { admitted: true, by: `${person.label} added by ${person.login} (${person.role})` };
  const how =
    admitting.length === 0
      ? 'the pipeline file admits no label: add its author to admit.authors'
      : `a person with triage rights or more adds the label ${admitting.map((l) => `\`${l}\``).join(' or ')}`;
  const refused = (labelled ?? [])[0];
  const why = refused
    ? `${refused.label} was added by ${refused.login}${refused.bot ? ', a bot' : ` (role ${refused.role} here)`}, who cannot admit`
    : `opened by ${item.author.login ?? '(unknown)'} (${item.author.association}), whom admit.authors does not name`;
  return { admitted: false, why: `waiting for a maintainer to admit: ${why}`, how };
}
