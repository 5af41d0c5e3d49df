import { parse, validate, parseAndValidate, findAnnotations } from '../src/codec/index.js';
import { classifyLine } from '../src/codec/tags.js';
import { splitLines } from '../src/codec/lines.js';

describe('line model', () => {
  test('LF, CRLF and lone CR end lines; U+2028, U+2029 and U+0085 do not', () => {
    expect(splitLines('a\nb\r\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitLines('a\u2028b\u2029c\u0085d')).toEqual(['a\u2028b\u2029c\u0085d']);
  });
});

describe('classifyLine', () => {
  test.each([
    ['<!-- FORGE:BUILDER -->', { kind: 'open', type: 'BUILDER', value: null }],
    ['  <!-- FORGE:BUILDER -->\t', { kind: 'open', type: 'BUILDER' }],
    ['<!-- FORGE:KNOWLEDGE_GIST: https://x -->', { kind: 'open', type: 'KNOWLEDGE_GIST', value: 'https://x' }],
    ['<!-- FORGE:PRIOR_GIST: COMPLETE -->', { kind: 'open', type: 'PRIOR_GIST', value: 'COMPLETE' }],
    ['<!-- FORGE:DISPATCHER — routes -->', { kind: 'open', type: 'DISPATCHER', value: 'routes', valueForm: 'dash' }],
    ['<!-- FORGE:BUILDER:COMPLETE -->', { kind: 'sentinel', name: 'FORGE:BUILDER:COMPLETE' }],
    ['<!-- FORGE:BUILDER: COMPLETE -->', { kind: 'sentinel', name: 'FORGE:BUILDER:COMPLETE' }],
    ['<!-- INVESTIGATION:COMPLETE -->', { kind: 'sentinel', name: 'INVESTIGATION:COMPLETE' }],
    ['<!-- INVESTIGATION:PARTIAL -->', { kind: 'sentinel', name: 'INVESTIGATION:PARTIAL' }],
    ['<!-- ACME: v -->', { kind: 'text' }],
    ['<!-- FORGE:ACME: COMPLETE -->', { kind: 'open', type: 'ACME', value: 'COMPLETE' }],
    ['<!-- FORGE:ACME:COMPLETE -->', { kind: 'sentinel', name: 'FORGE:ACME:COMPLETE' }],
    ['<!-- forge:builder -->', { kind: 'text' }],
    ['<!-- FORGE:Builder -->', { kind: 'text' }],
    ['text <!-- FORGE:BUILDER -->', { kind: 'text' }],
    ['<!-- FORGE:BUILDER --> -->', { kind: 'text' }],
    ['<!-- FORGE:X --!> -->', { kind: 'text' }],
    ['<!-- FORGE: -->', { kind: 'text' }],
    ['<!-- FORGE:BUILDER x -->', { kind: 'text' }],
    ['<!--FORGE:BUILDER-->', { kind: 'open', type: 'BUILDER' }],
  ])('%s', (line, expected) => {
    expect(classifyLine(line)).toMatchObject(expected);
  });
});

describe('parse', () => {
  test('never throws on non-strings', () => {
    expect(parse(undefined as unknown as string)).toEqual([]);
    expect(parse(42 as unknown as string)).toEqual([]);
  });

  test('an annotation ends at the next opening tag, not at its sentinel (§3.1); closeEnd stops at the sentinel', () => {
    const body = 'intro\n<!-- FORGE:CONTEXT -->\nctx\n<!-- FORGE:CONTEXT:COMPLETE -->\nafter\n<!-- FORGE:GATE_FAILED -->\ntrailing';
    const [a, b] = parse(body);
    expect(a.type).toBe('CONTEXT');
    expect(a.sentinelState).toBe('complete');
    expect(body.slice(a.start, a.end)).toBe('<!-- FORGE:CONTEXT -->\nctx\n<!-- FORGE:CONTEXT:COMPLETE -->\nafter');
    expect(body.slice(a.start, a.closeEnd)).toBe('<!-- FORGE:CONTEXT -->\nctx\n<!-- FORGE:CONTEXT:COMPLETE -->');
    expect(b).toMatchObject({
      type: 'GATE_FAILED',
      isControl: true,
      sentinelState: 'complete',
      raw: '<!-- FORGE:GATE_FAILED -->\ntrailing',
    });
    expect(body.slice(b.start, b.closeEnd)).toBe('<!-- FORGE:GATE_FAILED -->');
  });

  test('an interrupted annotation spans to its last non-blank line', () => {
    const body = '<!-- FORGE:BUILDER -->\n**Branch**: x\n\n\n';
    const [a] = parse(body);
    expect(a.sentinelState).toBe('interrupted');
    expect(a.raw).toBe('<!-- FORGE:BUILDER -->\n**Branch**: x');
  });

  test('the last own sentinel decides', () => {
    const body = '<!-- FORGE:BUILDER -->\n<!-- FORGE:BUILDER:PARTIAL -->\n<!-- FORGE:BUILDER:COMPLETE -->';
    expect(parse(body)[0].sentinelState).toBe('complete');
  });

  test('tables, checklists and sections', () => {
    const body = [
      '<!-- FORGE:CONTRACT -->',
      '## Builder Contract',
      '',
      '**Task type**: Feature',
      '',
      '### Deliverables',
      '| File | Change | Why |',
      '|------|--------|-----|',
      '| a\\|b.ts | add | x |',
      '',
      '### Acceptance Criteria',
      '- [ ] one',
      '- [x] two',
    ].join('\n');
    const [a] = parse(body);
    expect(a.title).toBe('Builder Contract');
    expect(a.tables).toEqual([
      { section: 'Deliverables', headers: ['File', 'Change', 'Why'], rows: [{ File: 'a|b.ts', Change: 'add', Why: 'x' }] },
    ]);
    expect(a.checklist).toEqual([
      { section: 'Acceptance Criteria', checked: false, text: 'one' },
      { section: 'Acceptance Criteria', checked: true, text: 'two' },
    ]);
    expect(Object.keys(a.sections)).toEqual(['Deliverables', 'Acceptance Criteria']);
    expect(validate(a).valid).toBe(true);
  });

  test('TRAJECTORY reads phases, decisions, PR and branch; a missing table or time is reported', () => {
    const body = [
      '<!-- FORGE:TRAJECTORY -->',
      '## Pipeline Trajectory — #128',
      '',
      '| Phase | Result | Notes |',
      '|---|---|---|',
      '| Build | done | Branch: `fix/x` |',
      '| Review + Merge | merged | PR #131 → `main` |',
      '',
      '**Decisions**: d',
      '**Anomalies**: None',
      '**Completed**: 2026-01-15T09:30:00Z',
    ].join('\n');
    const [a] = parse(body);
    expect(a.trajectory).toEqual({
      phases: [
        { phase: 'Build', result: 'done', notes: 'Branch: `fix/x`' },
        { phase: 'Review + Merge', result: 'merged', notes: 'PR #131 → `main`' },
      ],
      decisions: 'd',
      anomalies: 'None',
      completed: '2026-01-15T09:30:00Z',
      prNumber: 131,
      branch: 'fix/x',
    });
    const broken = parseAndValidate('<!-- FORGE:TRAJECTORY -->\n**Decisions**: d\n**Anomalies**: None\n**Completed**: yesterday')[0];
    // Template-only (§4.1 shows them, nothing normative asks): warnings, never errors.
    expect(broken.errors).toEqual([]);
    expect(broken.valid).toBe(true);
    expect(broken.warnings).toEqual([
      'TRAJECTORY: field "Completed" is "yesterday" — expected an ISO 8601 timestamp (§4.1)',
      'TRAJECTORY: the phase table (| Phase | Result | Notes |) is missing or empty — the §4.1 template shows it',
    ]);
    expect(broken.templateGaps).toEqual([
      'TRAJECTORY: the phase table (| Phase | Result | Notes |) is missing or empty — the §4.1 template shows it',
    ]);
  });

  test('DESIGN_SPEC reads its jsonc block', () => {
    const body =
      '<!-- FORGE:DESIGN_SPEC -->\n## Design Spec — x\n\n```jsonc\n{\n  // comment\n  "meta": { "product": "x", "url": "http://a//b" }, /* c */\n  "negatives": [1, 2,],\n}\n```';
    const [a] = parse(body);
    expect(a.designSpec).toEqual({ meta: { product: 'x', url: 'http://a//b' }, negatives: [1, 2] });
    expect(validate(a).valid).toBe(true);
  });

  test('DESIGN_RATIONALE needs a rejected alternative and the Produces link', () => {
    const a = parseAndValidate('<!-- FORGE:DESIGN_RATIONALE -->\n**Direction:** calm\n**Signature move:** numeral')[0];
    expect(a.errors).toEqual([
      'DESIGN_RATIONALE: carries no explicitly rejected alternative ("Considered & rejected: …") (§4.4)',
      'DESIGN_RATIONALE: missing the "→ Produces DESIGN_SPEC: {link}" line (§4.4)',
    ]);
  });

  test('errors name the field and the spec section', () => {
    const a = parseAndValidate(
      '<!-- FORGE:INVESTIGATOR -->\n**Verdict**: MAYBE\n**Confidence**: HIGH\n**Severity**: LOW\n**Task Type**: Chore\n**Decomposition Assessment**: NO',
    )[0];
    expect(a.errors).toEqual([
      'INVESTIGATOR: completion sentinel <!-- INVESTIGATION:COMPLETE --> is missing — treated as interrupted (§3.2)',
      'INVESTIGATOR: field "Verdict" is "MAYBE" — expected one of CONFIRMED, PARTIAL, INVALID (§4.1)',
      'INVESTIGATOR: field "Task Type" is "Chore" — expected one of Bug Fix, Feature, Refactor, Maintenance, Investigation (§4.1)',
    ]);
  });

  test('text-contains over-matching does not happen: CLAIM vs CLAIM_RELEASED, REVIEW vs REVIEWER', () => {
    const body = '<!-- FORGE:CLAIM_RELEASED -->\n<!-- FORGE:REVIEW_STARTED -->';
    expect(findAnnotations(body, 'CLAIM')).toEqual([]);
    expect(findAnnotations(body, 'REVIEWER')).toEqual([]);
    expect(parse(body).map((a) => a.type)).toEqual(['CLAIM_RELEASED', 'REVIEW_STARTED']);
  });

  test('a foreign sentinel is reported as a warning', () => {
    const a = parseAndValidate('<!-- FORGE:CONTEXT -->\nx\n<!-- FORGE:BUILDER:COMPLETE -->\n<!-- FORGE:CONTEXT:COMPLETE -->')[0];
    expect(a.sentinelState).toBe('complete');
    expect(a.warnings[0]).toContain('FORGE:BUILDER:COMPLETE');
  });
});
