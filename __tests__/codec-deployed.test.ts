/**
 * Issue 7: the text deployed pipelines really post, read as the spec says —
 * §3.1 extent, validity limited to what is normative or relied on, unknown
 * types never failing, real field shapes, INVESTIGATION:INVALID — and emit
 * writing each template exactly, readable by the plain readers pipelines run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  codeSpan,
  completionSentinels,
  emit,
  emitPartial,
  EmitError,
  parse,
  parseAndValidate,
  stripCodeSpan,
  TYPES,
  validate,
  type EmitInput,
} from '../src/codec/index.js';
import { evaluate } from '../src/decision/evaluate.js';
import { parseTrustPolicy } from '../src/common/trust.js';
import type { WorkItem } from '../src/common/work-item.js';

const INV_HEAD = [
  '<!-- FORGE:INVESTIGATOR -->',
  '## Investigation Report',
  '',
  '**Verdict**: CONFIRMED',
  '**Confidence**: HIGH',
  '**Severity**: MEDIUM',
  '**Task Type**: Bug Fix',
  '**Decomposition Assessment**: NO — one module',
].join('\n');

describe('§3.1 extent: a sentinel does not end an annotation', () => {
  test('fields, sections and tables after the sentinel belong to the annotation', () => {
    const body = `${INV_HEAD}\n\n<!-- INVESTIGATION:COMPLETE -->\n\n### Root Cause\nNo null guard.\n\n| File | Line |\n|---|---|\n| a.py | 3 |\n\n**Reviewer note**: see above\n\n`;
    const [a] = parseAndValidate(body);
    expect(a.sentinelState).toBe('complete');
    expect(a.valid).toBe(true);
    expect(a.sections['Root Cause']).toBe('No null guard.\n\n| File | Line |\n|---|---|\n| a.py | 3 |\n\n**Reviewer note**: see above');
    expect(a.tables[0].rows).toEqual([{ File: 'a.py', Line: '3' }]);
    expect(a.fields['Reviewer note']).toBe('see above');
    expect(body.slice(a.start, a.end).endsWith('**Reviewer note**: see above')).toBe(true);
    expect(body.slice(a.start, a.closeEnd).endsWith('<!-- INVESTIGATION:COMPLETE -->')).toBe(true);
  });

  test('a sentinel on line 2 completes and the template below it is read', () => {
    const [a] = parseAndValidate(
      '<!-- FORGE:BUILDER -->\n<!-- FORGE:BUILDER:COMPLETE -->\n**Branch**: `b`\n**Commits**: c1\n**Files changed**: 1',
    );
    expect(a).toMatchObject({ sentinelState: 'complete', valid: true, fields: { Branch: '`b`', Commits: 'c1', 'Files changed': '1' } });
  });

  test('the last own sentinel decides; an annotation still ends at the next tag', () => {
    const body =
      '<!-- FORGE:CONTEXT -->\nx\n<!-- FORGE:CONTEXT:COMPLETE -->\nlater\n<!-- FORGE:CONTEXT:PARTIAL -->\n<!-- FORGE:ARCHITECT -->\nplan';
    const [c, ar] = parse(body);
    expect(c.sentinelState).toBe('partial');
    expect(c.raw.endsWith('<!-- FORGE:CONTEXT:PARTIAL -->')).toBe(true);
    expect(ar.type).toBe('ARCHITECT');
  });

  test('a fenced sentinel after the real one changes nothing', () => {
    const [a] = parse(`${INV_HEAD}\n<!-- INVESTIGATION:COMPLETE -->\n\`\`\`\n<!-- INVESTIGATION:PARTIAL -->\n\`\`\``);
    expect(a.sentinelState).toBe('complete');
  });
});

describe('validity: normative rules and what deployed readers rely on, no more', () => {
  test.each([
    ['CONTRACT', '<!-- FORGE:CONTRACT -->\n### Proposed Approach\nx', 'Task type'],
    ['BUILDER', '<!-- FORGE:BUILDER -->\n**Branch**: `b`\n**Commits**: c\n<!-- FORGE:BUILDER:COMPLETE -->', 'Files changed'],
    ['REVIEWER', '<!-- FORGE:REVIEWER -->\n## Review — LOGIC', 'Verdict'],
    ['CLAIM', '<!-- FORGE:CLAIM -->\n**Holder**: h\n**Files**: a\n**Interfaces**: none\n<!-- CLAIM:COMPLETE -->', 'TTL'],
    [
      'AUTOPILOT_CYCLE',
      '<!-- FORGE:AUTOPILOT_CYCLE -->\n**cycle_id**: 1\n**timestamp**: t\n**baseline**: b\n<!-- FORGE:AUTOPILOT_CYCLE:COMPLETE -->',
      'phase_markers',
    ],
    ['INVESTIGATOR', `${INV_HEAD.replace('**Severity**: MEDIUM\n', '')}\n<!-- INVESTIGATION:COMPLETE -->`, 'Severity'],
  ])('%s without a required field is invalid', (type, body, field) => {
    const [a] = parseAndValidate(body);
    expect(a.type).toBe(type);
    expect(a.valid).toBe(false);
    expect(a.errors.some((e) => e.includes(`field "${field}" is missing — required`))).toBe(true);
  });

  test('template-only gaps are warnings and template gaps, never errors', () => {
    const cases: Array<[string, string, string]> = [
      ['TRAJECTORY', '<!-- FORGE:TRAJECTORY -->\n## Pipeline Trajectory — #1', 'Decisions'],
      [
        'DECOMPOSED',
        '<!-- FORGE:DECOMPOSED -->\n### Decomposition Rationale\nsplit\n<!-- FORGE:DECOMPOSED:COMPLETE -->',
        'Sub-Issues Created',
      ],
      ['DESIGN_CONTEXT', '<!-- FORGE:DESIGN_CONTEXT -->\n**Message:** m\n<!-- FORGE:DESIGN_CONTEXT:COMPLETE -->', 'Audience / objection'],
      ['DESIGN_CANDIDATES', '<!-- FORGE:DESIGN_CANDIDATES -->\n**Selected:** #1', 'Archetype (committed)'],
      ['CRITIQUE', '<!-- FORGE:CRITIQUE -->\n**Lint floor:** PASS\n<!-- FORGE:CRITIQUE:COMPLETE -->', 'Verdict'],
      ['USER_FEEDBACK', '<!-- FORGE:USER_FEEDBACK -->\n**Modification:** bigger\n<!-- FORGE:USER_FEEDBACK:COMPLETE -->', 'Satisfied'],
    ];
    for (const [type, body, missing] of cases) {
      const [a] = parseAndValidate(body);
      expect([a.type, a.valid, a.errors]).toEqual([type, true, []]);
      expect(a.templateGaps.some((g) => g.includes(missing))).toBe(true);
      expect(a.warnings).toEqual(expect.arrayContaining(a.templateGaps));
    }
  });

  test('a present value outside the listed values is still an error, template field or not', () => {
    expect(parseAndValidate('<!-- FORGE:CRITIQUE -->\n**Verdict:** MAYBE\n<!-- FORGE:CRITIQUE:COMPLETE -->')[0].valid).toBe(false);
    expect(parseAndValidate('<!-- FORGE:USER_FEEDBACK -->\n**Satisfied:** perhaps\n<!-- FORGE:USER_FEEDBACK:COMPLETE -->')[0].valid).toBe(
      false,
    );
    const r = parseAndValidate('<!-- FORGE:REVIEWER -->\n**Verdict**: APPROVED\n### Findings\n- **Severity**: SEVERE\n  **Issue**: x')[0];
    expect(r.errors).toEqual(['REVIEWER: finding 1 "Severity" is "SEVERE" — expected one of CRITICAL, HIGH, MEDIUM, LOW (§4.1)']);
  });

  test('DESIGN_RATIONALE MUSTs stay errors: signature move, a rejected alternative, the DESIGN_SPEC link', () => {
    const ok = '<!-- FORGE:DESIGN_RATIONALE -->\n**Signature move:** numeral\n  - Considered & rejected: loud\n\n→ Produces DESIGN_SPEC: x';
    expect(parseAndValidate(ok)[0].valid).toBe(true);
    expect(parseAndValidate(ok.replace('**Signature move:** numeral\n', ''))[0].errors).toEqual([
      'DESIGN_RATIONALE: field "Signature move" is missing — required (§4.4)',
    ]);
  });

  test('every registry field has a presence, and a required one that the spec does not list says why', () => {
    for (const spec of TYPES) {
      for (const f of spec.fields) {
        expect(['required', 'template', 'optional']).toContain(f.presence);
        const normative = spec.type === 'INVESTIGATOR' || (spec.type === 'DESIGN_RATIONALE' && f.name === 'Signature move');
        if (f.presence === 'required' && !normative) expect(f.because).toBeTruthy();
      }
    }
  });
});

describe('unknown types never fail (§7.2(4), §8)', () => {
  test('an interrupted custom type is read as interrupted, valid, with a warning', () => {
    const [a] = parseAndValidate('<!-- FORGE:ACME_SCAN -->\n**Result**: clean');
    expect(a).toMatchObject({ sentinelState: 'interrupted', valid: true, errors: [] });
    expect(a.warnings).toEqual(
      expect.arrayContaining(['ACME_SCAN: completion sentinel <!-- ACME_SCAN:COMPLETE --> is missing — treated as interrupted (§3.2)']),
    );
  });

  test('a gate that requires a custom type still needs its sentinel', () => {
    const item = (body: string): WorkItem => ({
      number: 1,
      kind: 'issue',
      url: 'u',
      title: 't',
      author: { login: 'o', association: 'OWNER' },
      body: '',
      labels: [],
      state: 'open',
      milestone: null,
      comments: [{ id: 1, url: 'c', author: { login: 'o', association: 'OWNER' }, body, createdAt: null }],
    });
    const opts = { required: ['ACME_SCAN'], validation: 'strict' as const, trust: parseTrustPolicy(undefined) };
    expect(evaluate([item('<!-- FORGE:ACME_SCAN -->\nclean')], [], opts).incomplete).toEqual(['ACME_SCAN']);
    expect(evaluate([item('<!-- FORGE:ACME_SCAN -->\nclean\n<!-- ACME_SCAN:COMPLETE -->')], [], opts).conforming).toBe(true);
  });
});

describe('field shapes real producers write', () => {
  test('a list under an empty **Key**: line is the value; indented lines too', () => {
    const [a] = parse(
      '<!-- FORGE:TRAJECTORY -->\n**Decisions**:\n\n- one\n- two\n  - nested\n**Anomalies**:\n  none seen\n  really\n**Completed**: 2026-01-01',
    );
    expect(a.fields).toMatchObject({ Decisions: '- one\n- two\n- nested', Anomalies: 'none seen\nreally', Completed: '2026-01-01' });
    expect(a.trajectory?.decisions).toBe('- one\n- two\n- nested');
  });

  test('an empty key followed by prose keeps an empty value', () => {
    const [a] = parse('<!-- FORGE:CONTEXT -->\n**Notes**:\nplain prose\n<!-- FORGE:CONTEXT:COMPLETE -->');
    expect(a.fields.Notes).toBe('');
  });

  test('known spellings are read as the field, with a warning; the field itself wins', () => {
    const [a] = parseAndValidate(
      '<!-- FORGE:TRAJECTORY -->\n| Phase | Result | Notes |\n|---|---|---|\n| Close | done | x |\n**Decisions**: d\n**Anomalies**: None\n**Pipeline completed**: 2026-03-01T00:00:00Z',
    );
    expect(a.fields.Completed).toBe('2026-03-01T00:00:00Z');
    expect(a.trajectory?.completed).toBe('2026-03-01T00:00:00Z');
    expect(a.templateGaps).toEqual([]);
    expect(a.warnings).toContain('TRAJECTORY: field "Pipeline completed" read as "Completed" — the §4.1 template writes "Completed"');
    const [b] = parse('<!-- FORGE:TRAJECTORY -->\n**Pipeline completed**: old\n**Completed**: new');
    expect(b.fields.Completed).toBe('new');
    expect(b.fieldAliases).toEqual([]);
  });

  test('markers keep the **Key**: lines under them, and emit writes them', () => {
    const text = '<!-- FORGE:CLAIM_RELEASED -->\n**Holder**: builder-2\n**Released**: 2026-01-01T00:00:00Z';
    const [a] = parseAndValidate(`${text}\n\nThanks all.`);
    expect(a).toMatchObject({ sentinelState: 'complete', valid: true, fields: { Holder: 'builder-2', Released: '2026-01-01T00:00:00Z' } });
    expect(emit('CLAIM_RELEASED', { fields: { Holder: 'builder-2', Released: '2026-01-01T00:00:00Z' } })).toBe(text);
    const body = `${text}\n\nThanks all.`;
    expect(body.slice(a.start, a.closeEnd)).toBe(text);
  });
});

describe('INVESTIGATION:INVALID', () => {
  test('is recognised, not complete, and named in the error', () => {
    const [a] = parseAndValidate(`${INV_HEAD.replace('CONFIRMED', 'INVALID')}\n\n<!-- INVESTIGATION:INVALID -->`);
    expect(a.sentinelState).toBe('interrupted');
    expect(a.valid).toBe(false);
    expect(a.errors[0]).toContain('closed with INVESTIGATION:INVALID, not the §4.1 sentinel (Verdict: INVALID)');
    expect(a.errors.join()).not.toContain('is missing');
    expect(a.warnings.join()).not.toContain('belongs to another type');
  });
});

describe('emit writes the template exactly and never drops input', () => {
  test('code-span fields: BUILDER Branch and REVIEWER Location', () => {
    const text = emit('BUILDER', { fields: { Branch: 'fix/x', Commits: 'a1', 'Files changed': '1' } });
    expect(text).toContain('**Branch**: `fix/x`');
    expect(emit('BUILDER', { fields: { Branch: '`fix/x`', Commits: 'a1', 'Files changed': '1' } })).toBe(text);
    expect(emit('BUILDER', { fields: { Branch: 'a`b', Commits: 'a1', 'Files changed': '1' } })).toContain('**Branch**: ``a`b``');
    expect(emit('REVIEWER', { fields: { Verdict: 'APPROVED' }, findings: [{ severity: 'LOW', location: 'a.ts:3' }] })).toContain(
      '**Location**: `a.ts:3`',
    );
  });

  test('stripCodeSpan strips exactly one enclosing span', () => {
    expect(stripCodeSpan('`fix/x`')).toBe('fix/x');
    expect(stripCodeSpan('``a`b``')).toBe('a`b');
    expect(stripCodeSpan('`` `x` ``')).toBe('`x`');
    expect(stripCodeSpan('fix/x')).toBe('fix/x');
    expect(stripCodeSpan('`a` and `b`')).toBe('`a` and `b`');
    expect(stripCodeSpan('``')).toBe('``');
    for (const v of ['x', 'a`b', '`x`', '``', 'a``b`']) expect(stripCodeSpan(codeSpan(v))).toBe(v);
  });

  test('an unknown top-level input key beside EmitInput keys throws, naming `fields`; alone, keys are the fields (§13.2)', () => {
    expect(() => emit('CONTEXT', { title: 'T', Note: 'x' } as unknown as EmitInput)).toThrow(EmitError);
    expect(() => emit('CONTEXT', { title: 'T', Note: 'x' } as unknown as EmitInput)).toThrow(/fields go under `fields`/);
    expect(emit('CONTEXT', { Note: 'x' })).toBe(emit('CONTEXT', { fields: { Note: 'x' } }));
  });

  test('fields a template does not list are written, markers included', () => {
    expect(emit('CONTEXT', { fields: { Note: 'x' } })).toContain('**Note**: x');
    expect(emit('REVIEW_STARTED', { fields: { Agent: 'security' } })).toBe('<!-- FORGE:REVIEW_STARTED -->\n**Agent**: security');
    expect(emit('PRIOR_GIST', { value: 'https://gist.github.com/o/abcdef0123456789abcd', fields: { From: '#12' } })).toContain(
      '\n**From**: #12',
    );
  });

  test('custom types get the generic sentinels of §3.2 and §3.3; reading accepts both shapes', () => {
    const text = emit('ACME_SCAN', { fields: { Result: 'clean' } });
    expect(text.endsWith('\n<!-- ACME_SCAN:COMPLETE -->')).toBe(true);
    expect(emit('ACME_SCAN', { fields: { Result: 'x' }, status: 'partial' }).endsWith('\n<!-- ACME_SCAN:PARTIAL -->')).toBe(true);
    expect(emitPartial('ACME_SCAN')).toBe('<!-- ACME_SCAN:PARTIAL -->');
    expect(parse('<!-- FORGE:ACME_SCAN -->\nx\n<!-- FORGE:ACME_SCAN:COMPLETE -->')[0].sentinelState).toBe('complete');
    expect(parse(text)[0].sentinelState).toBe('complete');
  });

  test('a Markdown line of only U+2028, U+2029 or a no-break space is written as it was', () => {
    for (const ch of ['\u2028', '\u2029', '\u00a0']) {
      const text = emit('CONTEXT', { body: `${ch}\nline\n${ch}` });
      expect(text).toContain(`\n\n${ch}\nline\n${ch}\n\n<!-- FORGE:CONTEXT:COMPLETE -->`);
      expect(parse(text)[0].sentinelState).toBe('complete');
    }
  });
});

/** A sample input that makes each reserved body type valid. */
const SAMPLES: Record<string, EmitInput> = {
  INVESTIGATOR: {
    fields: { Verdict: 'CONFIRMED', Confidence: 'HIGH', Severity: 'LOW', 'Task Type': 'Bug Fix', 'Decomposition Assessment': 'NO — small' },
  },
  CONTRACT: { fields: { 'Task type': 'Feature' } },
  BUILDER: { fields: { Branch: 'fix/x', Commits: 'a1b2c3d', 'Files changed': '2' } },
  REVIEWER: { fields: { Verdict: 'APPROVED' } },
  DESIGN_RATIONALE: { fields: { 'Signature move': 'numeral' }, body: '- Considered & rejected: loud\n\n→ Produces DESIGN_SPEC: x' },
  CLAIM: { fields: { Holder: 'h', Files: 'a', Interfaces: 'none', TTL: '5m' } },
  AUTOPILOT_CYCLE: { fields: { cycle_id: '1', timestamp: 't', baseline: 'b', phase_markers: 'p' } },
  CARD: { card: { a: 1 } },
  KNOWLEDGE_GIST: { value: 'https://gist.github.com/o/0123456789abcdef0123' },
  MILESTONE_INDEX: { value: 'https://gist.github.com/o/0123456789abcdef0123' },
  PRIOR_GIST: { value: 'https://gist.github.com/o/0123456789abcdef0123' },
  MEMORY_INDEX: { value: 'o/r' },
  DISPATCHER: { value: 'routes' },
  PHASE_COMPLETE: { value: 'next: review' },
};

describe('plain readers pipelines run find what emit writes, for every reserved type', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-readers-'));
  const grep = (pattern: string, file: string) => {
    try {
      execFileSync('grep', ['-qF', '--', pattern, file]);
      return true;
    } catch {
      return false;
    }
  };

  test.each(TYPES.map((t) => t.type))('%s', (type) => {
    const spec = TYPES.find((t) => t.type === type)!;
    const text = emit(type, SAMPLES[type] ?? {});
    const file = join(dir, `${type}.md`);
    writeFileSync(file, `${text}\n`);
    const [a] = parseAndValidate(text);
    expect([a.type, a.valid, a.sentinelState]).toEqual([type, true, 'complete']);
    if (spec.form === 'body' || spec.form === 'marker') expect(grep(`<!-- FORGE:${type} -->`, file)).toBe(true);
    else expect(grep(`<!-- FORGE:${type}`, file)).toBe(true);
    const sentinel = completionSentinels(type)[0];
    if (sentinel) expect(grep(`<!-- ${sentinel} -->`, file)).toBe(true);
    // `^\*\*Key\*\*: (.*)$` line readers get every field's value back.
    for (const [k, v] of Object.entries((SAMPLES[type]?.fields ?? {}) as Record<string, string>)) {
      const re = new RegExp(`^\\*\\*${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\*\\*:|:\\*\\*) (.*)$`, 'm');
      const m = re.exec(text);
      expect(m).not.toBeNull();
      expect(stripCodeSpan(m![1])).toBe(v);
    }
    if (type === 'BUILDER') expect(/\*\*Branch\*\*:\s*`([^`]+)`/.exec(text)?.[1]).toBe('fix/x');
    expect(validate(a).errors).toEqual([]);
  });
});
