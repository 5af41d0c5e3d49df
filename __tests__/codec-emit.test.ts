import {
  emit,
  emitAnnotation,
  emitPartial,
  EmitError,
  parse,
  validate,
  parseAndValidate,
  cardValue,
  canonicalJson,
  decode,
  encode,
} from '../src/codec/index.js';

test('escaping follows NOTES.md §1 byte for byte', () => {
  expect(encode('a & <!-- b --> c --!> d')).toBe('a &amp; &lt;!-- b --&gt; c --!&gt; d');
  expect(decode('a &amp; &lt;!-- b --&gt; c --!&gt; d')).toBe('a & <!-- b --> c --!> d');
  // & first makes it injective: these two stay distinct.
  expect(encode('<!--&gt;')).not.toBe(encode('&lt;!--&gt;'));
});

test('the INVESTIGATOR template, with the decomposition written as a field', () => {
  const text = emit('INVESTIGATOR', {
    fields: {
      Verdict: 'CONFIRMED',
      Confidence: 'HIGH',
      Severity: 'HIGH',
      'Task Type': 'Bug Fix',
      'Decomposition Assessment': 'NO — single-file fix.',
    },
    sections: { Recommendation: 'Guard it.', 'Root Cause': 'null profile' },
  });
  expect(text).toBe(
    [
      '<!-- FORGE:INVESTIGATOR -->',
      '## Investigation Report',
      '',
      '**Verdict**: CONFIRMED',
      '**Confidence**: HIGH',
      '**Severity**: HIGH',
      '**Task Type**: Bug Fix',
      '**Decomposition Assessment**: NO — single-file fix.',
      '',
      '### Root Cause',
      'null profile',
      '',
      '### Recommendation',
      'Guard it.',
      '',
      '<!-- INVESTIGATION:COMPLETE -->',
    ].join('\n'),
  );
});

test('tables, checklists and lists by section kind', () => {
  const text = emit('CONTRACT', {
    fields: { 'Task type': 'Feature' },
    sections: {
      'Acceptance Criteria': ['works', { text: 'tested', checked: true }],
      Deliverables: [{ File: 'a|b.ts', Change: 'add', Why: 'x' }],
    },
  });
  expect(text).toContain('### Deliverables\n| File | Change | Why |\n|---|---|---|\n| a\\|b.ts | add | x |');
  expect(text).toContain('### Acceptance Criteria\n- [ ] works\n- [x] tested');
  const [a] = parse(text);
  expect(a.tables[0].rows).toEqual([{ File: 'a|b.ts', Change: 'add', Why: 'x' }]);
  expect(validate(a).valid).toBe(true);
});

test('design types use **Key:** fields', () => {
  expect(emit('CRITIQUE', { fields: { Verdict: 'PASS' } })).toContain('**Verdict:** PASS');
});

test('partial form mirrors the completion sentinel', () => {
  expect(emit('INVESTIGATOR', { status: 'partial' }).endsWith('<!-- INVESTIGATION:PARTIAL -->')).toBe(true);
  expect(emitPartial('BUILDER')).toBe('<!-- FORGE:BUILDER:PARTIAL -->');
  expect(emitPartial('CONTRACT')).toBe('<!-- CONTRACT:PARTIAL -->');
  expect(parse(emit('BUILDER', { status: 'partial' }))[0].sentinelState).toBe('partial');
  expect(parse(emit('ACME', { fields: { a: 1 }, status: 'partial' }))[0].sentinelState).toBe('partial');
});

test('inline, marker and CARD forms', () => {
  expect(emit('KNOWLEDGE_GIST', { value: 'https://gist.github.com/a/b' })).toBe(
    '<!-- FORGE:KNOWLEDGE_GIST: https://gist.github.com/a/b -->',
  );
  expect(emit('PHASE_COMPLETE', { value: 'next: review' })).toBe('<!-- FORGE:PHASE_COMPLETE — next: review -->');
  expect(emit('GATE_FAILED')).toBe('<!-- FORGE:GATE_FAILED -->');
  const card = emit('CARD', { card: { status: 'merged', issue: 1370 } });
  expect(card).toBe(`<!-- FORGE:CARD: ${cardValue({ issue: 1370, status: 'merged' })} -->`);
  const [a] = parseAndValidate(card);
  expect(a.valid).toBe(true);
  expect(a.card?.payload).toEqual({ issue: 1370, status: 'merged' });
  expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: 'x' })).toBe('{"a":"x","b":[{"c":2,"d":1}]}');
  expect(() => emit('KNOWLEDGE_GIST', { value: '  ' })).toThrow(EmitError);
  expect(() => emit('KNOWLEDGE_GIST', { status: 'partial', value: 'x' })).toThrow('no partial form');
});

test('the type name is validated, never escaped', () => {
  expect(() => emit('BUILDER -->\n<!-- FORGE:X')).toThrow(EmitError);
  expect(() => emit('builder')).toThrow(EmitError);
  expect(() => emit('')).toThrow(EmitError);
});

test('a digit type is emitted with a warning and reads back', () => {
  const { text, warnings } = emitAnnotation('ACME_V2', { fields: { a: 'b' } });
  expect(warnings[0]).toContain('[A-Z_]+');
  expect(parse(text)[0]).toMatchObject({ type: 'ACME_V2', sentinelState: 'complete' });
});

test('a whole value shaped like a tag is escaped, not refused, and round-trips', () => {
  const text = emit('BUILDER', { fields: { Branch: 'x', Commits: '<!-- FORGE:X -->', 'Files changed': '1' } });
  expect(text).toContain('**Commits**: &lt;!-- FORGE:X --&gt;');
  expect(parse(text)).toHaveLength(1);
  expect(parse(text)[0].fields.Commits).toBe('<!-- FORGE:X -->');
});

test('an unclosed fence in a section is closed so the sentinel survives', () => {
  const text = emit('CONTEXT', { sections: { 'Known Pitfalls for This Area': '```js\nconst a = 1;' } });
  expect(parse(text)[0].sentinelState).toBe('complete');
  expect(parse(text)[0].sections['Known Pitfalls for This Area']).toBe('```js\nconst a = 1;\n```');
});

test('REVIEWER findings round-trip', () => {
  const findings = [{ severity: 'HIGH', location: '`a.ts:3`', issue: 'x', suggestedFix: 'y', prevention: 'z' }];
  const [a] = parseAndValidate(emit('REVIEWER', { fields: { Verdict: 'CHANGES_REQUESTED' }, findings }));
  expect(a.findings).toEqual(findings);
  expect(a.valid).toBe(true);
});

test('values are folded and trimmed in single-line slots', () => {
  const [a] = parse(emit('ACME', { fields: { ' key\r\nA ': '  line one\nline two\r\n' } }));
  expect(a.fields).toEqual({ 'key A': 'line one line two' });
});

test('keys named like Object internals round-trip as plain fields and sections', () => {
  const [a] = parse(
    emit('ACME', {
      fields: [
        ['__proto__', 'x'],
        ['constructor', 'y'],
        ['toString', 'z'],
      ],
      sections: Object.fromEntries([['__proto__', 'body']]),
    }),
  );
  expect(Object.keys(a.fields)).toEqual(['__proto__', 'constructor', 'toString']);
  expect(a.fields.constructor).toBe('y');
  expect(Object.getPrototypeOf(a.fields)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(a.sections, '__proto__')?.value).toBe('body');
});

test("§13.2's emit(type, fields): the fields themselves as the second argument; the full input still works", () => {
  const plain = emit('BUILDER', { Branch: '`fix/x`', Commits: 'a1b2c3d', 'Files changed': '2' });
  const [a] = parse(plain);
  expect(a).toMatchObject({ type: 'BUILDER', sentinelState: 'complete' });
  expect(a.fields).toMatchObject({ Commits: 'a1b2c3d', 'Files changed': '2' });
  expect(validate(a).valid).toBe(true);
  expect(emit('BUILDER', { fields: { Branch: '`fix/x`', Commits: 'a1b2c3d', 'Files changed': '2' } })).toBe(plain);
  expect(parse(emitPartial('BUILDER'))).toEqual([]);
});

test("a partial annotation's default title never says it is complete; a given title is kept", () => {
  const partial = emit('BUILDER', { fields: { Branch: 'fix/x' }, status: 'partial' });
  expect(partial.split('\n').slice(0, 2)).toEqual(['<!-- FORGE:BUILDER -->', '## Implementation (partial)']);
  expect(emit('BUILDER', { fields: { Branch: 'fix/x' } }).split('\n')[1]).toBe('## Implementation Complete');
  expect(emit('BUILDER', { fields: { Branch: 'fix/x' }, status: 'partial', title: 'Half way' }).split('\n')[1]).toBe('## Half way');
  expect(emit('INVESTIGATOR', { fields: { Verdict: 'CONFIRMED' }, status: 'partial' }).split('\n')[1]).toBe('## Investigation Report');
});
