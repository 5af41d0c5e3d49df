/**
 * The rules the codec exists for, each pinned by a test that fails when the
 * rule is removed (mutation testing found these unguarded).
 */
import { cardValue, emit, emitPartial, EmitError, parse, parseAndValidate, validate } from '../src/codec/index.js';

const INV =
  '<!-- FORGE:INVESTIGATOR -->\n**Verdict**: CONFIRMED\n**Confidence**: HIGH\n**Severity**: LOW\n**Task Type**: Bug Fix\n**Decomposition Assessment**: NO';

describe('fences', () => {
  test('a fenced field line is content: the real field wins', () => {
    const [a] = parse(`<!-- FORGE:REVIEWER -->\n\`\`\`\n**Verdict**: CHANGES_REQUESTED\n\`\`\`\n**Verdict**: APPROVED`);
    expect(a.fields.Verdict).toBe('APPROVED');
    expect(a.fieldList.map((f) => f.value)).toEqual(['APPROVED']);
  });

  test('~~~ fences hide tags and sentinels as ``` fences do', () => {
    expect(parse('~~~\n<!-- FORGE:BUILDER -->\n~~~')).toEqual([]);
    expect(parse(`${INV}\n~~~\n<!-- INVESTIGATION:COMPLETE -->\n~~~`)[0].sentinelState).toBe('interrupted');
  });

  test('a shorter closing fence does not close a longer one; a longer one does', () => {
    expect(parse(`${INV}\n\`\`\`\`\n\`\`\`\n<!-- INVESTIGATION:COMPLETE -->\n\`\`\`\``)[0].sentinelState).toBe('interrupted');
    expect(parse(`${INV}\n\`\`\`\n\`\`\`\`\n<!-- INVESTIGATION:COMPLETE -->`)[0].sentinelState).toBe('complete');
    // The other fence character never closes it.
    expect(parse(`${INV}\n\`\`\`\n~~~\n<!-- INVESTIGATION:COMPLETE -->`)[0].sentinelState).toBe('interrupted');
  });

  test('a fence indented three spaces opens; four spaces is text', () => {
    expect(parse(`${INV}\n   \`\`\`\n<!-- INVESTIGATION:COMPLETE -->`)[0].sentinelState).toBe('interrupted');
    expect(parse(`${INV}\n    \`\`\`\n<!-- INVESTIGATION:COMPLETE -->`)[0].sentinelState).toBe('complete');
  });

  test('a closing fence may carry trailing blanks but nothing else', () => {
    expect(parse(`${INV}\n\`\`\`\nx\n\`\`\`  \n<!-- INVESTIGATION:COMPLETE -->`)[0].sentinelState).toBe('complete');
    expect(parse(`${INV}\n\`\`\`\nx\n\`\`\` not\n<!-- INVESTIGATION:COMPLETE -->`)[0].sentinelState).toBe('interrupted');
  });
});

describe('tags and sentinels', () => {
  test('an HTML comment that closes early is not a tag, in either closing form', () => {
    expect(parse('<!-- FORGE:X: a --> text <!-- b -->')).toEqual([]);
    expect(parse('<!-- FORGE:BUILDER --!> x -->')).toEqual([]);
    expect(parse(`${INV}\n<!-- INVESTIGATION:COMPLETE --> but -->`)[0].sentinelState).toBe('interrupted');
  });

  test('a sentinel needs its colon', () => {
    expect(parse(`${INV}\n<!-- INVESTIGATION COMPLETE -->`)[0].sentinelState).toBe('interrupted');
    expect(parse(`${INV}\n<!-- INVESTIGATIONCOMPLETE -->`)[0].sentinelState).toBe('interrupted');
    expect(parse(`${INV}\n<!--INVESTIGATION:COMPLETE-->`)[0].sentinelState).toBe('complete');
  });

  test('a dash description needs a dash: a bare word after the type is no tag', () => {
    expect(parse('<!-- FORGE:DISPATCHER routes -->')).toEqual([]);
    expect(parse('<!-- FORGE:DISPATCHER - routes -->')[0].inlineValue).toBe('routes');
    expect(parse('<!-- FORGE:DISPATCHER – routes -->')[0].inlineValue).toBe('routes');
  });
});

describe('CARD', () => {
  test('the sha must match the canonical JSON; the payload must decode', () => {
    const good = `<!-- FORGE:CARD: ${cardValue({ b: 1, a: [2] })} -->`;
    expect(parseAndValidate(good)[0].valid).toBe(true);
    const sha = /sha:([0-9a-f]{8})/.exec(good)![1];
    const wrong = good.replace(sha, sha === '00000000' ? '11111111' : '00000000');
    expect(parseAndValidate(wrong)[0].valid).toBe(false);
    expect(parseAndValidate('<!-- FORGE:CARD: v1 sha:00000000 b64:!!! -->')[0].valid).toBe(false);
  });
});

describe('emit', () => {
  test('emitPartial refuses what is not a type name', () => {
    expect(() => emitPartial('bad type')).toThrow(EmitError);
    expect(() => emitPartial('BUILDER -->\n<!-- FORGE:X')).toThrow(EmitError);
    expect(emitPartial('BUILDER')).toBe('<!-- FORGE:BUILDER:PARTIAL -->');
    expect(emitPartial('INVESTIGATOR')).toBe('<!-- INVESTIGATION:PARTIAL -->');
  });

  test('a type outside [A-Z][A-Z0-9_]* is refused with the value quoted on one line', () => {
    expect(() => emit('builder')).toThrow('"builder" is not a type name');
    expect(() => emit('A\nB')).toThrow('"A⏎B" is not a type name');
  });
});

describe('validate', () => {
  test('a missing required field is an error naming field and section; present but empty too', () => {
    const [a] = parse('<!-- FORGE:REVIEWER -->\n## Review');
    expect(validate(a).errors).toEqual([
      'REVIEWER: field "Verdict" is missing — required (deployed readers depend on it; the reference codec requires it)',
    ]);
    const [b] = parse('<!-- FORGE:REVIEWER -->\n**Verdict**:\nprose');
    expect(validate(b).errors[0]).toContain('field "Verdict" is empty');
  });
});

describe('long bodies', () => {
  test("bodies past the line table's first size parse the same, one after another", () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const big = `${filler}\n${INV}\n<!-- INVESTIGATION:COMPLETE -->\n${filler}`;
    expect(big.length).toBeGreaterThan(50000);
    const [a] = parseAndValidate(big);
    expect([a.type, a.sentinelState, a.valid, a.startLine]).toEqual(['INVESTIGATOR', 'complete', true, 3000]);
    const small = parse(`${INV}\n<!-- INVESTIGATION:COMPLETE -->`);
    expect(small[0].startLine).toBe(0);
    expect(parse(big)[0].fields.Verdict).toBe('CONFIRMED');
  });
});

describe('what mutation testing found unguarded, pinned', () => {
  test('--!> inside an inline value ends the comment early: no tag', () => {
    expect(parse('<!-- FORGE:PRIOR_GIST: a --!> b -->')).toEqual([]);
    expect(parse('<!-- FORGE:PRIOR_GIST: a --! b -->')[0].inlineValue).toBe('a --! b');
    expect(parse('<!-- FORGE:PRIOR_GIST: a -- b -->')[0].inlineValue).toBe('a -- b');
  });

  test('the shortest lines: under eight characters is text, a bare <!--X--> too', () => {
    expect(parse('<!---->')).toEqual([]);
    expect(parse(`${INV}\n<!--A:COMPLETE-->`)[0].foreignSentinels).toEqual(['A:COMPLETE']);
    expect(parse('<!--FORGE:A-->')[0].type).toBe('A');
  });

  test('only a line that starts <!-- and ends --> is classified', () => {
    expect(parse('x <!-- FORGE:BUILDER -->')).toEqual([]);
    expect(parse('<!-- FORGE:BUILDER --> x')).toEqual([]);
    expect(parse('<! -- FORGE:BUILDER -->')).toEqual([]);
    expect(parse('<!- FORGE:BUILDER -->')).toEqual([]);
    expect(parse('<-- FORGE:BUILDER -->')).toEqual([]);
    expect(parse('!<-- FORGE:BUILDER -->')).toEqual([]);
  });

  test('sentinel shapes: the generic name, the FORGE: prefix, a space before COMPLETE only for reserved types', () => {
    const [a] = parse(`${INV}\n<!-- INVESTIGATION:COMPLETE -->`);
    expect(a.sentinel).toBe('INVESTIGATION:COMPLETE');
    expect(parse('<!-- FORGE:BUILDER -->\nx\n<!-- FORGE:BUILDER: COMPLETE -->')[0].sentinelState).toBe('complete');
    // A custom type with a space reads `<!-- FORGE:ACME: COMPLETE -->` as an inline value opening a new annotation.
    const custom = parse('<!-- FORGE:ACME -->\nx\n<!-- FORGE:ACME: COMPLETE -->');
    expect(custom.map((c) => [c.type, c.inlineValue])).toEqual([
      ['ACME', null],
      ['ACME', 'COMPLETE'],
    ]);
    expect(parse('<!-- FORGE:ACME -->\nx\n<!-- FORGE:ACME:COMPLETE -->')[0].sentinelState).toBe('complete');
    expect(parse('<!-- FORGE:ACME:OTHER -->')).toEqual([]);
    expect(parse('<!-- FORGE:1ACME -->')).toEqual([]);
    expect(parse('<!-- FORGE: ACME -->')).toEqual([]);
  });

  test('an inline value keeps its inner spaces and loses the outer ones; a described marker too', () => {
    expect(parse('<!-- FORGE:PRIOR_GIST:   a  b   -->')[0].inlineValue).toBe('a  b');
    expect(parse('<!-- FORGE:DISPATCHER   —   routes  phases   -->')[0].inlineValue).toBe('routes  phases');
    expect(parse('<!-- FORGE:DISPATCHER -routes -->')).toEqual([]);
    expect(parse('<!-- FORGE:DISPATCHER - -->')[0].inlineValue).toBe('');
  });

  test('a sentinel before the first tag belongs to nothing; one after a tag belongs to it', () => {
    const [a] = parse(`<!-- FORGE:CONTEXT:COMPLETE -->\n<!-- FORGE:CONTEXT -->\nx`);
    expect([a.sentinelState, a.foreignSentinels]).toEqual(['interrupted', []]);
  });

  test('a marker closes at the last **Key**: line right under it; prose after is kept out', () => {
    const body = '<!-- FORGE:GATE_FAILED -->\n**Gate**: lint\n**Tries**: 3\nThe gate failed.\n**Later**: not the marker';
    const [a] = parse(body);
    expect(body.slice(a.start, a.closeEnd)).toBe('<!-- FORGE:GATE_FAILED -->\n**Gate**: lint\n**Tries**: 3');
    const fenced = '<!-- FORGE:GATE_FAILED -->\n```\n**Gate**: lint\n```';
    const [b] = parse(fenced);
    expect(fenced.slice(b.start, b.closeEnd)).toBe('<!-- FORGE:GATE_FAILED -->');
    const indented = '<!-- FORGE:GATE_FAILED -->\n  **Gate**: lint';
    const [c] = parse(indented);
    expect(indented.slice(c.start, c.closeEnd)).toBe('<!-- FORGE:GATE_FAILED -->');
  });

  test('the extent leaves out trailing blank lines but keeps a tag line alone', () => {
    const [a] = parse('<!-- FORGE:CONTEXT -->\n\n   \n\t\n');
    expect([a.startLine, a.endLine, a.raw]).toEqual([0, 0, '<!-- FORGE:CONTEXT -->']);
  });

  test('reserved types get their category; custom ones "custom"', () => {
    expect(parse('<!-- FORGE:GATE_FAILED -->')[0].category).toBe('control');
    expect(parse('<!-- FORGE:ACME -->')[0].category).toBe('custom');
    expect(parse('<!-- FORGE:ACME: v -->')[0].sentinelState).toBe('complete');
  });

  test('findAnnotations keeps one type only', async () => {
    const { findAnnotations } = await import('../src/codec/parse.js');
    const body = '<!-- FORGE:CLAIM -->\nx\n<!-- FORGE:CLAIM_RELEASED -->';
    expect(findAnnotations(body, 'CLAIM').map((a) => a.type)).toEqual(['CLAIM']);
    expect(findAnnotations('no tags', 'CLAIM')).toEqual([]);
  });

  test('fence openers: three or more, backtick info strings hold no backtick, the info string is trimmed', async () => {
    const { fenceInfo, openingFence, closesFence } = await import('../src/codec/fences.js');
    expect(openingFence('``')).toBeNull();
    expect(openingFence('```')).toEqual({ char: 96, length: 3 });
    expect(openingFence('   ~~~~ x`y')).toEqual({ char: 126, length: 4 });
    expect(openingFence('``` a`b')).toBeNull();
    expect(openingFence('`x```')).toBeNull();
    expect(openingFence('    ```')).toBeNull();
    expect(openingFence('---')).toBeNull();
    expect(fenceInfo('```  jsonc  ')).toBe('jsonc');
    expect(fenceInfo('  ~~~json')).toBe('json');
    expect(closesFence('   ````', { char: 96, length: 3 })).toBe(true);
    expect(closesFence('    ```', { char: 96, length: 3 })).toBe(false);
    expect(closesFence('``', { char: 96, length: 3 })).toBe(false);
  });

  test('an emitted open fence is closed with the same character and length', async () => {
    const { closeOpenFences } = await import('../src/codec/fences.js');
    expect(closeOpenFences('a\n~~~~\nb', ['a', '~~~~', 'b'])).toBe('a\n~~~~\nb\n~~~~');
    expect(closeOpenFences('```\nx\n```\n````', ['```', 'x', '```', '````'])).toBe('```\nx\n```\n````\n````');
    expect(closeOpenFences('```\nx\n```', ['```', 'x', '```'])).toBe('```\nx\n```');
  });

  test('the line table: CR before LF is one break, a CR after the last LF still ends a line, blank tests spaces and tabs only', async () => {
    const { LineTable, isBlankLine, splitLines } = await import('../src/codec/lines.js');
    expect(splitLines('a\r\nb\rc\n\rd')).toEqual(['a', 'b', 'c', '', 'd']);
    expect(splitLines('a\nb\r')).toEqual(['a', 'b', '']);
    const t = new LineTable(' \t x\n\t \n');
    expect([t.firstNonBlank(0), t.isBlank(0), t.isBlank(1), t.count]).toEqual([3, false, true, 3]);
    expect([isBlankLine(' \t'), isBlankLine(' x'), isBlankLine('\u00a0'), isBlankLine('')]).toEqual([true, false, false, true]);
  });

  test('characters: the class edges', async () => {
    const chars = await import('../src/codec/chars.js');
    expect(['@', 'A', 'Z', '['].map((c) => chars.isUpper(c.charCodeAt(0)))).toEqual([false, true, true, false]);
    expect(['/', '0', '9', ':'].map((c) => chars.isDigit(c.charCodeAt(0)))).toEqual([false, true, true, false]);
    expect(chars.trimBlank(' \t a b \t ')).toBe('a b');
    expect(chars.trimBlank('   ')).toBe('');
    expect(chars.trimBlank('\u00a0a\u00a0')).toBe('\u00a0a\u00a0');
  });

  test('escaping: keys escape *, decoding reverses in order, text without & or -- passes through', async () => {
    const { encode, decode, encodeKey, decodeKey } = await import('../src/codec/escape.js');
    expect(encode('a--b')).toBe('a--b');
    expect(encode('a-->b')).toBe('a--&gt;b');
    expect(encode('<!--x')).toBe('&lt;!--x');
    expect(decode('&amp;lt;!--')).toBe('&lt;!--');
    expect(encodeKey('a*b&c')).toBe('a&#42;b&amp;c');
    expect(decodeKey('a&#42;b&amp;c')).toBe('a*b&c');
    expect(decodeKey('plain')).toBe('plain');
  });

  test('CARD: version, sha shape, canonical payload, base64url alphabet', () => {
    const value = cardValue({ a: 1 });
    const [, sha, b64] = value.split(' ');
    const errors = (v: string) => parseAndValidate(`<!-- FORGE:CARD: ${v} -->`)[0].errors.join(' | ');
    expect(errors(value)).toBe('');
    expect(errors(`v2 ${sha} ${b64}`)).toContain('unknown CARD version "v2"');
    expect(errors(`v1 sha:ABCDEF12 ${b64}`)).toContain('sha is not 8 lower-case hex digits');
    expect(errors(`v1 sha:abcdef123 ${b64}`)).toContain('sha is not 8 lower-case hex digits');
    expect(errors(`v1 ${sha} b64:${Buffer.from('{"b":1, "a":2}').toString('base64url')}`)).toContain('payload is not canonical JSON');
    expect(errors(`v1 ${sha} b64:${Buffer.from('not json').toString('base64url')}`)).toContain('b64 does not decode to JSON');
    expect(errors(`v1 ${sha} b64:e+/=`)).toContain('b64 does not decode to JSON');
    expect(errors(`v1  ${sha}   ${b64}`)).toBe('');
    expect(errors(`v1 ${b64} ${sha}`)).toContain('value is not of the form');
    expect(errors(`v1 ${sha}`)).toContain('value is not of the form');
    expect(cardValue({ b: [1, { d: 1, c: undefined }], a: null })).toBe(cardValue({ a: null, b: [1, { d: 1 }] }));
    expect(() => cardValue({ f: () => 1 } as unknown)).toThrow('CARD payload holds a value JSON cannot represent');
  });
});

test('quote(): one line, cut at the limit with an ellipsis, JSON-quoted', async () => {
  const { quote } = await import('../src/codec/quote.js');
  expect(quote('a\r\nb\rc\nd')).toBe('"a⏎b⏎c⏎d"');
  expect(quote('x'.repeat(80))).toBe(`"${'x'.repeat(80)}"`);
  expect(quote('x'.repeat(81))).toBe(`"${'x'.repeat(80)}…"`);
  expect(quote('abcdef', 3)).toBe('"abc…"');
  expect(quote(42)).toBe('"42"');
  expect(quote('say "hi"')).toBe('"say \\"hi\\""');
});
