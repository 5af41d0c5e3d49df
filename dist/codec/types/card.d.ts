import type { Card } from './types.js';
export declare function canonicalJson(value: unknown): string;
export declare function sha8(text: string): string;
export declare function cardValue(payload: unknown): string;
export declare function readCard(value: string | null): Card | null;
/** Errors for a CARD's value; empty when it is well formed. */
export declare function cardErrors(card: Card | null): string[];
