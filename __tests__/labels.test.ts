import { currentState, planTransition, anyTerminal, RESERVED_LABELS, TERMINAL_LABELS } from '../src/codec/index.js';

test('the reserved set and terminal set from NOTES.md §4', () => {
  expect(RESERVED_LABELS).toHaveLength(10);
  expect([...TERMINAL_LABELS].sort()).toEqual(
    [
      'needs-human',
      'workflow:awaiting-merge',
      'workflow:decomposed',
      'workflow:engine-error',
      'workflow:invalid',
      'workflow:merged',
    ].sort(),
  );
});

test.each([
  [['workflow:investigating'], 'workflow:ready-to-build'],
  [['workflow:investigating'], 'workflow:invalid'],
  [['workflow:investigating'], 'workflow:decomposed'],
  [['workflow:ready-to-build'], 'workflow:building'],
  [['workflow:building'], 'workflow:ready-to-build'],
  [['workflow:building'], 'workflow:in-review'],
  [['workflow:in-review'], 'workflow:building'],
  [['workflow:in-review'], 'workflow:merged'],
  [['workflow:in-review'], 'workflow:awaiting-merge'],
  [['workflow:merged'], 'workflow:engine-error'],
  [['workflow:merged'], 'needs-human'],
  [[], 'workflow:building'],
])('%j → %s is allowed', (labels, target) => {
  expect(() => planTransition(labels, target)).not.toThrow();
});

test.each([
  [['workflow:investigating'], 'workflow:building'],
  [['workflow:ready-to-build'], 'workflow:merged'],
  [['workflow:merged'], 'workflow:building'],
  [['workflow:invalid'], 'workflow:investigating'],
])('%j → %s is refused', (labels, target) => {
  expect(() => planTransition(labels, target)).toThrow('is not an allowed transition');
});

test('exclusive: the target is added and every other workflow label removed', () => {
  expect(planTransition(['bug', 'workflow:building', 'workflow:investigating'], 'workflow:in-review')).toEqual({
    add: ['workflow:in-review'],
    remove: ['workflow:building', 'workflow:investigating'],
  });
});

test('needs-human is sticky except when moving to awaiting-merge', () => {
  expect(planTransition(['needs-human', 'workflow:building'], 'workflow:in-review').remove).toEqual(['workflow:building']);
  expect(planTransition(['needs-human', 'workflow:in-review'], 'workflow:awaiting-merge').remove).toEqual([
    'workflow:in-review',
    'needs-human',
  ]);
  expect(planTransition(['needs-human'], 'needs-human')).toEqual({ add: [], remove: [] });
});

test('same state is a no-op; unknown labels are refused', () => {
  expect(planTransition(['workflow:building'], 'workflow:building')).toEqual({ add: [], remove: [] });
  expect(() => planTransition([], 'workflow:done')).toThrow('not a reserved label');
});

test('current state and terminal', () => {
  expect(currentState(['bug', 'workflow:building', 'needs-human'])).toBe('workflow:building');
  expect(currentState(['needs-human'])).toBe('needs-human');
  expect(currentState(['bug'])).toBe('none');
  expect(anyTerminal(['workflow:building', 'needs-human'])).toBe(true);
  expect(anyTerminal(['workflow:building'])).toBe(false);
});
