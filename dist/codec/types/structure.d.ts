import { type LineTable } from './lines.js';
import { type TypeSpec } from './registry.js';
import type { Annotation, Finding, Trajectory } from './types.js';
/** The part of an annotation the Markdown reader fills. */
export type Structure = Pick<Annotation, 'title' | 'fields' | 'fieldList' | 'sections' | 'tables' | 'checklist' | 'fieldAliases'>;
/**
 * Set an own property even when the key is `__proto__`: keys come from comment
 * text, and a plain assignment would silently drop that one (or, for an
 * object value, change the prototype).
 */
export declare function setOwn(target: Record<string, string>, key: string, value: string): void;
/** `**Key**: value` or `**Key:** value` at column 0; null for any other line. */
export declare function parseFieldLine(text: string): {
    key: string;
    value: string;
} | null;
/** `## Title` / `### Heading`: level and text, or null. */
export declare function parseHeading(text: string): {
    level: number;
    text: string;
} | null;
/** A field, section or cell by key: the exact key first, else any letter case (the spec writes `Task type` and `Task Type`). */
export declare function getField(record: Record<string, string>, key: string): string | undefined;
/**
 * Reads fields, sections, tables and checklists from the annotation's content
 * lines (tag and sentinel lines already removed): one pass, then the
 * section texts, the fields templates write as sections, and known aliases.
 */
export declare function readStructure(t: LineTable, lines: number[], spec: TypeSpec | undefined): Structure;
/** REVIEWER findings: `- **Severity**: X` opens one; the indented bold lines after it fill it. */
export declare function readFindings(t: LineTable, lines: number[]): Finding[];
/** The number after the first `PR #` followed by a digit (up to nine digits), or null. */
export declare function prNumberIn(text: string): number | null;
/** The code span after the first `Branch:` that has one (at most four spaces between, 1–255 characters in it), or null. */
export declare function branchIn(text: string): string | null;
export declare function readTrajectory(structure: Structure): Trajectory;
/** The first ```jsonc / ```json block, parsed; null when absent or unreadable. */
export declare function readDesignSpec(t: LineTable, lines: number[]): unknown;
