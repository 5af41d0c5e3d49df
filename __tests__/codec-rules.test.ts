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
