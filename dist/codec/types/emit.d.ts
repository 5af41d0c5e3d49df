import type { Finding } from './types.js';
export type Scalar = string | number | boolean | null;
export type SectionValue = string | Array<string | {
    checked?: boolean;
    text: string;
} | Record<string, Scalar>>;
export interface EmitInput {
    /** `**Key**: value` lines; a mapping or ordered pairs. Arrays are joined with ", ". */
    fields?: Record<string, unknown> | Array<[string, unknown]>;
    /** `### Heading` → Markdown, or a list of items / table rows rendered by the section's kind. */
    sections?: Record<string, SectionValue>;
    /** Rows of the table written after the title (TRAJECTORY's phase table). */
    table?: Array<Record<string, Scalar>>;
    /** REVIEWER findings, written under `### Findings`. */
    findings?: Array<Partial<Finding>>;
    /** Free Markdown placed before the sentinel. */
    body?: string;
    /** Inline value (§3.4), or a marker's description. */
    value?: string;
    /** CARD payload; encoded as `v1 sha:… b64:…`. */
    card?: unknown;
    status?: 'complete' | 'partial';
    /** The `## ` title; defaults to the type's template title. */
    title?: string;
}
export declare class EmitError extends Error {
    constructor(message: string);
}
export interface Emitted {
    text: string;
    warnings: string[];
}
/**
 * A value as a CommonMark code span: a backtick run longer than any inside it,
 * padded with a space where the value starts or ends with a backtick.
 */
export declare function codeSpan(value: string): string;
/**
 * The text inside one enclosing code span (`` `fix/x` `` → `fix/x`, CommonMark's
 * one-space padding removed), or the value unchanged when it is not one. The
 * one helper every reader of a code-span field (BUILDER's Branch) uses.
 */
export declare function stripCodeSpan(value: string): string;
/** The annotation text and any warnings. Throws EmitError on input it cannot write faithfully. */
export declare function emitAnnotation(type: string, input?: EmitInput): Emitted;
/**
 * §13.2's `emit(type, fields)`: the second argument is either the full
 * EmitInput (fields, sections, body, …) or, as the spec writes it, the fields
 * themselves (`emit('BUILDER', { Branch: 'fix/x', Commits: 'a1b2c3d' })`) —
 * told apart by its keys: an object none of whose keys EmitInput has is a
 * field map. One that mixes the two is refused (emitAnnotation names the
 * stray keys): its intent cannot be told, and nothing given is ever dropped.
 */
export declare function emit(type: string, input?: EmitInput | Record<string, unknown>): string;
/** The partial sentinel line for a type (§3.3), in the shape mirroring its completion sentinel. */
export declare function emitPartial(type: string): string;
