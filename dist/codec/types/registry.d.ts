/**
 * The type registry: every annotation type this codec knows, as data.
 *
 * Adding a type means adding a row here. The parser, validator and emitter
 * read these rows; none of them branches on a type name.
 */
export type Category = 'lifecycle' | 'cross-artifact' | 'control' | 'design' | 'audit' | 'deployed';
/** How a type's value travels: a Markdown body, a value inside the tag, or nothing. */
export type Form = 'body' | 'inline' | 'marker' | 'described-marker';
export type SectionKind = 'text' | 'table' | 'checklist' | 'list' | 'numbered';
export interface SectionSpec {
    heading: string;
    kind: SectionKind;
    /** Column headers, for kind 'table'. */
    columns?: string[];
    required?: boolean;
}
export interface FieldSpec {
    name: string;
    required: boolean;
    /** Allowed leading values; compared case-insensitively against the value's first token(s). */
    values?: string[];
    /** When false, a value outside `values` is a warning rather than an error. */
    strictValues?: boolean;
    /**
     * Read this field from a `### {name}` section whose first line is `**VALUE** — reason`
     * when no `**{name}**:` line exists (the INVESTIGATOR template's own shape).
     */
    fromSection?: boolean;
    /** Extra check on the value; returns an error text or null. */
    format?: 'iso8601' | 'url' | 'nonempty';
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
        required: boolean;
        name: string;
    };
    /** Special structure readers for this type. */
    structure?: 'reviewer-findings' | 'trajectory' | 'design-spec' | 'design-rationale' | 'card';
    /** Where the annotation lives when it is not an ordinary comment. */
    location?: 'issue-body' | 'milestone' | 'gist-description';
    /** Bold-key syntax the spec template uses for this type. */
    keyStyle: 'colon-after' | 'colon-inside';
}
export declare const TYPES: readonly TypeSpec[];
export declare function typeSpec(type: string): TypeSpec | undefined;
export declare function isReserved(type: string): boolean;
export declare function isControl(type: string): boolean;
export declare function isInline(type: string): boolean;
/** Type identifiers this codec reads: `[A-Z][A-Z0-9_]*` (NOTES.md §2). */
export declare function isTypeName(s: string): boolean;
/** The stricter `[A-Z_]+` grammar the reference and text-contains readers use. */
export declare function isReferenceTypeName(s: string): boolean;
/**
 * The sentinels that mark `type` partial (§3.3 and NOTES.md §2): the generic
 * `{TYPE}:PARTIAL`, the `FORGE:{TYPE}:PARTIAL` shape, and the completion
 * sentinel with COMPLETE replaced by PARTIAL. The last is what we emit.
 */
export declare function partialSentinels(type: string): string[];
/** The partial sentinel the emitter writes. */
export declare function emittedPartialSentinel(type: string): string;
/**
 * The sentinels that complete `type`. A reserved type has exactly its own; a
 * custom type accepts `FORGE:{T}:COMPLETE` or `{T}:COMPLETE` (NOTES.md §2) and
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
export declare const TASK_TYPE_VALUES: string[];
