/**
 * What runs next, from what the chain holds and the work item's labels. The
 * rules are a table read top to bottom; the first that applies decides:
 *
 * | rule | next |
 * |---|---|
 * | a terminal label (NOTES §4) | `none` — a consumer stops (§7.2.5) |
 * | INVESTIGATOR `INVALID` | `close` (§4.1 routes INVALID to closing) |
 * | a control marker (GATE_FAILED, PUSH_BLOCKED, PUSH_FAILED, ANCESTRY_FAILED) newer than the last BUILDER | `needs-human` (§4.3) |
 * | Decomposition Assessment `YES`, no DECOMPOSED | `DECOMPOSED` |
 * | Decomposition Assessment `YES`, DECOMPOSED written | `none` — the sub-issues run their own pipelines |
 * | a domain's newest REVIEWER requests changes | `BUILDER` (or `REVIEWER` when a BUILDER came after it) |
 * | the first stage of the chain with no complete trusted annotation | that stage (a partial or interrupted one runs again) |
 * | the whole chain complete | `none` |
 *
 * Values are read the way validation reads them (conformance/verdicts.ts).
 */
import { TERMINAL_LABELS } from '../codec/index.js';
import { enumValue, reviewDomain, verdictOf } from '../conformance/verdicts.js';
import type { Candidate } from './collect.js';
import { allIncluded, newestIncluded, type Selection } from './select.js';

/** The markers that say automated processing stopped and a person is needed (§4.3). */
export const HALT_MARKERS: readonly string[] = ['GATE_FAILED', 'PUSH_BLOCKED', 'PUSH_FAILED', 'ANCESTRY_FAILED'];

export interface NextPhase {
  phase: string;
  /** One line: which rule decided, and on what. */
  why: string;
}

interface Facts {
  chain: readonly string[];
  labels: readonly string[];
  sel: Selection;
}

const when = (c: Candidate | null) => c?.createdAt ?? '';

type Rule = (f: Facts) => NextPhase | null;

const terminalLabel: Rule = ({ labels }) => {
  const label = labels.find((l) => TERMINAL_LABELS.has(l));
  return label ? { phase: 'none', why: `labelled ${label}, a terminal state: a consumer stops here (§7.2)` } : null;
};

const investigationInvalid: Rule = ({ sel }) => {
  const inv = newestIncluded(sel, 'INVESTIGATOR');
  return inv && verdictOf(inv.annotation) === 'INVALID'
    ? { phase: 'close', why: `the INVESTIGATOR found the issue INVALID (${inv.url}): it is closed, not built (§4.1)` }
    : null;
};

const haltedAfterBuild: Rule = ({ sel }) => {
  const build = newestIncluded(sel, 'BUILDER');
  let halt: Candidate | null = null;
  for (const type of HALT_MARKERS) {
    const m = newestIncluded(sel, type);
    if (m && when(m) > when(build) && (halt === null || when(m) > when(halt))) halt = m;
  }
  return halt
    ? {
        phase: 'needs-human',
        why: `${halt.annotation.type} (${halt.url}) is newer than ${build ? 'the last BUILDER' : 'any BUILDER'}: automated processing stopped (§4.3)`,
      }
    : null;
};

const decomposition: Rule = ({ sel }) => {
  const inv = newestIncluded(sel, 'INVESTIGATOR');
  if (!inv || enumValue(inv.annotation, 'Decomposition Assessment') !== 'YES') return null;
  const done = newestIncluded(sel, 'DECOMPOSED');
  return done
    ? { phase: 'none', why: `decomposed (${done.url}): each sub-issue runs its own pipeline` }
    : { phase: 'DECOMPOSED', why: `the INVESTIGATOR assessed decomposition YES (${inv.url}) and no DECOMPOSED is written` };
};

const changesRequested: Rule = ({ sel }) => {
  const build = newestIncluded(sel, 'BUILDER');
  // Per domain, the newest REVIEWER decides (a newer APPROVED of the same domain lifts it).
  const newestPerDomain = new Map<string, Candidate>();
  for (const r of allIncluded(sel, 'REVIEWER')) newestPerDomain.set(reviewDomain(r.annotation), r);
  const blocking = [...newestPerDomain.values()].filter((r) => verdictOf(r.annotation) === 'CHANGES_REQUESTED');
  if (blocking.length === 0) return null;
  const open = blocking.filter((r) => when(r) > when(build));
  if (open.length > 0)
    return {
      phase: 'BUILDER',
      why: `REVIEWER (${reviewDomain(open[0].annotation)}) requests changes (${open[0].url}): the builder addresses them`,
    };
  return {
    phase: 'REVIEWER',
    why: `a BUILDER came after the REVIEWER (${reviewDomain(blocking[0].annotation)}) that requested changes: it is reviewed again`,
  };
};

const firstOpenStage: Rule = ({ chain, sel }) => {
  for (const type of chain) {
    // DECOMPOSED is a stage only for an issue assessed YES (the decomposition rule above).
    if (type === 'DECOMPOSED') continue;
    if (newestIncluded(sel, type) === null)
      return { phase: type, why: `${type} is the first stage of the chain with no complete trusted annotation` };
  }
  return null;
};

const chainComplete: Rule = ({ chain }) => ({ phase: 'none', why: `every stage of the chain (${chain.join(', ')}) is complete` });

/** The table, in the order the rules are read. */
export const NEXT_PHASE_RULES: ReadonlyArray<{ name: string; rule: Rule }> = [
  { name: 'terminal label', rule: terminalLabel },
  { name: 'investigation invalid', rule: investigationInvalid },
  { name: 'halted after the build', rule: haltedAfterBuild },
  { name: 'decomposition', rule: decomposition },
  { name: 'changes requested', rule: changesRequested },
  { name: 'first open stage', rule: firstOpenStage },
  { name: 'chain complete', rule: chainComplete },
];

export function nextPhase(chain: readonly string[], labels: readonly string[], sel: Selection): NextPhase {
  const facts = { chain, labels, sel };
  for (const { rule } of NEXT_PHASE_RULES) {
    const decided = rule(facts);
    if (decided) return decided;
  }
  return chainComplete(facts) as NextPhase;
}
