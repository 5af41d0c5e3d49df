/** emit(): exact text for each input shape, and each refusal — the template, byte for byte. */
import { codeSpan, emit, emitAnnotation, EmitError, stripCodeSpan, type EmitInput } from '../src/codec/index.js';

test('scalars: null and undefined are empty, arrays join with a comma, objects as JSON, numbers and booleans as text', () => {
  const text = emit('CONTEXT', { fields: { A: null, B: undefined, C: ['x', 2, null], D: { k: 1 }, E: 0, F: false } as never });
  expect(text).toBe(
    '<!-- FORGE:CONTEXT -->\n## Implementation Context\n\n**A**:\n**B**:\n**C**: x, 2,\n**D**: {"k":1}\n**E**: 0\n**F**: false\n\n<!-- FORGE:CONTEXT:COMPLETE -->',
  );
});

test('the template order: title, lead table, fields in registry order, sections in registry order, body, sentinel', () => {
  const text = emit('TRAJECTORY', {
    title: 'Pipeline Trajectory — #7',
    table: [{ Phase: 'Build', Result: 'done', Extra: 'x|y' }],
    fields: { Completed: '2026-01-01', Note: 'n', Decisions: 'd' },
    body: 'Free text.',
  });
  expect(text).toBe(
    '<!-- FORGE:TRAJECTORY -->\n## Pipeline Trajectory — #7\n\n| Phase | Result | Notes | Extra |\n|---|---|---|---|\n| Build | done |  | x\\|y |\n\n**Decisions**: d\n**Completed**: 2026-01-01\n**Note**: n\n\nFree text.',
  );
  const sections = emit('ARCHITECT', {
    sections: {
      Later: 'z',
      'Files to Read Before Coding': ['a.ts'],
      'Implementation Order': ['one', 'two'],
      'Consistency Checks': ['inv'],
    },
  });
  expect(sections).toBe(
    '<!-- FORGE:ARCHITECT -->\n## Implementation Plan\n\n### Implementation Order\n1. one\n2. two\n\n### Consistency Checks\n- [ ] inv\n\n### Files to Read Before Coding\n- a.ts\n\n### Later\nz\n\n<!-- FORGE:ARCHITECT:COMPLETE -->',
  );
});

test('section lists: checklist items with checked as a boolean or the string "true", table rows by the section columns', () => {
  const text = emit('BUILDER', {
    fields: { Branch: 'b', Commits: 'c', 'Files changed': '1' },
    sections: {
      'Acceptance Criteria Status': [
        { text: 'a', checked: true },
        { text: 'b', checked: 'true' as never },
        { text: 'c' },
        { text: 'd', checked: 'no' as never },
      ],
    },
  });
  expect(text).toContain('### Acceptance Criteria Status\n- [x] a\n- [x] b\n- [ ] c\n- [ ] d');
  const table = emit('CONTRACT', { fields: { 'Task type': 'Feature' }, sections: { Deliverables: [{ Why: 'w', File: 'f' }] } });
  expect(table).toContain('### Deliverables\n| File | Change | Why |\n|---|---|---|\n| f |  | w |');
  expect(emit('CONTEXT', { sections: { Empty: '', Notes: [] } })).toContain('### Empty\n\n### Notes\n\n<!--');
  expect(() => emit('CONTEXT', { sections: { Bad: 5 as never } })).toThrow('a section value must be Markdown text or a list');
});

test('findings are written under ### Findings unless a Findings section is given', () => {
  const text = emit('REVIEWER', {
    fields: { Verdict: 'APPROVED' },
    findings: [{ severity: 'LOW', location: '`a.ts:1`', issue: 'i', suggestedFix: null, prevention: undefined }, { location: 'b.ts' }],
  });
  expect(text).toBe(
    '<!-- FORGE:REVIEWER -->\n## Review\n\n**Verdict**: APPROVED\n\n### Findings\n- **Severity**: LOW\n  **Location**: `a.ts:1`\n  **Issue**: i\n- **Severity**:\n  **Location**: `b.ts`',
  );
  expect(
    emit('REVIEWER', { fields: { Verdict: 'APPROVED' }, findings: [{ severity: 'LOW' }], sections: { findings: 'mine' } }),
  ).not.toContain('**Severity**');
});

test('one-line forms: a marker ignores a value with a warning; a described marker; an empty value is refused; a CARD', () => {
  const marker = emitAnnotation('GATE_FAILED', { value: 'x' });
  expect(marker).toEqual({
    text: '<!-- FORGE:GATE_FAILED -->',
    warnings: ['GATE_FAILED is a marker with no value; the value was not written'],
  });
  expect(emitAnnotation('GATE_FAILED', { value: '' }).warnings).toEqual([]);
  expect(emit('DISPATCHER')).toBe('<!-- FORGE:DISPATCHER -->');
  expect(emit('DISPATCHER', { value: 'routes' })).toBe('<!-- FORGE:DISPATCHER — routes -->');
  expect(() => emit('PRIOR_GIST', { value: '  ' })).toThrow('PRIOR_GIST needs a non-empty value (§3.4)');
  expect(() => emit('PRIOR_GIST', { value: 'x', status: 'partial' })).toThrow('PRIOR_GIST is written in one line and has no partial form');
  expect(emit('CARD', { value: 'v1 sha:x b64:y' })).toBe('<!-- FORGE:CARD: v1 sha:x b64:y -->');
  expect(emit('ACME_LINK', { value: 'https://x' })).toBe('<!-- FORGE:ACME_LINK: https://x -->');
  expect(emit('ACME_LINK', { value: 'v', fields: { A: 'b' } })).toBe('<!-- FORGE:ACME_LINK -->\n\n**A**: b\n\n<!-- ACME_LINK:COMPLETE -->');
  expect(emit('GATE_FAILED', { title: 'T', body: 'why' })).toBe('<!-- FORGE:GATE_FAILED -->\n\n## T\n\nwhy');
});

test('refusals: empty keys and headings, input that is not an object, several unknown keys', () => {
  expect(() => emit('CONTEXT', { fields: { ' ': 'x' } })).toThrow('a field key is empty');
  expect(() => emit('CONTEXT', { sections: { '  ': 'x' } })).toThrow('a section heading is empty');
  expect(() => emit('CONTEXT', null as unknown as EmitInput)).toThrow('emit(CONTEXT, input): input must be an object');
  expect(() => emit('CONTEXT', [] as unknown as EmitInput)).toThrow('input must be an object');
  expect(() => emit('CONTEXT', { title: 'T', A: 1, B: 2 } as unknown as EmitInput)).toThrow('emit(CONTEXT): unknown input keys "A", "B"');
  expect(() => emit('CONTEXT', { body: 'x', A: 1 } as unknown as EmitInput)).toThrow(EmitError);
  expect(emitAnnotation('ACME_V2', {}).warnings).toEqual([
    'type ACME_V2 is outside [A-Z_]+: readers using the reference grammar <!-- FORGE:[A-Z_]+ --> will not see it',
  ]);
  expect(emitAnnotation('ACME', {}).warnings).toEqual([]);
});

test('titles: the template title by default, none when given empty, and the body alone', () => {
  expect(emit('CONTEXT', { title: '' })).toBe('<!-- FORGE:CONTEXT -->\n\n<!-- FORGE:CONTEXT:COMPLETE -->');
  expect(emit('ACME', { body: '  \n\n body \n\n' })).toBe('<!-- FORGE:ACME -->\n\n body \n\n<!-- ACME:COMPLETE -->');
  expect(emit('ACME', { body: ' \t\n' })).toBe('<!-- FORGE:ACME -->\n\n<!-- ACME:COMPLETE -->');
});

test('code spans: sized runs, padding only where a backtick touches the edge, and their inverse', () => {
  expect(codeSpan('x')).toBe('`x`');
  expect(codeSpan('a``b')).toBe('```a``b```');
  expect(codeSpan('`a')).toBe('`` `a ``');
  expect(codeSpan('a`')).toBe('`` a` ``');
  expect(stripCodeSpan(' `x` ')).toBe('x');
  expect(stripCodeSpan('` x `')).toBe('x');
  expect(stripCodeSpan('` `')).toBe('` `');
  expect(stripCodeSpan('`a``')).toBe('`a``');
  expect(stripCodeSpan('``a`')).toBe('``a`');
  expect(stripCodeSpan('`x')).toBe('`x');
  expect(stripCodeSpan('` x`')).toBe(' x');
});
