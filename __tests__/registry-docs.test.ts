/**
 * docs/annotation-types.md is the registry as users read it: rendered here
 * from the source registry, it must equal the committed page. A registry edit
 * (a field's presence, a value list, an alias, a title) shows up as a diff.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error -- a plain ES module shared with scripts/annotation-types.mjs; no types.
import { render } from '../scripts/annotation-types-render.mjs';
import { completionSentinels, emittedPartialSentinel, partialSentinels, TYPES, typeSpec } from '../src/codec/index.js';

const ROOT = join(new URL('.', import.meta.url).pathname, '..');

test('the committed type table is the source registry, rendered', () => {
  expect(render(TYPES)).toBe(readFileSync(join(ROOT, 'docs', 'annotation-types.md'), 'utf8'));
});

test('every type has a distinct name, a spec reference, and a form its sentinel fits', () => {
  expect(new Set(TYPES.map((t) => t.type)).size).toBe(TYPES.length);
  for (const t of TYPES) {
    expect(typeSpec(t.type)).toBe(t);
    expect(t.ref).toMatch(/^(§4\.[1-5]|implementation-notes\.md §3)$/);
    if (t.form !== 'body') expect(t.complete).toBeNull();
  }
});

test('sentinel sets: reserved types have exactly their own; custom types both generic shapes', () => {
  expect(completionSentinels('BUILDER')).toEqual(['FORGE:BUILDER:COMPLETE']);
  expect(completionSentinels('CONTRACT')).toEqual([]);
  expect(completionSentinels('ACME')).toEqual(['FORGE:ACME:COMPLETE', 'ACME:COMPLETE']);
  expect(partialSentinels('INVESTIGATOR')).toEqual(['INVESTIGATOR:PARTIAL', 'FORGE:INVESTIGATOR:PARTIAL', 'INVESTIGATION:PARTIAL']);
  expect(partialSentinels('CONTRACT')).toEqual(['CONTRACT:PARTIAL', 'FORGE:CONTRACT:PARTIAL']);
  expect(emittedPartialSentinel('CONTRACT')).toBe('CONTRACT:PARTIAL');
  expect(emittedPartialSentinel('ACME')).toBe('ACME:PARTIAL');
});
