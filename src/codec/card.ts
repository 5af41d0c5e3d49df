/**
 * FORGE:CARD — `v1 sha:{8 hex} b64:{base64url}` (implementation-notes.md §3). The payload is
 * canonical JSON (keys sorted recursively, one line, UTF-8); the base64url
 * alphabet cannot spell `<!--` or `-->`, so the machine surface needs no escaping.
 */
import { createRequire } from 'node:module';
import type { Card } from './types.js';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const s = JSON.stringify(value);
    if (s === undefined) throw new Error('CARD payload holds a value JSON cannot represent');
    return s;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/**
 * node:crypto, loaded the first time a CARD is read or written: loading it
 * takes about 2 ms, most comments hold no CARD, and the codec is imported by
 * every step and by the CLI.
 */
let crypto: typeof import('node:crypto') | undefined;

export function sha8(text: string): string {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto.createHash('sha256').update(text).digest('hex').slice(0, 8);
}

export function cardValue(payload: unknown): string {
  const json = canonicalJson(payload);
  const b64 = Buffer.from(json).toString('base64url');
  return `v1 sha:${sha8(json)} b64:${b64}`;
}

/** Marks text that is not JSON (JSON.parse never returns a symbol). */
const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

export function readCard(value: string | null): Card | null {
  if (value === null) return null;
  const parts = value.split(' ').filter((p) => p !== '');
  if (parts.length !== 3 || !parts[1].startsWith('sha:') || !parts[2].startsWith('b64:')) return null;
  const sha = parts[1].slice(4);
  const b64 = parts[2].slice(4);
  const bytes = Buffer.from(b64, 'base64url');
  // Only the exact encoding of its own bytes is accepted: no padding, no stray
  // bits, no character outside the alphabet (Buffer.from skips those silently).
  const exact = bytes.toString('base64url') === b64;
  const text = bytes.toString('utf8');
  const parsed = exact ? parseJson(text) : NOT_JSON;
  const json = parsed === NOT_JSON ? null : text;
  const payload = parsed === NOT_JSON ? null : parsed;
  return { version: parts[0], sha, b64, payload, json };
}

/** Errors for a CARD's value; empty when it is well formed. */
export function cardErrors(card: Card | null): string[] {
  if (!card) return ['value is not of the form `v1 sha:{8 hex} b64:{base64url}`'];
  const errors: string[] = [];
  if (card.version !== 'v1') errors.push(`unknown CARD version "${card.version}"`);
  if (!/^[0-9a-f]{8}$/.test(card.sha)) errors.push('sha is not 8 lower-case hex digits');
  if (card.json === null) {
    errors.push('b64 does not decode to JSON');
    return errors;
  }
  if (canonicalJson(card.payload) !== card.json) errors.push('payload is not canonical JSON (sorted keys, one line)');
  if (sha8(card.json) !== card.sha) errors.push(`sha:${card.sha} does not match the payload (sha:${sha8(card.json)})`);
  return errors;
}
