/** forge-check's decision on plain work items: evaluate() without the runner or a server. */
import { parseTrustPolicy } from '../src/common/trust.js';
import { evaluate, parseRequired } from '../src/decision/evaluate.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { comment, item, STRANGER } from './support/work-items.js';

const trust = parseTrustPolicy(undefined);
const opts = { required: ['INVESTIGATOR', 'BUILDER'], validation: 'strict' as const, trust };

test('present, complete, valid and trusted: conforming', () => {
  const r = evaluate([item(1, [comment(investigator()), comment(builder())])], [], opts);
  expect(r).toMatchObject({ conforming: true, missing: [], incomplete: [], invalid: [], problems: [] });
  expect(r.items[0].types.map((t) => t.status)).toEqual(['ok', 'ok']);
});

test("an untrusted author's annotation is missing, and said so", () => {
  const r = evaluate([item(1, [comment(investigator()), comment(builder(), STRANGER)])], [], opts);
  expect(r.missing).toEqual(['BUILDER']);
  expect(r.problems).toEqual(['issue #1: BUILDER is missing (only untrusted authors wrote one; ignored)']);
  expect(r.items[0].ignored).toMatchObject([{ type: 'BUILDER', author: 'drive-by', association: 'NONE' }]);
});

test('the best of several annotations decides: a complete one beats a partial one', () => {
  const partial = builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->');
  const r = evaluate([item(1, [comment(investigator()), comment(partial), comment(builder())])], [], opts);
  expect(r.conforming).toBe(true);
  const only = evaluate([item(1, [comment(investigator()), comment(partial)])], [], opts);
  expect(only.incomplete).toEqual(['BUILDER']);
  expect(only.problems[0]).toContain('marked partial');
});

test('invalid under strict, ok under presence; template mode also counts template gaps', () => {
  const bad = item(1, [comment(investigator('MAYBE')), comment(builder())]);
  expect(evaluate([bad], [], opts).invalid).toEqual(['INVESTIGATOR']);
  expect(evaluate([bad], [], { ...opts, validation: 'presence' }).conforming).toBe(true);
  const trajectory = item(2, [comment('<!-- FORGE:TRAJECTORY -->\n| Phase | Result | Notes |\n|---|---|---|\n| Close | done | x |')]);
  const t = { ...opts, required: ['TRAJECTORY'] };
  expect(evaluate([trajectory], [], t).conforming).toBe(true);
  expect(evaluate([trajectory], [], { ...t, validation: 'template' }).invalid).toEqual(['TRAJECTORY']);
});

test('an item that ended without a build is exempt, unless a PR closing it is gated', () => {
  const ended = item(1, [comment(investigator('INVALID'))], { labels: ['workflow:invalid'] });
  const alone = evaluate([ended], [], opts);
  expect(alone).toMatchObject({ conforming: true, state: 'workflow:invalid', terminal: true });
  expect(alone.items[0].types.every((t) => t.status === 'not-required')).toBe(true);
  const pr = item(9, [], { kind: 'pull' });
  const gated = evaluate([ended], [pr], { ...opts, pull: { number: 9, head: 'fix/x' } });
  expect(gated.missing).toEqual(['BUILDER']);
  expect(gated.notes[0]).toContain('PR #9 closes it and is a build');
});

test('a shared PR thread counts for every item; a BUILDER for another branch does not', () => {
  const pr = item(9, [comment(reviewer())], { kind: 'pull' });
  const issue = item(1, [comment(investigator()), comment(builder('fix/other'))]);
  const r = evaluate([issue], [pr], { ...opts, required: ['INVESTIGATOR', 'BUILDER', 'REVIEWER'], pull: { number: 9, head: 'fix/x' } });
  expect(r.missing).toEqual(['BUILDER']);
  expect(r.problems[0]).toBe('issue #1: BUILDER is missing (BUILDER on #1 is for `fix/other`; this PR is `fix/x`)');
  const right = evaluate([item(1, [comment(investigator()), comment(builder('fix/x'))])], [pr], {
    ...opts,
    required: ['INVESTIGATOR', 'BUILDER', 'REVIEWER'],
    pull: { number: 9, head: 'fix/x' },
  });
  expect(right.conforming).toBe(true);
});

test('parseRequired: presets, FORGE: prefixes, and a one-line refusal', () => {
  expect(parseRequired('')).toEqual(['INVESTIGATOR', 'BUILDER']);
  expect(parseRequired('FORGE:CONTEXT, lifecycle')).toEqual(['CONTEXT', 'INVESTIGATOR', 'CONTRACT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY']);
  expect(() => parseRequired('BUILDER\nbad type')).toThrow('required: "bad" is not a FORGE type name');
});
