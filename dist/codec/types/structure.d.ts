import { type Line } from './lines.js';
import type { TypeSpec } from './registry.js';
import type { ChecklistItem, Field, Finding, Table, Trajectory } from './types.js';
/** A line of the annotation with what the scanner learned about it. */
export interface ContentLine {
    index: number;
    text: string;
    /** Inside a fenced code block, delimiters included. */
    fenced: boolean;
    /** An opening fence delimiter (its info string may matter). */
    fenceOpen: boolean;
}
export interface Structure {
    title: string | null;
    fields: Record<string, string>;
    fieldList: Field[];
    sections: Record<string, string>;
    tables: Table[];
    checklist: ChecklistItem[];
}
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
declare function lookupKey(record: Record<string, string>, key: string): string | undefined;
export { lookupKey as getCaseInsensitive };
/**
 * Reads fields, sections, tables and checklists from the annotation's content
 * lines (tag and sentinel lines already removed).
 */
export declare function readStructure(lines: ContentLine[], spec: TypeSpec | undefined): Structure;
/** REVIEWER findings: `- **Severity**: X` opens one; the indented bold lines after it fill it. */
export declare function readFindings(lines: ContentLine[]): Finding[];
export declare function readTrajectory(structure: Structure): Trajectory;
/** The first ```jsonc / ```json block, parsed; null when absent or unreadable. */
export declare function readDesignSpec(lines: ContentLine[]): {
    found: boolean;
    value: unknown;
};
/** JSON with `//` and `/* *\/` comments and trailing commas; null when it does not parse. */
export declare function parseJsonc(text: string): unknown;
export declare function linesToContent(lines: Line[], fenced: Uint8Array, indices: number[]): ContentLine[];
