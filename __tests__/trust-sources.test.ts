/**
 * Trust decided in one place: implementation-notes §7's table of sources is
 * the code's SOURCE_RULES, and every action that reads a source lets a trusted
 * author's text count and passes over a stranger's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { emit } from '../src/codec/index.js';
import { parseTrustPolicy, SOURCE_RULES, trustOfSource, type Author, type SourceKind } from '../src/common/trust.js';
import { collectAnnotations, trustedOfType } from '../src/common/trusted-annotations.js';
import { evaluate } from '../src/decision/evaluate.js';
import { refsInBody } from '../src/gist-visibility-audit/logic/collect.js';
import { builder } from './support/seed.js';
import { comment, item, OWNER, STRANGER } from './support/work-items.js';

const ROOT = join(new URL('.', import.meta.url).pathname, '..');
const policy = parseTrustPolicy(undefined);
const ACTIONS = ['forge-check', 'forge-emit', 'forge-trajectory-report', 'gist-visibility-audit'] as const;
type Action = (typeof ACTIONS)[number];

interface Row {
  source: string;
  rule: string;
  why: string;
  readBy: Record<Action, boolean>;
}

/** The §7 table as written in docs/implementation-notes.md. */
function table(): Row[] {
  const text = readFileSync(join(ROOT, 'docs', 'implementation-notes.md'), 'utf8');
  const section = text.slice(text.indexOf('## §7'));
  return section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const cells = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const readBy = Object.fromEntries(ACTIONS.map((a, i) => [a, cells[3 + i] !== '—'])) as Record<Action, boolean>;
      return { source: cells[0].replace(/`/g, ''), rule: cells[1], why: cells[2], readBy };
    });
}

test('the documented table lists exactly the sources the code decides, with the same rule and reason', () => {
  const rows = table();
  expect(rows.map((r) => r.source).sort()).toEqual(Object.keys(SOURCE_RULES).sort());
  for (const r of rows) {
    const rule = SOURCE_RULES[r.source as SourceKind];
    expect({ source: r.source, rule: r.rule, why: r.why }).toEqual({ source: r.source, rule: rule.rule, why: rule.because });
  }
});

test('trustOfSource: authored sources follow trusted-authors, vouched ones always count, inherited ones follow what led to them', () => {
  for (const [kind, { rule }] of Object.entries(SOURCE_RULES) as Array<[SourceKind, (typeof SOURCE_RULES)[SourceKind]]>) {
    if (rule === 'author') {
      const k = kind as Parameters<typeof trustOfSource>[0]['kind'] & ('comment' | 'issue-body');
      expect(trustOfSource({ kind: k, author: OWNER }, policy)).toEqual({ counts: true });
      expect(trustOfSource({ kind: k, author: STRANGER }, policy)).toEqual({
        counts: false,
        why: 'author drive-by (NONE) is not in trusted-authors',
      });
    }
  }
  expect(trustOfSource({ kind: 'milestone-description' }).counts).toBe(true);
  expect(trustOfSource({ kind: 'memory-index-gist' }).counts).toBe(true);
  expect(trustOfSource({ kind: 'index-gist-file', via: true }).counts).toBe(true);
  expect(trustOfSource({ kind: 'index-gist-file', via: false })).toEqual({
    counts: false,
    why: 'the reference that led to it is not trusted',
  });
});

const GIST = 'https://gist.github.com/octo/0123456789abcdef0123456789abcdef';

/** What each action makes of one source, written by `author`: does it count? */
const PROBES: Record<Action, Partial<Record<SourceKind, (author: Author) => boolean>>> = {
  'forge-check': {
    'issue-body': (author) => collectAnnotations(item(1, [], { body: builder(), author }), policy).found.length === 1,
    'pull-body': (author) => collectAnnotations(item(2, [], { kind: 'pull', body: builder(), author }), policy).found.length === 1,
    comment: (author) =>
      evaluate([item(1, [comment(builder(), author)])], [], { required: ['BUILDER'], validation: 'strict', trust: policy }).conforming,
    // Reviews are read into the PR's comments: the PR thread is `shared`.
    review: (author) =>
      evaluate([item(1, [])], [item(9, [comment(builder(), author)], { kind: 'pull' })], {
        required: ['BUILDER'],
        validation: 'strict',
        trust: policy,
        pull: { number: 9, head: 'fix/x' },
      }).conforming,
    'closing-reference': (author) => trustOfSource({ kind: 'closing-reference', author }, policy).counts,
    'status-comment': (author) => trustOfSource({ kind: 'status-comment', author }, policy).counts,
  },
  'forge-emit': {
    'issue-body': (author) => trustOfSource({ kind: 'issue-body', author }, policy).counts,
    comment: (author) => trustedOfType([comment(emit('CONTEXT', { body: 'x' }), author)], 1, 'CONTEXT', policy).length === 1,
    'milestone-description': () => trustOfSource({ kind: 'milestone-description' }).counts,
  },
  'forge-trajectory-report': {
    comment: (author) => trustedOfType([comment(emit('TRAJECTORY', { body: 'x' }), author)], 1, 'TRAJECTORY', policy).length === 1,
  },
  'gist-visibility-audit': {
    'issue-body': (author) => gistRefTrusted({ kind: 'issue-body', author }),
    'pull-body': (author) => gistRefTrusted({ kind: 'pull-body', author }),
    comment: (author) => gistRefTrusted({ kind: 'comment', author }),
    'milestone-description': () => gistRefTrusted({ kind: 'milestone-description' }),
    'memory-index-gist': () => trustOfSource({ kind: 'memory-index-gist' }).counts,
    'index-gist-file': () => trustOfSource({ kind: 'index-gist-file', via: true }).counts,
  },
};

function gistRefTrusted(source: Parameters<typeof refsInBody>[1]['source']): boolean {
  const refs = refsInBody(
    emit('KNOWLEDGE_GIST', { value: GIST }),
    { location: { kind: 'issue-body', issue: 1 }, issue: 1, where: 'x', source },
    policy,
  );
  expect(refs).toHaveLength(1);
  return refs[0].trusted;
}

const cases = table().flatMap((row) => ACTIONS.map((action) => [action, row.source, row.readBy[action]] as const));

test.each(cases)('%s reads %s: %s', (action, source, reads) => {
  const probe = PROBES[action][source as SourceKind];
  // An action reads a source exactly when the table says so.
  expect(probe !== undefined).toBe(reads);
  if (!probe) return;
  const rule = SOURCE_RULES[source as SourceKind].rule;
  expect(probe(OWNER)).toBe(true);
  // A stranger's text counts only where GitHub already vouches for who can write it.
  expect(probe(STRANGER)).toBe(rule !== 'author');
});
