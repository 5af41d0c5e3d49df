/**
 * What runs next, from what the chain holds and the work item's labels — the
 * one route the reader, the gate and the writer share. The rules are a table
 * read top to bottom; the first that applies decides:
 *
 * | rule | next |
 * |---|---|
 * | `needs-human` (NOTES §4) | `needs-human` — a person decides; a gate holds until they remove it |
 * | a terminal label (NOTES §4) | `none` — a consumer stops (§7.2.5) |
 * | INVESTIGATOR `INVALID` | `close` (§4.1 routes INVALID to closing) |
 * | a control marker (GATE_FAILED, PUSH_BLOCKED, PUSH_FAILED, ANCESTRY_FAILED) newer than the last BUILDER | `needs-human` (§4.3) |
 * | DESIGN_SHIPPED written (§4.4) | `none` — the design pipeline's terminal stage |
 * | the newest CRITIQUE or USER_FEEDBACK loops (§4.4) | `ITERATE` → CRITIQUE again, `BUDGET-EXHAUSTED` → `needs-human`, `Satisfied: no` → back to generation; a critique after `Satisfied: no` → USER_FEEDBACK again |
 * | Decomposition Assessment `YES`, no DECOMPOSED | `DECOMPOSED` |
 * | Decomposition Assessment `YES`, DECOMPOSED written | `none` — the sub-issues run their own pipelines |
 * | a domain's newest REVIEWER requests changes | `BUILDER` (or `REVIEWER` when a BUILDER came after it) |
 * | a stage's own verdict blocks (the pipeline file's `blocks`) | before the build: `needs-human`; after it: `BUILDER`, or the stage again after a newer BUILDER |
 * | a stage written against an upstream that changed since (`stale: rerun`) | that stage, again |
 * | the first stage of the chain with no complete trusted annotation | that stage (a partial or interrupted one runs again) |
 * | the whole chain complete | `none` |
 *
 * Values are read the way validation reads them (verdicts.ts).
 */
import { getField, matchEnum, NEEDS_HUMAN, stripCodeSpan, TERMINAL_LABELS } from '../codec/index.js';
import type { BlockingField } from '../common/pipeline.js';
import type { Candidate } from './collect.js';
import { allIncluded, newestIncluded, type Selection } from './select.js';
import { enumValue, reviewDomain, reviewerName, verdictOf } from './verdicts.js';

/** The markers that say automated processing stopped and a person is needed (§4.3). */
export const HALT_MARKERS: readonly string[] = ['GATE_FAILED', 'PUSH_BLOCKED', 'PUSH_FAILED', 'ANCESTRY_FAILED'];

export interface NextPhase {
  phase: string;
  /** One line: which rule decided, and on what. */
  why: string;
  /** The rule that decided (NEXT_PHASE_RULES' name). */
  rule?: string;
}

/** A stage whose recorded Context digest no longer matches its upstream: what the route and the gate name. */
export interface StaleStage {
  type: string;
  url: string;
  recorded: string;
  current: string;
}

/** What the route decides on besides the selection: the pipeline's chain and the rules its file adds. */
export interface RouteFacts {
  chain: readonly string[];
  labels: readonly string[];
  sel: Selection;
  /** Per type, the field values of its own annotation that block (the pipeline file's `blocks`). */
  blocks?: ReadonlyMap<string, readonly BlockingField[]>;
  /** Stages written against an upstream that changed since, in chain order; empty when the file says `stale: ignore`. */
  stale?: readonly StaleStage[];
  /** Where REVIEWER is written (the pipeline file's `on` for it): the pull request by default (§4), or the issue. */
  reviewerOn?: 'issue' | 'pull';
}

const when = (c: Candidate | null) => c?.createdAt ?? '';

type Rule = (f: RouteFacts) => NextPhase | null;

/**
 * `needs-human` stops automated processing (§7.2) for a person, not because
 * the chain is finished: its phase says so, so a gate holds the work item and
 * a board files it under "needs a person" until someone removes the label.
 */
export const NEEDS_HUMAN_WHY = `labelled ${NEEDS_HUMAN}: a person decides, and nothing automated goes on until they remove the label`;
const needsHumanLabel: Rule = ({ labels }) => (labels.includes(NEEDS_HUMAN) ? { phase: 'needs-human', why: NEEDS_HUMAN_WHY } : null);

/** A terminal label stops automated processing (§7.2): the work is over. */
const terminalLabel: Rule = ({ labels }) => {
  const label = labels.find((l) => TERMINAL_LABELS.has(l));
  return label ? { phase: 'none', why: `labelled ${label}, a terminal state: a consumer stops here (§7.2)` } : null;
};

/**
 * The investigation whose verdict speaks for the work item: the newest on an
 * issue of it (the stage is written on the issue, §4.1, and the gate holds a
 * PR to the issues it closes); one on a PR decides nothing.
 */
function investigation(sel: Selection): Candidate | null {
  return (
    allIncluded(sel, 'INVESTIGATOR')
      .filter((c) => c.item.kind === 'issue')
      .at(-1) ?? null
  );
}

/**
 * The reviews that speak: REVIEWER is written on the pull request (§4), so one
 * on an issue reviews no code and is passed over, as the gate passes it over —
 * unless the pipeline file says its reviewers write on the issue (`on: issue`).
 */
function reviews(sel: Selection, on: RouteFacts['reviewerOn']): Candidate[] {
  return allIncluded(sel, 'REVIEWER').filter((c) => on === 'issue' || c.item.kind === 'pull');
}

const investigationInvalid: Rule = ({ sel }) => {
  const inv = investigation(sel);
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

const designShipped: Rule = ({ sel }) => {
  const shipped = newestIncluded(sel, 'DESIGN_SHIPPED');
  return shipped ? { phase: 'none', why: `DESIGN_SHIPPED is written (${shipped.url}): the design pipeline is closed (§4.4)` } : null;
};

/**
 * The stage §4.4's "back to generation" names: the one the chain places right
 * after DESIGN_SPEC (the generate stage, or the render → critique loop that
 * starts with it when the file names no generate stage of its own).
 */
function generationStage(chain: readonly string[]): string {
  const at = chain.indexOf('DESIGN_SPEC');
  return at >= 0 && at + 1 < chain.length ? chain[at + 1] : 'CRITIQUE';
}

/**
 * §4.4's loops, decided by the newest CRITIQUE or USER_FEEDBACK of the chain
 * (each iteration writes one, so the newest is where the loop stands).
 */
const designLoop: Rule = ({ chain, sel }) => {
  const critique = chain.includes('CRITIQUE') ? newestIncluded(sel, 'CRITIQUE') : null;
  const feedback = chain.includes('USER_FEEDBACK') ? newestIncluded(sel, 'USER_FEEDBACK') : null;
  if (critique && (feedback === null || when(critique) > when(feedback))) {
    const verdict = verdictOf(critique.annotation);
    if (verdict === 'ITERATE')
      return {
        phase: 'CRITIQUE',
        why: `the newest CRITIQUE says ITERATE (${critique.url}): the page is revised and critiqued again (§4.4)`,
      };
    if (verdict === 'BUDGET-EXHAUSTED')
      return {
        phase: 'needs-human',
        why: `the newest CRITIQUE says BUDGET-EXHAUSTED (${critique.url}): the iteration budget is spent, a person decides (§4.4)`,
      };
    if (feedback && enumValue(feedback.annotation, 'Satisfied')?.toUpperCase() === 'NO')
      return {
        phase: 'USER_FEEDBACK',
        why: `the page was re-generated and critiqued after the user was not satisfied (${feedback.url}): the user is asked again (§4.4)`,
      };
    return null;
  }
  if (feedback && enumValue(feedback.annotation, 'Satisfied')?.toUpperCase() === 'NO') {
    const generation = generationStage(chain);
    return {
      phase: generation,
      why: `the newest USER_FEEDBACK says Satisfied: no (${feedback.url}): back to generation, ${generation} (§4.4)`,
    };
  }
  return null;
};

const decomposition: Rule = ({ sel }) => {
  const inv = investigation(sel);
  if (!inv || enumValue(inv.annotation, 'Decomposition Assessment') !== 'YES') return null;
  const done = newestIncluded(sel, 'DECOMPOSED');
  return done
    ? { phase: 'none', why: `decomposed (${done.url}): each sub-issue runs its own pipeline` }
    : { phase: 'DECOMPOSED', why: `the INVESTIGATOR assessed decomposition YES (${inv.url}) and no DECOMPOSED is written` };
};

const changesRequested: Rule = ({ sel, reviewerOn }) => {
  const build = newestIncluded(sel, 'BUILDER');
  // Per domain, the newest REVIEWER decides (a newer APPROVED of the same domain lifts it).
  const newestPerDomain = new Map<string, Candidate>();
  for (const r of reviews(sel, reviewerOn)) newestPerDomain.set(reviewDomain(r.annotation), r);
  const blocking = [...newestPerDomain.values()].filter((r) => verdictOf(r.annotation) === 'CHANGES_REQUESTED');
  if (blocking.length === 0) return null;
  const open = blocking.filter((r) => when(r) > when(build));
  if (open.length > 0)
    return {
      phase: 'BUILDER',
      why: `${reviewerName(reviewDomain(open[0].annotation))} requests changes (${open[0].url}): the builder addresses them`,
    };
  return {
    phase: 'REVIEWER',
    why: `a BUILDER came after the ${reviewerName(reviewDomain(blocking[0].annotation))} that requested changes: it is reviewed again`,
  };
};

/**
 * The value of `field` the annotation holds, when its leading word is one of `values` — read as a verdict is
 * (`FAIL — 2 critical findings`, `**FAIL**`, `` `fail` ``: case and emphasis aside), so a reason after the word
 * never hides a blocking value from the route.
 */
export function blockingValue(c: Candidate, b: BlockingField): string | null {
  const raw = getField(c.annotation.fields, b.field);
  if (raw === undefined) return null;
  const named = matchEnum(stripCodeSpan(raw), b.values);
  return named === null ? null : named.toUpperCase();
}

const ownVerdictBlocks: Rule = ({ chain, sel, blocks }) => {
  if (!blocks) return null;
  const build = newestIncluded(sel, 'BUILDER');
  const buildAt = chain.indexOf('BUILDER');
  for (const type of chain) {
    const rules = blocks.get(type) ?? [];
    const c = rules.length > 0 ? newestIncluded(sel, type) : null;
    if (!c) continue;
    for (const b of rules) {
      const value = blockingValue(c, b);
      if (value === null) continue;
      const said = `${type} says ${b.field}: ${value} (${c.url})`;
      if (buildAt < 0 || chain.indexOf(type) < buildAt)
        return { phase: 'needs-human', why: `${said}, which blocks before the build: a person decides` };
      return when(c) > when(build)
        ? { phase: 'BUILDER', why: `${said}, which blocks: the builder addresses it` }
        : { phase: type, why: `a BUILDER came after ${said}: it runs again` };
    }
  }
  return null;
};

const staleStage: Rule = ({ stale }) => {
  const first = stale?.[0];
  return first
    ? {
        phase: first.type,
        why: `${first.type} (${first.url}) was written against context ${first.recorded.slice(0, 19)}…, and its upstream is now ${first.current.slice(0, 19)}…: it is stale and runs again`,
      }
    : null;
};

const firstOpenStage: Rule = ({ chain, sel, reviewerOn }) => {
  for (const type of chain) {
    // DECOMPOSED is a stage only for an issue assessed YES (the decomposition rule above).
    if (type === 'DECOMPOSED') continue;
    const done = type === 'REVIEWER' ? reviews(sel, reviewerOn).length > 0 : newestIncluded(sel, type) !== null;
    if (!done) return { phase: type, why: `${type} is the first stage of the chain with no complete trusted annotation` };
  }
  return null;
};

const chainComplete: Rule = ({ chain }) => ({ phase: 'none', why: `every stage of the chain (${chain.join(', ')}) is complete` });

/** The table, in the order the rules are read. */
export const NEXT_PHASE_RULES: ReadonlyArray<{ name: string; rule: Rule }> = [
  { name: 'needs a person', rule: needsHumanLabel },
  { name: 'terminal label', rule: terminalLabel },
  { name: 'investigation invalid', rule: investigationInvalid },
  { name: 'halted after the build', rule: haltedAfterBuild },
  { name: 'design shipped', rule: designShipped },
  { name: 'design loop', rule: designLoop },
  { name: 'decomposition', rule: decomposition },
  { name: 'changes requested', rule: changesRequested },
  { name: 'own verdict blocks', rule: ownVerdictBlocks },
  { name: 'stale stage', rule: staleStage },
  { name: 'first open stage', rule: firstOpenStage },
  { name: 'chain complete', rule: chainComplete },
];

/** The first rule of the table that decides (the last one, chain complete, always does). */
export function route(facts: RouteFacts): NextPhase {
  return NEXT_PHASE_RULES.reduce<NextPhase | null>((found, { name, rule }) => {
    if (found) return found;
    const decided = rule(facts);
    return decided && { ...decided, rule: name };
  }, null) as NextPhase;
}

/**
 * Whether a gate may pass a work item the route sends to `phase`: never when
 * it is to be closed, a person is needed, or a stage up to the build (every
 * stage, when the chain has no BUILDER) is still to run. A stage after the
 * build (a REVIEWER) is the gate's own rules' to decide.
 */
export function routeHoldsGate(chain: readonly string[], phase: string): boolean {
  if (phase === 'none') return false;
  if (phase === 'close' || phase === 'needs-human' || phase === 'DECOMPOSED') return true;
  const buildAt = chain.indexOf('BUILDER');
  const at = chain.indexOf(phase);
  if (at < 0) return false;
  return buildAt < 0 || at <= buildAt;
}
