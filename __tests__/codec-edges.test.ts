/**
 * The codec at the edges mutation testing found unguarded: each case pins one
 * rule (a bound, a delimiter, a flag in the result) that could otherwise be
 * changed with every other test still passing.
 */
import { canonicalJson, cardValue, readCard, sha8 } from '../src/codec/card.js';
import { codeSpan, EmitError, emit, emitAnnotation, emitPartial, stripCodeSpan } from '../src/codec/emit.js';
import { decode, decodeKey, encode, encodeKey, foldLine } from '../src/codec/escape.js';
import { parse } from '../src/codec/index.js';
import { classifyLine } from '../src/codec/tags.js';

describe('classifyLine', () => {
  test.each([
    // `>` and `--` inside a value do not close the comment early; only `-->` and `--!>` do.
    [
      '<!-- FORGE:DISPATCHER — a -> b, c -=> d, e!> f -->',
      { kind: 'open', type: 'DISPATCHER', value: 'a -> b, c -=> d, e!> f', valueForm: 'dash' },
    ],
    ['<!-- FORGE:DISPATCHER — pre--post -->', { kind: 'open', type: 'DISPATCHER', value: 'pre--post', valueForm: 'dash' }],
    ['<!-- FORGE:DISPATCHER — a --!> b -->', { kind: 'text' }],
    ['<!-- FORGE:X --!> -->', { kind: 'text' }],
    // Both delimiters must be there, at the line's ends.
    ['<!-- FORGE:BUILDER', { kind: 'text' }],
    ['<!-- FORGE:BUILDER xyz', { kind: 'text' }],
    ['xxxxFORGE:BUILDER -->', { kind: 'text' }],
    ['x <!-- FORGE:BUILDER -->', { kind: 'text' }],
    // A sentinel needs a name before its colon.
    ['<!-- :COMPLETE -->', { kind: 'text' }],
    [
      '<!-- INVESTIGATION:COMPLETE -->',
      { kind: 'sentinel', name: 'INVESTIGATION:COMPLETE', type: 'INVESTIGATION', state: 'COMPLETE', forgePrefix: false },
    ],
    [
      '<!-- FORGE:BUILDER:COMPLETE -->',
      { kind: 'sentinel', name: 'FORGE:BUILDER:COMPLETE', type: 'BUILDER', state: 'COMPLETE', forgePrefix: true },
    ],
    ['<!-- FORGE:KNOWLEDGE_GIST: u -->', { kind: 'open', type: 'KNOWLEDGE_GIST', value: 'u', valueForm: 'colon' }],
    ['<!-- FORGE:BUILDER: note -->', { kind: 'open', type: 'BUILDER', value: 'note', valueForm: 'colon' }],
    // A custom type with a bare colon and nothing after it is not a tag.
    ['<!-- FORGE:MYTYPE: -->', { kind: 'text' }],
    // A dash form needs a space before the dash, and a lone hyphen after it.
    ['<!-- FORGE:DISPATCHER— x -->', { kind: 'text' }],
    ['<!-- FORGE:DISPATCHER -x -->', { kind: 'text' }],
    ['<!-- FORGE:DISPATCHER --->', { kind: 'open', type: 'DISPATCHER', value: '', valueForm: 'dash' }],
  ])('%s', (line, expected) => {
    expect(classifyLine(line)).toEqual(expected);
  });
});

describe('parse at the edges', () => {
  test('an HTML comment inside an annotation is text, not a foreign sentinel', () => {
    const [a] = parse(
      '<!-- FORGE:CONTEXT -->\n## Implementation Context\n### Known Pitfalls\n<!-- a note -->\nnone\n<!-- FORGE:CONTEXT:COMPLETE -->',
    );
    expect(a.foreignSentinels).toEqual([]);
    expect(a.sections['Known Pitfalls']).toBe('<!-- a note -->\nnone');
    expect(a.sentinelState).toBe('complete');
  });

  test('every sentinel line is left out of the content, not only the first', () => {
    const [a] = parse(
      '<!-- FORGE:CONTEXT -->\n## Implementation Context\n### Notes\none\n<!-- FORGE:CONTEXT:PARTIAL -->\ntwo\n<!-- FORGE:CONTEXT:COMPLETE -->\nthree',
    );
    expect(a.sections.Notes).toBe('one\ntwo\nthree');
    expect(a.sentinelState).toBe('complete');
  });

  test("a marker's own text is its tag and the unindented field lines right under it", () => {
    const body = '<!-- FORGE:CLAIM_RELEASED -->\n**Holder**: a\n  **Released**: b\n**Other**: c';
    const [a] = parse(body);
    expect(body.slice(a.start, a.closeEnd)).toBe('<!-- FORGE:CLAIM_RELEASED -->\n**Holder**: a');
  });

  test('after a fence closes, tags are read again; inside it, never', () => {
    const found = parse('~~~\n<!-- FORGE:BUILDER -->\n~~~\n<!-- FORGE:KNOWLEDGE_GIST: x -->');
    expect(found.map((a) => a.type)).toEqual(['KNOWLEDGE_GIST']);
  });
});

describe('CARD', () => {
  test('canonical JSON separates array items and object members with commas', () => {
    expect(canonicalJson({ b: [1, 2, [3, 4]], a: 'x' })).toBe('{"a":"x","b":[1,2,[3,4]]}');
  });

  test('sha8 is the first 8 hex digits of SHA-256', () => {
    expect(sha8('abc')).toBe('ba7816bf');
  });

  test('the value is v1, the sha and the base64url of the canonical JSON', () => {
    expect(cardValue({ b: [1, 2], a: 'x' })).toBe('v1 sha:721ef82f b64:eyJhIjoieCIsImIiOlsxLDJdfQ');
  });

  test('no value, or another shape, is no CARD', () => {
    expect(readCard(null)).toBeNull();
    expect(readCard('v1 sha:721ef82f x64:eyJhIjoieCIsImIiOlsxLDJdfQ')).toBeNull();
    expect(readCard('v1 md5:721ef82f b64:eyJhIjoieCIsImIiOlsxLDJdfQ')).toBeNull();
  });

  test('bytes that are not UTF-8 JSON decode to nothing, without throwing', () => {
    expect(readCard('v1 sha:00000000 b64:_w')).toEqual({ version: 'v1', sha: '00000000', b64: '_w', payload: null, json: null });
  });

  test('a payload whose base64url is not the exact encoding of its bytes (stray bits) is refused', () => {
    // eyJhIjoxfQ is {"a":1}; a final R instead of Q decodes to the same bytes.
    expect(readCard('v1 sha:015abd7f b64:eyJhIjoxfQ')?.json).toBe('{"a":1}');
    expect(readCard('v1 sha:015abd7f b64:eyJhIjoxfR')?.json).toBeNull();
  });
});

describe('code spans', () => {
  test.each([
    ['`a`', 'a'],
    ['` a `', 'a'],
    ['`` a`b ``', 'a`b'],
    ['```a```', 'a'],
    ['`` ` ``', '`'],
    [' `x` ', 'x'],
    // Not one code span: the value comes back unchanged.
    ['``', '``'],
    ['`a', '`a'],
    ['`a``', '`a``'],
    ['``a`', '``a`'],
    ['`a`b`', '`a`b`'],
    ['`a` b`', '`a` b`'],
    ['` `', '` `'],
    ['`  `', '`  `'],
    ['a', 'a'],
  ])('stripCodeSpan(%j) is %j', (value, inner) => {
    expect(stripCodeSpan(value)).toBe(inner);
  });

  test('codeSpan uses a run longer than any inside, padded where the value touches a backtick', () => {
    expect(codeSpan('a``b')).toBe('```a``b```');
    expect(codeSpan('`a')).toBe('`` `a ``');
    expect(codeSpan('a`')).toBe('`` a` ``');
    expect(codeSpan('a')).toBe('`a`');
  });

  test("BUILDER's Branch and a finding's Location become code spans once; other fields never", () => {
    const text = emit('BUILDER', { fields: { Branch: 'fix/x', Commits: 'a1', 'Files changed': '`2`' } });
    expect(text).toContain('**Branch**: `fix/x`');
    expect(text).toContain('**Files changed**: `2`');
    expect(emit('BUILDER', { fields: { Branch: '`fix/x`', Commits: 'a1', 'Files changed': '2' } })).toContain('**Branch**: `fix/x`\n');
    const review = emit('REVIEWER', {
      fields: { Verdict: 'APPROVED' },
      findings: [{ severity: 'LOW', location: 'a.ts:1', issue: 'x', suggestedFix: 'y', prevention: 'z' }],
    });
    expect(review).toContain('`a.ts:1`');
  });
});

describe('emit refusals', () => {
  test('EmitError names itself', () => {
    let caught: unknown;
    try {
      emit('BUILDER', { title: 'T', nope: 1 } as never);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EmitError);
    expect((caught as Error).name).toBe('EmitError');
    expect((caught as Error).message).toBe(
      'emit(BUILDER): unknown input key "nope" — fields go under `fields` (emit(\'BUILDER\', { fields: { "nope": … } })); the other keys are fields, sections, table, findings, body, value, card, status, title',
    );
  });

  test('several unknown keys are all named', () => {
    // Keys of EmitInput and others mixed: refused (alone, the others are §13.2's plain field map).
    expect(() => emit('BUILDER', { status: 'complete', a: 1, b: 2 } as never)).toThrow('emit(BUILDER): unknown input keys "a", "b" — ');
  });

  test('an input that is not an object is refused', () => {
    expect(() => emitAnnotation('BUILDER', [] as never)).toThrow('emit(BUILDER, input): input must be an object');
    expect(() => emitAnnotation('BUILDER', null as never)).toThrow('emit(BUILDER, input): input must be an object');
  });

  test('a type name that is not one is refused before anything else', () => {
    expect(() => emitAnnotation('lower', {})).toThrow(
      '"lower" is not a type name: use upper-case letters, digits and _ , starting with a letter',
    );
    expect(() => emitAnnotation(42 as never, {})).toThrow('is not a type name');
  });
});

describe('foldLine', () => {
  test('each line break is one space and nothing after it is lost', () => {
    expect(foldLine('a\nb')).toBe('a b');
    expect(foldLine('a\r\nb')).toBe('a b');
    expect(foldLine('a\n\rb')).toBe('a  b');
    expect(foldLine('a\rb\nc')).toBe('a b c');
  });
});

test.each(['<!-->', '<!--->', '<!---->', '<!-- -->', '<!--FORGE:-->', '<!-- FORGE: -->', '  <!-->  '])('%j is text', (line) => {
  expect(classifyLine(line)).toEqual({ kind: 'text' });
});

describe('escaping at the edges', () => {
  test.each([
    ['&x', '&amp;x'],
    ['a & b', 'a &amp; b'],
    ['<!--x', '&lt;!--x'],
    ['-->x', '--&gt;x'],
    ['--!>x', '--!&gt;x'],
    ['a -- b', 'a -- b'],
    ['plain', 'plain'],
  ])('encode(%j) is %j, and decodes back', (text, encoded) => {
    expect(encode(text)).toBe(encoded);
    expect(decode(encoded)).toBe(text);
  });

  test('keys escape their asterisks and decode back', () => {
    expect(encodeKey('a**b & c')).toBe('a&#42;&#42;b &amp; c');
    expect(decodeKey('a&#42;&#42;b &amp; c')).toBe('a**b & c');
    expect(decodeKey('plain')).toBe('plain');
  });
});

describe('CARD alphabet', () => {
  test('characters outside base64url, or padding, are refused even though Buffer would skip them', () => {
    expect(readCard('v1 sha:015abd7f b64:eyJhIjoxfQ==')?.json).toBeNull();
    expect(readCard('v1 sha:015abd7f b64:eyJh.IjoxfQ')?.json).toBeNull();
    expect(readCard('v1 sha:015abd7f b64:eyJhIjoxfQ')?.payload).toEqual({ a: 1 });
  });

  test('base64url of text that is not JSON decodes to nothing', () => {
    // "not json" in base64url.
    expect(readCard('v1 sha:00000000 b64:bm90IGpzb24')).toMatchObject({ payload: null, json: null });
  });
});

describe('more code spans and emit rules', () => {
  test.each([
    ['`a `', 'a '],
    ['` a`', ' a'],
    ['`  a  `', ' a '],
    [' plain ', ' plain '],
    ['`ab', '`ab'],
    ['ab`', 'ab`'],
  ])('stripCodeSpan(%j) is %j', (value, inner) => {
    expect(stripCodeSpan(value)).toBe(inner);
  });

  test('an empty code-span field stays empty, and other fields are never wrapped', () => {
    const text = emit('BUILDER', { fields: { Branch: '', Commits: 'a1', 'Files changed': '2' } });
    expect(text).toContain('\n**Branch**:\n**Commits**: a1\n**Files changed**: 2\n');
  });

  test("a finding's Location already written as a code span is not wrapped again", () => {
    const review = emit('REVIEWER', {
      fields: { Verdict: 'APPROVED' },
      findings: [{ severity: 'LOW', location: '`a.ts:1`', issue: 'x', suggestedFix: 'y', prevention: 'z' }],
    });
    expect(review).toContain('  **Location**: `a.ts:1`\n');
  });

  test('fields and sections a template does not list keep their input order, after the listed ones', () => {
    const b = emit('BUILDER', { fields: { Zeta: '1', Branch: 'x', Alpha: '2', Commits: 'a1', 'Files changed': '2' } });
    expect(b).toContain('**Branch**: `x`\n**Commits**: a1\n**Files changed**: 2\n**Zeta**: 1\n**Alpha**: 2\n');
    const i = emit('INVESTIGATOR', {
      fields: { Verdict: 'CONFIRMED', Confidence: 'HIGH', Severity: 'LOW', 'Task Type': 'Bug Fix', 'Decomposition Assessment': 'NO' },
      sections: { Zed: 'z', Extra: 'x', 'What Was Claimed': 'y' },
    });
    expect(i).toContain('### What Was Claimed\ny\n\n### Zed\nz\n\n### Extra\nx\n');
  });

  test('an empty table or findings list writes nothing', () => {
    const fields = { Decisions: 'd', Anomalies: 'None', Completed: '2026-01-01T00:00:00Z' };
    expect(emit('TRAJECTORY', { table: [], fields })).toBe(emit('TRAJECTORY', { fields }));
    expect(emit('REVIEWER', { fields: { Verdict: 'APPROVED' }, findings: [] })).toBe(emit('REVIEWER', { fields: { Verdict: 'APPROVED' } }));
  });

  test('a marker written with its fields and no value warns of nothing', () => {
    expect(emitAnnotation('CLAIM_RELEASED', { fields: { Holder: 'a', Released: 'b' } })).toEqual({
      text: '<!-- FORGE:CLAIM_RELEASED -->\n**Holder**: a\n**Released**: b',
      warnings: [],
    });
  });

  test('a custom type writes a list section as a list, and emitPartial names a bad type', () => {
    expect(emit('ACME', { sections: { Notes: ['a', 'b'] } })).toBe('<!-- FORGE:ACME -->\n\n### Notes\n- a\n- b\n\n<!-- ACME:COMPLETE -->');
    expect(() => emitPartial('bad')).toThrow(new EmitError('"bad" is not a type name'));
  });
});
