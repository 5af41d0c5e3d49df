/** forge-emit's decision and in-place edit on plain annotations: no runner, no server. */
import { emit, parse } from '../src/codec/index.js';
import { sameText } from '../src/common/line-ends.js';
import { decide, splice, type Candidate } from '../src/forge-emit/logic.js';
import { located } from './support/work-items.js';

const found = (text: string): Candidate => located(parse(text)[0], 1);
const complete = found(emit('CONTEXT', { body: 'one' }));
const partial = found(emit('CONTEXT', { body: 'half', status: 'partial' }));
const interrupted = found('<!-- FORGE:CONTEXT -->\ncut off');

test('skip keeps the first complete one; replace edits the last complete one', () => {
  const later = found(emit('CONTEXT', { body: 'two' }));
  expect(decide([complete, later], 'CONTEXT', 'skip')).toMatchObject({ kind: 'skip', existing: complete });
  expect(decide([complete, later], 'CONTEXT', 'replace')).toMatchObject({ kind: 'splice', existing: later });
});

test('a partial or interrupted one is replaced in place in every mode (§3.3), the newest first', () => {
  for (const mode of ['skip', 'replace', 'append'] as const) {
    expect(decide([partial, interrupted], 'CONTEXT', mode)).toMatchObject({ kind: 'splice', existing: interrupted });
  }
  expect(decide([partial], 'CONTEXT', 'skip').kind === 'splice' && decide([partial], 'CONTEXT', 'skip').why).toContain(
    'partial CONTEXT in place',
  );
});

test('nothing there, or append with complete ones: add', () => {
  expect(decide([], 'CONTEXT', 'skip')).toEqual({ kind: 'add', why: 'no CONTEXT yet' });
  expect(decide([complete], 'CONTEXT', 'append').kind).toBe('add');
});

test('splice replaces the tag through the last sentinel and keeps what follows', () => {
  const body = `Intro\n\n${emit('CONTEXT', { body: 'old', status: 'partial' })}\n\n### Appended later\nkept`;
  const [a] = parse(body);
  const next = splice(body, a, emit('CONTEXT', { body: 'new' }));
  expect(next.startsWith('Intro\n\n<!-- FORGE:CONTEXT -->')).toBe(true);
  expect(next.endsWith('<!-- FORGE:CONTEXT:COMPLETE -->\n\n### Appended later\nkept')).toBe(true);
  expect(parse(next)[0].sentinelState).toBe('complete');
});

test('sameText ignores line ends only', () => {
  expect(sameText('a\r\nb', 'a\nb')).toBe(true);
  expect(sameText('a\rb', 'a\nb')).toBe(true);
  expect(sameText('a\nb', 'a\n b')).toBe(false);
});
