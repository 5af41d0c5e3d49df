/**
 * The `workflow:*` label state machine as deployed (implementation-notes.md §4), in one table.
 * needs-human carries no prefix and is a sticky flag beside the workflow label.
 */

export const NEEDS_HUMAN = 'needs-human';
export const WORKFLOW_PREFIX = 'workflow:';

export const WORKFLOW_STATES = [
  'investigating',
  'ready-to-build',
  'building',
  'in-review',
  'awaiting-merge',
  'merged',
  'invalid',
  'decomposed',
  'engine-error',
] as const;

export type WorkflowState = (typeof WORKFLOW_STATES)[number];

export const RESERVED_LABELS: readonly string[] = [...WORKFLOW_STATES.map((s) => WORKFLOW_PREFIX + s), NEEDS_HUMAN];

/** Terminal: a consumer stops processing the work item (§7.2). */
export const TERMINAL_LABELS: ReadonlySet<string> = new Set([
  'workflow:merged',
  'workflow:invalid',
  'workflow:decomposed',
  'workflow:awaiting-merge',
  'workflow:engine-error',
  NEEDS_HUMAN,
]);

/** Terminal states that end the work without a build: not held to a gate's required types. */
export const ENDED_WITHOUT_BUILD: ReadonlySet<string> = new Set(['workflow:invalid', 'workflow:decomposed']);

/** Allowed moves between workflow labels. `any → needs-human | engine-error` is added below. */
const TRANSITIONS: Record<string, readonly string[]> = {
  'workflow:investigating': ['workflow:ready-to-build', 'workflow:invalid', 'workflow:decomposed'],
  'workflow:ready-to-build': ['workflow:building', 'workflow:invalid'],
  'workflow:building': ['workflow:in-review', 'workflow:ready-to-build', 'workflow:invalid'],
  'workflow:in-review': ['workflow:merged', 'workflow:building', 'workflow:invalid', 'workflow:awaiting-merge'],
  // implementation-notes.md lists no move out of awaiting-merge; a human merging the PR is the one a reader expects.
  'workflow:awaiting-merge': ['workflow:merged'],
  'workflow:merged': [],
  'workflow:invalid': [],
  'workflow:decomposed': [],
  'workflow:engine-error': [],
};

const FROM_ANY = new Set(['workflow:engine-error', NEEDS_HUMAN]);

export function isReservedLabel(name: string): boolean {
  return RESERVED_LABELS.includes(name);
}

export function isWorkflowLabel(name: string): boolean {
  return name.startsWith(WORKFLOW_PREFIX);
}

export function isTerminal(label: string): boolean {
  return TERMINAL_LABELS.has(label);
}

/** The current state from an item's labels: its workflow label, else needs-human, else none. */
export function currentState(labels: readonly string[]): string {
  const workflow = labels.filter((l) => isReservedLabel(l) && isWorkflowLabel(l));
  if (workflow.length > 0) return workflow[0];
  return labels.includes(NEEDS_HUMAN) ? NEEDS_HUMAN : 'none';
}

export function anyTerminal(labels: readonly string[]): boolean {
  return labels.some((l) => TERMINAL_LABELS.has(l));
}

export interface LabelPlan {
  /** Labels to add (in order). */
  add: string[];
  /** Labels to remove, after the add succeeds. */
  remove: string[];
}

/** A label move the state machine refuses: the caller's mistake, not a failure. */
export class LabelTransitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelTransitionError';
  }
}

/**
 * Plan moving an item with `labels` to the label `to`. Returns the plan, or
 * throws a LabelTransitionError naming the refused move. Exclusive: every other
 * workflow label goes; needs-human stays unless the move is to awaiting-merge.
 */
export function planTransition(labels: readonly string[], to: string): LabelPlan {
  if (!isReservedLabel(to)) throw new LabelTransitionError(`"${to}" is not a reserved label (${RESERVED_LABELS.join(', ')})`);
  const workflow = labels.filter(isWorkflowLabel);
  if (to === NEEDS_HUMAN) {
    return { add: labels.includes(NEEDS_HUMAN) ? [] : [NEEDS_HUMAN], remove: [] };
  }
  const others = workflow.filter((l) => l !== to);
  const already = workflow.includes(to);
  if (!already && !FROM_ANY.has(to)) {
    const reserved = workflow.filter(isReservedLabel);
    // No current state: the item may enter the machine anywhere.
    const allowed = reserved.length === 0 || reserved.some((from) => TRANSITIONS[from]?.includes(to));
    if (!allowed) {
      const from = reserved.join(' + ');
      const options = [...new Set(reserved.flatMap((f) => TRANSITIONS[f] ?? []))];
      throw new LabelTransitionError(
        `moving ${from} → ${to} is not an allowed transition (allowed from ${from}: ${[...options, 'workflow:engine-error', NEEDS_HUMAN].join(', ')})`,
      );
    }
  }
  const remove = [...others];
  if (to === 'workflow:awaiting-merge' && labels.includes(NEEDS_HUMAN)) remove.push(NEEDS_HUMAN);
  return { add: already ? [] : [to], remove };
}
