import type { Annotation, ValidationResult } from './types.js';
/** Does `value` start with one of `values` (case-insensitively), followed by a non-word character? */
export declare function matchEnum(value: string, values: readonly string[]): string | null;
export declare function isIso8601(value: string): boolean;
export declare function validate(a: Annotation): ValidationResult;
