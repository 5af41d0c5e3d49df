/** The board's words for why an item waits, and the labels that say more than the chain: each rule of the tables. */
import { labelContradiction, waitOf } from '../src/forge-dispatch/board.js';

test.each([
  ['first open stage', 'waiting', 'missing', 'never started'],
  ['first open stage', 'waiting', null, 'never started'],
  ['first open stage', 'waiting', 'partial', 'partial'],
  ['first open stage', 'waiting', 'interrupted', 'partial'],
  ['stale stage', 'waiting', 'included', 'stale'],
  ['own verdict blocks', 'waiting', null, 'blocked'],
  ['halted after the build', 'waiting', null, 'needs a human'],
  ['investigation invalid', 'waiting', null, 'to close'],
  ['chain complete', 'waiting', null, 'done'],
  ['changes requested', 'waiting', null, 'changes requested'],
  ['first open stage', 'running', 'missing', 'running'],
  ['first open stage', 'dispatched', 'partial', 'started'],
  ['first open stage', 'escalated', 'partial', 'needs a human'],
  ['investigation invalid', 'closed', null, 'closed'],
  ['a rule the table lacks', 'waiting', null, 'waiting'],
])('rule %s, action %s, next stage %s: %s', (rule, action, status, waits) => {
  expect(waitOf(rule, action, status)).toBe(waits);
});

test('a label contradicts the chain when the stage it says is done is not; a stage the chain lacks asks nothing', () => {
  const chain = ['INVESTIGATOR', 'BUILDER', 'REVIEWER'];
  expect(labelContradiction('workflow:in-review', chain, new Set(['INVESTIGATOR']))).toBe('workflow:in-review without a complete BUILDER');
  expect(labelContradiction('workflow:in-review', chain, new Set(['INVESTIGATOR', 'BUILDER']))).toBe('');
  expect(labelContradiction('workflow:ready-to-build', chain, new Set())).toBe('workflow:ready-to-build without a complete INVESTIGATOR');
  expect(labelContradiction('workflow:building', ['BUILDER', 'REVIEWER'], new Set())).toBe('');
  expect(labelContradiction('workflow:done', chain, new Set())).toBe('');
  expect(labelContradiction('none', chain, new Set())).toBe('');
});
