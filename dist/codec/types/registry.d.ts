export type Category = 'lifecycle' | 'cross-artifact' | 'control' | 'design' | 'audit' | 'deployed';
/** How a type's value travels: a Markdown body, a value inside the tag, or nothing. */
export type Form = 'body' | 'inline' | 'marker' | 'described-marker';
export type SectionKind = 'text' | 'table' | 'checklist' | 'list' | 'numbered';
/**
 * How much a field or section is asked for:
 * - `required`: the spec makes it normative, or deployed readers depend on it
 *   and the reference codec enforces it — absent is an error;
 * - `template`: the spec's template shows it, nothing normative asks for it —
 *   absent is a warning (an error only under forge-check `validation: template`);
 * - `optional`: absent says nothing.
 */
export type Presence = 'required' | 'template' | 'optional';
export interface SectionSpec {
    heading: string;
    kind: SectionKind;
    /** Column headers, for kind 'table'. */
    columns?: string[];
    presence?: Presence;
}
export interface FieldSpec {
    name: string;
    presence: Presence;
    /** Why it is required, when the spec itself does not say so (cited in docs/annotation-types.md). */
    because?: string;
    /** The template writes the value as a code span (`` **Branch**: `…` ``); emit does the same. */
    codeSpan?: boolean;
    /** Allowed leading values; compared case-insensitively against the value's first token(s). */
    values?: readonly string[];
    /** When false, a value outside `values` is a warning rather than an error. */
    strictValues?: boolean;
    /**
     * Read this field from a `### {name}` section whose first line is `**VALUE** — reason`
     * when no `**{name}**:` line exists (the INVESTIGATOR template's own shape).
     */
    fromSection?: boolean;
    /** Extra check on the value; returns an error text or null. */
    format?: 'iso8601';
}
export interface TypeSpec {
    type: string;
    category: Category;
    /** Spec section cited in errors. */
    ref: string;
    form: Form;
    /** Completion sentinel text without the comment delimiters, or null when presence is completion. */
    complete: string | null;
    /** Title written under the tag by the emitter (`## {title}`). */
    title?: string;
    fields: FieldSpec[];
    sections: SectionSpec[];
    /** Table written right after the title, before the fields (TRAJECTORY's phase table). */
    leadTable?: {
        columns: string[];
        presence: Presence;
    };
    /**
     * Other spellings deployed producers write for a template field, read as the
     * field with a warning: written key (case-insensitive) → the field's name.
     */
    aliases?: Record<string, string>;
    /**
     * Sentinel lines deployed pipelines close this type with that are not its
     * completion sentinel: sentinel → what to tell the maintainer. The annotation
     * stays incomplete (§3.2); the message replaces the generic "missing".
     */
    misclosures?: Record<string, string>;
    /** Special structure readers for this type. */
    structure?: 'reviewer-findings' | 'trajectory' | 'design-spec' | 'design-rationale' | 'card';
    /** Where the annotation lives when it is not an ordinary comment. */
    postedIn?: 'issue-body' | 'milestone' | 'gist-description';
    /** Bold-key syntax the spec template uses for this type. */
    keyStyle: 'colon-after' | 'colon-inside';
}
/** §4.1's task types, in the template's order. */
export declare const TASK_TYPES: readonly string[];
export declare const TYPES: readonly TypeSpec[];
/** The field `key` is another spelling of for `type` (registry `aliases`, any letter case), or undefined. */
export declare function aliasFor(type: string, key: string): string | undefined;
export declare function typeSpec(type: string): TypeSpec | undefined;
export declare function isReserved(type: string): boolean;
export declare function isControl(type: string): boolean;
export declare function isInline(type: string): boolean;
/** Type identifiers this codec reads: `[A-Z][A-Z0-9_]*` (implementation-notes.md §2). */
export declare function isTypeName(s: string): boolean;
/** The stricter `[A-Z_]+` grammar the reference and text-contains readers use. */
export declare function isReferenceTypeName(s: string): boolean;
/**
 * The sentinels that mark `type` partial (§3.3 and implementation-notes.md §2):
 * the generic `{TYPE}:PARTIAL`, the `FORGE:{TYPE}:PARTIAL` shape, and the
 * completion sentinel with COMPLETE replaced by PARTIAL. The last is what we emit.
 */
export declare function partialSentinels(type: string): string[];
/**
 * The completion sentinel the emitter writes: the type's own, or §3.2's
 * generic `{TYPE}:COMPLETE` for a custom type (a reader matching the spec's
 * line exactly sees it). Null for types complete by presence.
 */
export declare function emittedCompleteSentinel(type: string): string | null;
/** The partial sentinel the emitter writes: the completion sentinel with PARTIAL, else §3.3's `{TYPE}:PARTIAL`. */
export declare function emittedPartialSentinel(type: string): string;
/**
 * The sentinels that complete `type`. A reserved type has exactly its own; a
 * custom type accepts `FORGE:{T}:COMPLETE` or `{T}:COMPLETE` (implementation-notes.md §2) and
 * nothing else, so a foreign sentinel never completes it.
 */
export declare function completionSentinels(type: string): string[];
/** Both sentinel sets of a type, computed once per type. */
export declare function sentinelSets(type: string): {
    complete: ReadonlySet<string>;
    partial: ReadonlySet<string>;
};
/** Types complete by presence alone: reserved types without a sentinel, markers, inline values. */
export declare function completeWhenPresent(type: string): boolean;
