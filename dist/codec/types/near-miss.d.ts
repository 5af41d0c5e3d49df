import type { Annotation } from './types.js';
export interface NearMiss {
    /** 1-based line of the body. */
    line: number;
    message: string;
}
/** Edit distance between two short names (type names are at most a few dozen characters). */
export declare function editDistance(a: string, b: string): number;
/**
 * The reserved type `name` is most likely a typo of, or null: not reserved
 * itself, and within one edit per five letters (at least one) of a reserved name.
 */
export declare function nearestReserved(name: string): string | null;
/** The near misses in `body`, given the annotations the parser found in it. */
export declare function nearMisses(body: string, found: readonly Annotation[]): NearMiss[];
