/** The board's words for why an item waits, and the labels that say more than the chain: each rule of the tables. */
import {
  BOARD_MAX_CHARS,
  boardMarkdown,
  boardOrder,
  labelContradiction,
  quietLink,
  waitOf,
  type BoardItem,
} from '../src/forge-dispatch/board.js';

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
  ['needs a person', 'waiting', null, 'needs a human'],
  ['first open stage', 'not-admitted', null, 'not admitted'],
  ['first open stage', 'limited', null, 'waiting for a slot'],
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

const CHAIN = ['INVESTIGATOR', 'BUILDER', 'REVIEWER'];
const boardItem = (number: number, over: Partial<BoardItem> = {}): BoardItem => ({
  number,
  title: `Item ${number}`,
  url: `https://github.com/acme/shop/issues/${number}`,
  state: 'none',
  next: 'INVESTIGATOR',
  why: 'INVESTIGATOR is the first stage of the chain with no complete trusted annotation',
  action: 'waiting',
  lastStageAt: null,
  hasBuilder: false,
  openPulls: [],
  stuck: false,
  waits: 'never started',
  contradiction: '',
  ...over,
});

describe('the board within GitHub’s limits', () => {
  test('5,000 items with long strangers’ titles: under 60,000 characters, what a person acts on first, the rest counted', () => {
    const items = Array.from({ length: 5000 }, (_, i) =>
      boardItem(i + 1, {
        title: `${'A very long title written by a stranger '.repeat(20)}${i}`,
        ...(i === 4321 ? { waits: 'needs a human', next: 'needs-human' } : {}),
        ...(i % 500 === 7 ? { waits: 'running', action: 'running', next: 'BUILDER' } : {}),
      }),
    );
    const text = boardMarkdown('FORGE pipeline board', CHAIN, items, [], []);
    expect(text.length).toBeLessThanOrEqual(BOARD_MAX_CHARS);
    const rows = text.split('\n').filter((l) => l.startsWith('| ['));
    expect(rows[0]).toContain('[#4322]');
    // Then the running items, then the waiting ones.
    expect(rows.slice(1, 11).every((r) => r.includes('| running |'))).toBe(true);
    const more = /\*\*and (\d+) more\*\* — the full board: the job summary and `board-file`\./.exec(text);
    expect(Number(more?.[1])).toBe(5000 - rows.length);
    // A title is shortened, never dropped: every row still names its item.
    expect(rows.every((r) => /\| \[#\d+\]\(https:\/\/redirect\.github\.com\/acme\/shop\/issues\/\d+\) A very long title/.test(r))).toBe(
      true,
    );
    expect(rows[5].length).toBeLessThan(400);
    // The doctor's lists are bounded too.
    expect(text).toContain('### Needs a person (1)');
  });

  test('a board that fits is whole; links go through the redirect host on github.com only', () => {
    const text = boardMarkdown('B', CHAIN, [boardItem(1), boardItem(2, { waits: 'not admitted' })], [], []);
    expect(text).not.toContain('more** —');
    expect(quietLink('https://github.com/acme/shop/issues/2')).toBe('https://redirect.github.com/acme/shop/issues/2');
    expect(quietLink('https://ghe.example.com/acme/shop/issues/2')).toBe('https://ghe.example.com/acme/shop/issues/2');
    expect(
      boardOrder([boardItem(1), boardItem(2, { waits: 'not admitted' }), boardItem(3, { next: 'BUILDER' })], CHAIN).map((i) => i.number),
    ).toEqual([2, 1, 3]);
  });
});
