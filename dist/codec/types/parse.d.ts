import type { Annotation } from './types.js';
/** Every annotation in a comment body, in order. Never throws; unknown types are kept (§7.2). */
export declare function parse(body: string): Annotation[];
/** The annotations of one type in a body. */
export declare function findAnnotations(body: string, type: string): Annotation[];
