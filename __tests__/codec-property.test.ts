import fc from 'fast-check';
import { decode, emit, encode, foldLine, parse, TYPES } from '../src/codec/index.js';
import { splitLines } from '../src/codec/lines.js';
import { branchIn, prNumberIn } from '../src/codec/structure.js';

// Strings that lean on the dangerous pieces: comment delimiters, entities,
// FORGE tag and sentinel text, line breaks of every kind, fences, bold marks.
const FRAGMENTS = [
  '<!--',
  '-->',
  '--!>',
  '&lt;',
  '&amp;',
  '&gt;',
  '&#42;',
  '&',
  '*',
  '**',
  ':',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '```',
  '~~~',
  '#',
  '### ',
  '|',
  '-',
  '[x]',
  'FORGE:',
  '<!-- FORGE:BUILDER -->',
  '<!-- FORGE:BUILDER:COMPLETE -->',
  '<!-- INVESTIGATION:COMPLETE -->',
  '<!-- BUILDER:PARTIAL -->',
  'COMPLETE',
  '—',
  'é',
  '日本',
  '👍',
];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 12 })
  .map((a) => a.join(''));
const anyText = fc.oneof(hostile, fc.string({ unit: 'binary', maxLength: 40 }));

// Mutation testing lowers this through FORGE_PROPERTY_RUNS (jest.mutate.config.js).
const RUNS = Number(process.env.FORGE_PROPERTY_RUNS ?? 400);

test('parse never throws, whatever the input', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        anyText,
        fc.array(anyText, { maxLength: 20 }).map((a) => a.join('\n')),
      ),
      (s) => {
        parse(s);
      },
    ),
    { numRuns: RUNS * 2 },
  );
});

test('encode/decode round-trips and never leaves a comment delimiter', () => {
  fc.assert(
    fc.property(anyText, (s) => {
      const e = encode(s);
      expect(decode(e)).toBe(s);
      expect(e.includes('<!--') || e.includes('-->') || e.includes('--!>')).toBe(false);
    }),
    { numRuns: RUNS },
  );
});

/**
 * What a single-line slot keeps, computed independently of the codec: each
 * line break (CRLF, CR or LF) becomes one space, then surrounding spaces and
 * tabs are trimmed.
 */
const normal = (s: string) =>
  s
    .split(/\r\n|\r|\n/)
    .join(' ')
    .replace(/^[ \t]+|[ \t]+$/g, '');

test('foldLine matches the independent oracle', () => {
  const pieces = fc.constantFrom('a', 'b c', '\r', '\n', '\r\n', '\n\r', ' ', '\t', '\u2028', '\u00a0', '');
  fc.assert(
    fc.property(
      fc.array(pieces, { maxLength: 20 }).map((a) => a.join('')),
      (s) => {
        expect(foldLine(s)).toBe(normal(s));
      },
    ),
    { numRuns: RUNS * 2 },
  );
  expect(foldLine('a\rb')).toBe('a b');
  expect(foldLine('\ra\r\r\nb\r')).toBe('a  b');
});

const fieldMap = fc.array(fc.tuple(anyText, anyText), { maxLength: 6 }).map((pairs) => {
  const seen = new Set<string>();
  return pairs.filter(([k]) => {
    const n = normal(k).toLowerCase();
    if (n === '' || seen.has(n)) return false;
    seen.add(n);
    return true;
  });
});

const bodyTypes = TYPES.filter((t) => t.form === 'body').map((t) => t.type);

test('emit → parse round-trips arbitrary keys and values exactly (up to single-line folding)', () => {
  fc.assert(
    fc.property(fc.constantFrom('ACME_CUSTOM', ...bodyTypes), fieldMap, (type, pairs) => {
      const text = emit(type, { fields: pairs });
      const all = parse(text);
      expect(all).toHaveLength(1);
      expect(all[0].type).toBe(type);
      const want = Object.fromEntries(pairs.map(([k, v]) => [normal(k), normal(v)]));
      expect(all[0].fields).toEqual(want);
    }),
    { numRuns: RUNS },
  );
});

test('inline values round-trip', () => {
  fc.assert(
    fc.property(
      anyText.filter((v) => normal(v).trim() !== ''),
      (v) => {
        const all = parse(emit('KNOWLEDGE_GIST', { value: v }));
        expect(all).toHaveLength(1);
        expect(all[0].inlineValue).toBe(normal(v));
      },
    ),
    { numRuns: RUNS },
  );
});

test('no emitted value adds an annotation or changes a sentinel state', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('ACME_CUSTOM', ...bodyTypes),
      fieldMap,
      fc.dictionary(
        hostile.filter((h) => normal(h) !== ''),
        anyText,
        { maxKeys: 3 },
      ),
      anyText,
      anyText,
      fc.boolean(),
      (type, pairs, sections, body, title, partial) => {
        const text = emit(type, { fields: pairs, sections, body, title, status: partial ? 'partial' : 'complete' });
        const all = parse(text);
        expect(all).toHaveLength(1);
        expect(all[0].type).toBe(type);
        expect(all[0].sentinelState).toBe(partial ? 'partial' : 'complete');
      },
    ),
    { numRuns: RUNS },
  );
});

test('what we emit for a reserved type reads the same under the reference grammar <!-- FORGE:[A-Z_]+ -->', () => {
  const opener = /^<!-- FORGE:([A-Z_]+) -->$/;
  fc.assert(
    fc.property(fc.constantFrom(...bodyTypes), fieldMap, anyText, (type, pairs, body) => {
      const lines = emit(type, { fields: pairs, body }).split('\n');
      const openers = lines.map((l) => opener.exec(l)?.[1]).filter(Boolean);
      expect(openers).toEqual([type]);
      const spec = TYPES.find((t) => t.type === type)!;
      if (spec.complete) {
        expect(lines[lines.length - 1]).toBe(`<!-- ${spec.complete} -->`);
        expect(lines.filter((l) => l.trim() === `<!-- ${spec.complete} -->`)).toHaveLength(1);
      }
    }),
    { numRuns: RUNS },
  );
});

test('the line table splits exactly where CRLF, CR and LF are, nowhere else', () => {
  const pieces = fc.constantFrom('a', 'bc', '\r', '\n', '\r\n', '\n\r', '\u2028', ' ', '');
  fc.assert(
    fc.property(
      fc.array(pieces, { maxLength: 30 }).map((a) => a.join('')),
      (s) => {
        expect(splitLines(s)).toEqual(s.split(/\r\n|\r|\n/));
      },
    ),
    { numRuns: RUNS * 2 },
  );
});

describe('TRAJECTORY cells: the PR number and branch readers match the patterns they replace', () => {
  // The readers were regular expressions; they are now plain scans (nothing to compile in a fresh process).
  // These are the patterns, kept here as the definition the scans must agree with.
  const pr = (s: string) => {
    const m = /PR #(\d{1,9})/.exec(s);
    return m ? Number(m[1]) : null;
  };
  const branch = (s: string) => /Branch:\s{0,4}`([^`]{1,255})`/.exec(s)?.[1] ?? null;
  const CELL = [
    'PR #',
    'PR',
    '#',
    '1',
    '42',
    '1234567890',
    'Branch:',
    'Branch',
    ':',
    '`',
    ' ',
    '\t',
    '\u00a0',
    '\u2028',
    'x',
    'fix/a-b',
    '``',
  ];
  const cellText = fc.array(fc.oneof(fc.constantFrom(...CELL), fc.string({ maxLength: 3 })), { maxLength: 12 }).map((a) => a.join(''));

  test('on text built from the pieces that matter', () => {
    fc.assert(
      fc.property(cellText, (s) => {
        expect(prNumberIn(s)).toBe(pr(s));
        expect(branchIn(s)).toBe(branch(s));
      }),
      { numRuns: 3000 },
    );
  });

  test('at the bounds: nine digits, four spaces, 255 characters', () => {
    for (const s of [
      'PR #1234567890',
      'PR #x PR #7',
      'Branch:    `b`',
      'Branch:     `b`',
      'Branch:``Branch: `c`',
      `Branch: \`${'a'.repeat(255)}\``,
      `Branch: \`${'a'.repeat(256)}\` Branch: \`ok\``,
      'Branch:\u3000`w`',
    ]) {
      expect([s, prNumberIn(s), branchIn(s)]).toEqual([s, pr(s), branch(s)]);
    }
  });
});
