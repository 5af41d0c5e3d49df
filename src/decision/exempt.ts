/**
 * Exemptions: work the gate does not hold to `required` because a maintainer
 * said so — a dependency bump by `dependabot[bot]`, a docs PR labelled
 * `forge:exempt`. Only the repository's own settings exempt: the author's
 * login (GitHub sets it, nobody types it) or a label (only people with
 * triage access can set one). Pure: the gate and its tests call it alike.
 */
import type { WorkItem } from '../common/work-item.js';
import type { CheckResult, ItemReport } from './evaluate.js';
import { currentState, anyTerminal } from '../codec/index.js';

export interface ExemptionRules {
  /** Lower-cased logins. */
  authors: ReadonlySet<string>;
  /** Lower-cased label names (GitHub compares them without case). */
  labels: ReadonlySet<string>;
}

/** Why `item` is exempt (`exempt: author dependabot[bot]`, `exempt: label forge:exempt`), or null. */
export function exemptionOf(item: Pick<WorkItem, 'author' | 'labels'>, rules: ExemptionRules): string | null {
  const login = item.author.login;
  if (login && rules.authors.has(login.toLowerCase())) return `exempt: author ${login}`;
  const label = item.labels.find((l) => rules.labels.has(l.toLowerCase()));
  return label === undefined ? null : `exempt: label ${label}`;
}

/** The verdict on an exempt item: conforming, no type demanded, the reason on the item and in the notes. */
export function exemptResult(item: WorkItem, required: readonly string[], reason: string): CheckResult {
  const report: ItemReport = {
    number: item.number,
    kind: item.kind,
    url: item.url,
    state: currentState(item.labels),
    terminal: anyTerminal(item.labels),
    exempt: reason,
    types: required.map((type) => ({ type, status: 'not-required' as const, author: null, url: null, errors: [] })),
    annotations: [],
    ignored: [],
  };
  return {
    conforming: true,
    missing: [],
    incomplete: [],
    invalid: [],
    state: report.state,
    terminal: report.terminal,
    items: [report],
    problems: [],
    notes: [],
    exempt: reason,
  };
}
