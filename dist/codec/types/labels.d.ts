/**
 * The `workflow:*` label state machine as deployed (implementation-notes.md §4), in one table.
 * needs-human carries no prefix and is a sticky flag beside the workflow label.
 */
export declare const NEEDS_HUMAN = "needs-human";
export declare const WORKFLOW_PREFIX = "workflow:";
export declare const WORKFLOW_STATES: readonly ["investigating", "ready-to-build", "building", "in-review", "awaiting-merge", "merged", "invalid", "decomposed", "engine-error"];
export type WorkflowState = (typeof WORKFLOW_STATES)[number];
export declare const RESERVED_LABELS: readonly string[];
/** Terminal: a consumer stops processing the work item (§7.2). */
export declare const TERMINAL_LABELS: ReadonlySet<string>;
/** Terminal states that end the work without a build: not held to a gate's required types. */
export declare const ENDED_WITHOUT_BUILD: ReadonlySet<string>;
export declare function isReservedLabel(name: string): boolean;
export declare function isWorkflowLabel(name: string): boolean;
export declare function isTerminal(label: string): boolean;
/** The current state from an item's labels: its workflow label, else needs-human, else none. */
export declare function currentState(labels: readonly string[]): string;
export declare function anyTerminal(labels: readonly string[]): boolean;
export interface LabelPlan {
    /** Labels to add (in order). */
    add: string[];
    /** Labels to remove, after the add succeeds. */
    remove: string[];
}
/** A label move the state machine refuses: the caller's mistake, not a failure. */
export declare class LabelTransitionError extends Error {
    constructor(message: string);
}
/**
 * Plan moving an item with `labels` to the label `to`. Returns the plan, or
 * throws a LabelTransitionError naming the refused move. Exclusive: every other
 * workflow label goes; needs-human stays unless the move is to awaiting-merge.
 */
export declare function planTransition(labels: readonly string[], to: string): LabelPlan;
