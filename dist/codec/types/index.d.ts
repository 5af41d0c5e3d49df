/**
 * The FORGE codec: parse, validate and emit annotations (spec v1.0), the type
 * registry, and the label state machine. No GitHub code lives here.
 */
export { parse, findAnnotations } from './parse.js';
export { validate, matchEnum, isIso8601 } from './validate.js';
export { emit, emitAnnotation, emitPartial, EmitError, codeSpan, stripCodeSpan, type EmitInput, type Emitted, type SectionValue, } from './emit.js';
export { encode, decode, foldLine } from './escape.js';
export { canonicalJson, cardValue, readCard } from './card.js';
export { TYPES, typeSpec, isReserved, isControl, isInline, isTypeName, isReferenceTypeName, completionSentinels, emittedCompleteSentinel, emittedPartialSentinel, TASK_TYPES, partialSentinels, type TypeSpec, type FieldSpec, type SectionSpec, type Category, type Presence, } from './registry.js';
export * from './labels.js';
export type * from './types.js';
export { getField } from './structure.js';
export { oneLine, quote } from './quote.js';
export { nearMisses, nearestReserved, editDistance, type NearMiss } from './near-miss.js';
export { openingFence, closesFence, type Fence } from './fences.js';
import type { Annotation, ValidationResult } from './types.js';
/** GitHub's limit on a comment, issue or milestone body. */
export declare const MAX_BODY_LENGTH = 65536;
export type CheckedAnnotation = Annotation & ValidationResult;
/**
 * parse + validate in one call: what `forge parse` prints. The findings are
 * added to parse's own fresh objects, in a fixed order: copying every
 * annotation into a new one cost a 64 KB body of 2,400 tiny annotations a
 * fifth of its cold parse time, mostly in garbage collection.
 */
export declare function parseAndValidate(body: string): CheckedAnnotation[];
