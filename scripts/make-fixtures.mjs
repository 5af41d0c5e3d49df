// Writes the conformance fixtures in fixtures/: every reserved type valid,
// invalid and partial (where the type has such forms), and the edge cases the
// parser must get right. Valid inputs are written through the built codec,
// so they are what a conforming producer emits. Usage: node scripts/make-fixtures.mjs
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { emit, TYPES } from '../dist/codec/index.js';

const dir = new URL('../fixtures/', import.meta.url).pathname;
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const SAMPLE = {
  INVESTIGATOR: {
    fields: {
      Verdict: 'CONFIRMED',
      Confidence: 'HIGH',
      Severity: 'MEDIUM',
      'Task Type': 'Bug Fix',
      'Decomposition Assessment': 'NO — single fix',
    },
  },
  DECOMPOSED: { sections: { 'Sub-Issues Created': ['#12: part one', '#13: part two'], 'Decomposition Rationale': 'Two modules.' } },
  CONTRACT: {
    fields: { 'Task type': 'Feature' },
    sections: { Deliverables: [{ File: 'a.ts', Change: 'add', Why: 'feature' }], 'Acceptance Criteria': ['works'] },
  },
  CONTEXT: { sections: { 'Known Pitfalls for This Area': 'None.' } },
  ARCHITECT: { sections: { 'Risk Assessment': [{ Risk: 'drift', Severity: 'LOW', Mitigation: 'tests' }] } },
  BUILDER: { fields: { Branch: '`fix/a`', Commits: 'a1b2c3d', 'Files changed': '2' } },
  REVIEWER: {
    fields: { Verdict: 'APPROVED' },
    findings: [{ severity: 'LOW', location: '`a.ts:1`', issue: 'nit', suggestedFix: 'rename', prevention: 'lint rule' }],
  },
  TRAJECTORY: {
    table: [{ Phase: 'Build', Result: 'done', Notes: 'Branch: `fix/a`' }],
    fields: { Decisions: 'none', Anomalies: 'None', Completed: '2026-01-15T09:30:00Z' },
  },
  KNOWLEDGE_GIST: { value: 'https://gist.github.com/octo/0123456789abcdef' },
  MILESTONE_INDEX: { value: 'https://gist.github.com/octo/fedcba9876543210' },
  PRIOR_GIST: { value: 'https://gist.github.com/octo/0123456789abcdef' },
  MEMORY_INDEX: { value: 'octo/repo' },
  DISPATCHER: { value: 'routes every phase' },
  PHASE_COMPLETE: { value: 'build done, next: review' },
  DESIGN_CONTEXT: { fields: { Message: 'ship faster', 'Audience / objection': 'CTOs — must overcome: risk' } },
  DESIGN_RATIONALE: {
    fields: { Direction: 'editorial — because calm', 'Signature move': 'one oversized numeral' },
    body: '  - Considered & rejected: brutalist (because loud)\n\n→ Produces DESIGN_SPEC: https://example.com/spec',
  },
  DESIGN_CANDIDATES: { fields: { 'Archetype (committed)': 'editorial', Selected: '#2 — because calm' } },
  DESIGN_SPEC: {
    body: '```jsonc\n{\n  // the page\n  "meta": { "product": "x", "archetype": "editorial" },\n}\n```\n\n→ Produced by FORGE:DESIGN_RATIONALE: https://example.com/r',
  },
  CRITIQUE: { fields: { 'Lint floor': 'PASS', Verdict: 'PASS' } },
  USER_FEEDBACK: { fields: { 'Section target': 'hero', 'Feedback type': 'emotion', 'Emotion target': 'trust', Satisfied: 'yes' } },
  BENCH_SCORECARD: { fields: { 'Judge calibration': 'ok' } },
  DESIGN_SHIPPED: { fields: { Archetype: 'editorial', Gates: 'rubric pass' } },
  AUDIT: { body: 'Findings: none.' },
  SECURITY_AUDIT: { body: 'Four phases run; no findings.' },
  CLAIM: { fields: { Holder: 'builder-7', Files: 'src/a.ts, src/b.ts', Interfaces: 'none', TTL: '30m' } },
  AUTOPILOT_CYCLE: { fields: { cycle_id: 'c-1', timestamp: '2026-01-01T00:00:00Z', baseline: 'green', phase_markers: 'build,review' } },
  REMEDIATION: { fields: { 'Re-gate outcome': 'AUTO-LANDED after one retry' } },
  CARD: { card: { issue: 1370, status: 'merged' } },
};

/**
 * What breaks each type: a value outside the spec's list, a required field
 * missing (normative, or relied on by deployed readers), or a MUST unmet.
 */
const BREAK = {
  INVESTIGATOR: (s) => ({ ...s, fields: { ...s.fields, Verdict: 'MAYBE' } }),
  CONTRACT: () => ({ sections: { 'Proposed Approach': 'no task type' } }),
  BUILDER: (s) => ({ fields: { Branch: s.fields.Branch } }),
  REVIEWER: () => ({ fields: { Verdict: 'LGTM' } }),
  DESIGN_RATIONALE: (s) => ({ fields: s.fields }),
  CRITIQUE: () => ({ fields: { Verdict: 'MAYBE' } }),
  USER_FEEDBACK: (s) => ({ fields: { ...s.fields, 'Feedback type': 'vibes' } }),
  CLAIM: () => ({ fields: { Holder: 'x' } }),
  AUTOPILOT_CYCLE: () => ({ fields: { cycle_id: 'c-1' } }),
  REMEDIATION: () => ({ fields: { 'Re-gate outcome': 'SHIPPED' } }),
};

/**
 * Template-only gaps (docs/annotation-types.md): the template shows it, nothing
 * normative requires it — a warning, so the annotation stays valid.
 */
const TEMPLATE_GAP = {
  DECOMPOSED: () => ({ sections: { 'Decomposition Rationale': 'no list of sub-issues' } }),
  TRAJECTORY: (s) => ({ fields: s.fields }),
  DESIGN_CONTEXT: () => ({ fields: { Message: 'only a message' } }),
  DESIGN_CANDIDATES: () => ({ fields: { Selected: '#1' } }),
  DESIGN_SPEC: () => ({ body: 'no spec block' }),
};

const fixtures = [];
const add = (file, description, input, expect) => fixtures.push({ file, fixture: { description, input, expect } });

for (const spec of TYPES) {
  const t = spec.type;
  const sample = SAMPLE[t] ?? {};
  const file = `type-${t.toLowerCase().replace(/_/g, '-')}.json`;
  const valid = emit(t, sample);
  add(file, `${t}: a conforming annotation is valid`, valid, { type: t, valid: true, sentinelState: 'complete' });
  if (spec.form === 'inline') {
    add(file, `${t}: an empty inline value is invalid`, `<!-- FORGE:${t}:  -->`, { type: t, valid: false, inlineValue: '' });
    continue;
  }
  if (spec.form !== 'body') continue;
  add(file, `${t}: the partial form reads back as partial`, emit(t, { ...sample, status: 'partial' }), {
    type: t,
    valid: false,
    sentinelState: 'partial',
  });
  if (BREAK[t])
    add(file, `${t}: a broken annotation is invalid`, emit(t, BREAK[t](sample)), { type: t, valid: false, sentinelState: 'complete' });
  if (TEMPLATE_GAP[t])
    add(file, `${t}: a template-only gap is a warning, still valid`, emit(t, TEMPLATE_GAP[t](sample)), {
      type: t,
      valid: true,
      sentinelState: 'complete',
    });
  if (spec.complete) {
    const cut = valid.slice(0, valid.lastIndexOf('\n\n<!--'));
    add(file, `${t}: without its sentinel it is interrupted`, cut, { type: t, valid: false, sentinelState: 'interrupted' });
  }
}

const E = 'edge-cases.json';
const inv = (verdict = 'CONFIRMED') =>
  `<!-- FORGE:INVESTIGATOR -->\n## Investigation Report\n\n**Verdict**: ${verdict}\n**Confidence**: HIGH\n**Severity**: LOW\n**Task Type**: Bug Fix\n**Decomposition Assessment**: NO — small`;
add(
  E,
  'a tag with surrounding spaces is a tag',
  `   <!-- FORGE:INVESTIGATOR -->  \n**Verdict**: CONFIRMED\n**Confidence**: HIGH\n**Severity**: LOW\n**Task Type**: Bug Fix\n**Decomposition Assessment**: NO\n\n  <!-- INVESTIGATION:COMPLETE -->\t`,
  { type: 'INVESTIGATOR', valid: true, sentinelState: 'complete' },
);
add(E, 'a tag inside prose is not a tag', 'We discussed adding <!-- FORGE:INVESTIGATOR --> later.', { type: null });
add(E, 'a sentinel quoted inside a field value does not complete', `${inv()}\n**Note**: wrote <!-- INVESTIGATION:COMPLETE --> too early`, {
  type: 'INVESTIGATOR',
  valid: false,
  sentinelState: 'interrupted',
});
add(
  E,
  'a tag inside a ``` fence is content, not an annotation',
  'Example:\n```\n<!-- FORGE:BUILDER -->\n<!-- FORGE:BUILDER:COMPLETE -->\n```',
  { type: null },
);
add(E, 'a sentinel inside a ~~~ fence does not complete', `${inv()}\n~~~markdown\n<!-- INVESTIGATION:COMPLETE -->\n~~~`, {
  type: 'INVESTIGATOR',
  sentinelState: 'interrupted',
});
add(E, 'a field inside a fence is content', `${inv()}\n\`\`\`\n**Verdict**: INVALID\n\`\`\`\n\n<!-- INVESTIGATION:COMPLETE -->`, {
  type: 'INVESTIGATOR',
  valid: true,
  fieldChecks: { Verdict: 'CONFIRMED' },
});
add(E, 'an unclosed fence runs to the end and swallows the sentinel', `${inv()}\n\`\`\`\nunclosed\n<!-- INVESTIGATION:COMPLETE -->`, {
  type: 'INVESTIGATOR',
  sentinelState: 'interrupted',
});
add(E, 'a fence indented four spaces is not a fence', `${inv()}\n    \`\`\`\n<!-- INVESTIGATION:COMPLETE -->`, {
  type: 'INVESTIGATOR',
  sentinelState: 'complete',
});
add(E, 'lowercase forge: is not a tag', '<!-- forge:investigator -->\n**Verdict**: CONFIRMED', { type: null });
add(E, 'lowercase type is not a tag', '<!-- FORGE:Investigator -->', { type: null });
add(E, '<!-- FORGE:PRIOR_GIST: COMPLETE --> is the inline value COMPLETE', '<!-- FORGE:PRIOR_GIST: COMPLETE -->', {
  type: 'PRIOR_GIST',
  sentinelState: 'complete',
  inlineValue: 'COMPLETE',
});
add(E, 'FORGE:T:COMPLETE is a sentinel for a body type, not an opener', `<!-- FORGE:BUILDER:COMPLETE -->`, { type: null });
add(E, 'a sentinel before any opening tag is ignored', `<!-- INVESTIGATION:COMPLETE -->\n${inv()}`, {
  type: 'INVESTIGATOR',
  sentinelState: 'interrupted',
});
const two = `${inv()}\n\n<!-- INVESTIGATION:COMPLETE -->\n<!-- FORGE:BUILDER -->\n**Branch**: x\n**Commits**: a\n**Files changed**: 1`;
add(E, 'two annotations in one comment: the first is complete', two, {
  type: 'INVESTIGATOR',
  count: 2,
  valid: true,
  sentinelState: 'complete',
});
add(E, 'two annotations in one comment: the second ends at the end of the comment, interrupted', two, {
  type: 'BUILDER',
  count: 2,
  sentinelState: 'interrupted',
});
add(E, 'CRLF line breaks', `${inv()}\n\n<!-- INVESTIGATION:COMPLETE -->`.replace(/\n/g, '\r\n'), {
  type: 'INVESTIGATOR',
  valid: true,
  sentinelState: 'complete',
  fieldChecks: { Verdict: 'CONFIRMED' },
});
add(E, 'lone CR line breaks', `${inv()}\n\n<!-- INVESTIGATION:COMPLETE -->`.replace(/\n/g, '\r'), {
  type: 'INVESTIGATOR',
  valid: true,
  sentinelState: 'complete',
});
add(E, 'an empty inline value is invalid', '<!-- FORGE:KNOWLEDGE_GIST: -->', { type: 'KNOWLEDGE_GIST', valid: false, inlineValue: '' });
add(E, 'a repeated field key: the first occurrence wins', `${inv()}\n**Verdict**: INVALID\n\n<!-- INVESTIGATION:COMPLETE -->`, {
  type: 'INVESTIGATOR',
  valid: true,
  fieldChecks: { Verdict: 'CONFIRMED' },
});
add(
  E,
  'non-ASCII text in fields',
  `<!-- FORGE:BUILDER -->\n**Branch**: \`fix/ünïcødé-日本\`\n**Commits**: a1b2c3d\n**Files changed**: 2 — 👍\n\n<!-- FORGE:BUILDER:COMPLETE -->`,
  { type: 'BUILDER', valid: true, fieldChecks: { Branch: '`fix/ünïcødé-日本`', 'Files changed': '2 — 👍' } },
);
add(
  E,
  'U+2028 inside a value is not a line break and cannot spoof a sentinel',
  `<!-- FORGE:BUILDER -->\n**Branch**: x\n**Files changed**: 1\n**Commits**: abc\u2028<!-- FORGE:BUILDER:COMPLETE -->`,
  { type: 'BUILDER', sentinelState: 'interrupted', fieldChecks: { Commits: 'abc\u2028<!-- FORGE:BUILDER:COMPLETE -->' } },
);
add(
  E,
  'U+2029 and U+0085 are not line breaks either',
  `<!-- FORGE:BUILDER -->\n**Commits**: abc\u2029<!-- FORGE:BUILDER:COMPLETE -->\u0085<!-- FORGE:BUILDER:COMPLETE -->`,
  { type: 'BUILDER', sentinelState: 'interrupted' },
);
add(
  E,
  '**Key:** value fields (§4.4 templates)',
  `<!-- FORGE:CRITIQUE -->\n## Critique — page · iteration 1/3\n\n**Lint floor:** PASS\n**Verdict:** ITERATE\n<!-- FORGE:CRITIQUE:COMPLETE -->`,
  { type: 'CRITIQUE', valid: true, fieldChecks: { Verdict: 'ITERATE', 'Lint floor': 'PASS' } },
);
add(E, 'a type with digits is read (outside the reference grammar)', '<!-- FORGE:ACME_V2 -->\nbody\n<!-- FORGE:ACME_V2:COMPLETE -->', {
  type: 'ACME_V2',
  valid: true,
  sentinelState: 'complete',
});
add(E, 'a custom type is completed by {T}:COMPLETE', '<!-- FORGE:ACME_SCAN -->\nclean\n<!-- ACME_SCAN:COMPLETE -->', {
  type: 'ACME_SCAN',
  valid: true,
  sentinelState: 'complete',
});
add(
  E,
  "a custom type is not completed by another type's sentinel, and never invalid (§7.2(4))",
  '<!-- FORGE:ACME_SCAN -->\nclean\n<!-- OTHER:COMPLETE -->',
  { type: 'ACME_SCAN', valid: true, sentinelState: 'interrupted' },
);
add(
  E,
  'a generic partial sentinel <!-- BUILDER:PARTIAL --> for a type with no dedicated one',
  '<!-- FORGE:BUILDER -->\n**Branch**: x\n<!-- BUILDER:PARTIAL -->',
  { type: 'BUILDER', valid: false, sentinelState: 'partial' },
);
add(E, 'the FORGE:{TYPE}:PARTIAL shape is read', '<!-- FORGE:CONTEXT -->\nsome\n<!-- FORGE:CONTEXT:PARTIAL -->', {
  type: 'CONTEXT',
  sentinelState: 'partial',
});
add(E, 'the completion sentinel with PARTIAL is read', `${inv()}\n<!-- INVESTIGATION:PARTIAL -->`, {
  type: 'INVESTIGATOR',
  sentinelState: 'partial',
});
add(E, "another type's sentinel does not complete INVESTIGATOR", `${inv()}\n<!-- FORGE:BUILDER:COMPLETE -->`, {
  type: 'INVESTIGATOR',
  sentinelState: 'interrupted',
});
add(E, 'DISPATCHER takes a dash description', '<!-- FORGE:DISPATCHER — routes phases -->', {
  type: 'DISPATCHER',
  valid: true,
  inlineValue: 'routes phases',
});
add(E, 'an HTML comment closing early is not a tag', '<!-- FORGE:BUILDER --> visible -->', { type: null });
add(E, 'escaped tags are text', '&lt;!-- FORGE:BUILDER --&gt;', { type: null });
add(E, 'a CARD whose sha does not match is invalid', '<!-- FORGE:CARD: v1 sha:00000000 b64:eyJhIjoxfQ -->', { type: 'CARD', valid: false });
add(
  E,
  'the spec §9.1 worked example validates, Decomposition Assessment read from its heading',
  '<!-- FORGE:INVESTIGATOR -->\n## Investigation Report\n\n**Verdict**: CONFIRMED\n**Confidence**: HIGH\n**Severity**: HIGH\n**Task Type**: Bug Fix\n\n### Root Cause\n`payments/validator.py:142` — the billing-profile lookup does not guard\nagainst a null profile for free-tier users, raising on every checkout.\n\n### Affected Files\n1. `payments/validator.py`\n\n### Recommendation\nReturn an empty profile when the lookup is null; add a regression test.\n\n### Decomposition Assessment\n**NO** — single-file fix.\n\n<!-- INVESTIGATION:COMPLETE -->',
  { type: 'INVESTIGATOR', valid: true, sentinelState: 'complete', fieldChecks: { 'Decomposition Assessment': 'NO — single-file fix.' } },
);
add(
  E,
  'the spec §9.1 TRAJECTORY validates',
  '<!-- FORGE:TRAJECTORY -->\n## Pipeline Trajectory — #128\n\n| Phase | Result | Notes |\n|-------|--------|-------|\n| Investigation | CONFIRMED (HIGH) | Task type: Bug Fix |\n| Build | done | Branch: `fix/null-billing-profile-128` |\n| Review + Merge | merged | PR #131 |\n| Close | done | Issue closed |\n\n**Decisions**: Guard at the lookup site rather than each caller.\n**Anomalies**: None\n**Completed**: 2026-01-15T09:30:00Z',
  { type: 'TRAJECTORY', valid: true, fieldChecks: { Completed: '2026-01-15T09:30:00Z' } },
);

// Shapes deployed pipelines post (docs/implementation-notes.md §2), written from the spec's templates.
const D = 'deployed-shapes.json';
const INV_HEAD =
  '<!-- FORGE:INVESTIGATOR -->\n## Investigation Report\n\n**Verdict**: CONFIRMED\n**Confidence**: HIGH\n**Severity**: MEDIUM\n**Task Type**: Bug Fix\n**Decomposition Assessment**: NO — one module';
add(
  D,
  'sections appended after the sentinel belong to the annotation (§3.1)',
  `${INV_HEAD}\n\n<!-- INVESTIGATION:COMPLETE -->\n\n### Root Cause\nThe lookup skips the null guard.\n\n**Evidence file**: payments/validator.py`,
  { type: 'INVESTIGATOR', valid: true, sentinelState: 'complete', fieldChecks: { 'Evidence file': 'payments/validator.py' } },
);
add(
  D,
  'a sentinel on line 2, fields after it',
  '<!-- FORGE:BUILDER -->\n<!-- FORGE:BUILDER:COMPLETE -->\n## Implementation Complete\n\n**Branch**: `fix/x`\n**Commits**: a1b2c3d\n**Files changed**: 2',
  { type: 'BUILDER', valid: true, sentinelState: 'complete', fieldChecks: { Branch: '`fix/x`', Commits: 'a1b2c3d' } },
);
add(
  D,
  'the last own sentinel decides, wherever it stands',
  '<!-- FORGE:CONTEXT -->\n<!-- FORGE:CONTEXT:PARTIAL -->\nmore context\n<!-- FORGE:CONTEXT:COMPLETE -->\nappended notes',
  { type: 'CONTEXT', valid: true, sentinelState: 'complete' },
);
add(
  D,
  'TRAJECTORY: Decisions as a list under an empty key, Pipeline completed for Completed',
  '<!-- FORGE:TRAJECTORY -->\n## Pipeline Trajectory — #7\n\n| Phase | Result | Notes |\n|---|---|---|\n| Build | done | Branch: `fix/y` |\n\n**Decisions**:\n- Guard at the lookup\n- Keep the old API\n**Anomalies**: None\n**Pipeline completed**: 2026-02-01T10:00:00Z',
  {
    type: 'TRAJECTORY',
    valid: true,
    sentinelState: 'complete',
    fieldChecks: { Decisions: '- Guard at the lookup\n- Keep the old API', Completed: '2026-02-01T10:00:00Z' },
  },
);
add(
  D,
  'TRAJECTORY with only its phase table is valid (template fields are warnings)',
  '<!-- FORGE:TRAJECTORY -->\n| Phase | Result | Notes |\n|---|---|---|\n| Close | done | Issue closed |',
  { type: 'TRAJECTORY', valid: true, sentinelState: 'complete' },
);
add(
  D,
  'TRAJECTORY with no phase table is valid too',
  '<!-- FORGE:TRAJECTORY -->\n## Pipeline Trajectory — #9\n\n**Decisions**: none\n**Anomalies**: None\n**Completed**: 2026-02-01T10:00:00Z',
  { type: 'TRAJECTORY', valid: true, sentinelState: 'complete' },
);
add(
  D,
  'CLAIM: Files as a newline-separated list under an empty key',
  '<!-- FORGE:CLAIM -->\n**Holder**: builder-3\n**Files**:\n- src/a.ts\n- src/b.ts\n**Interfaces**: none\n**TTL**: 30m\n<!-- CLAIM:COMPLETE -->',
  { type: 'CLAIM', valid: true, sentinelState: 'complete', fieldChecks: { Files: '- src/a.ts\n- src/b.ts', TTL: '30m' } },
);
add(
  D,
  'CLAIM_RELEASED keeps the Holder and Released lines under the marker',
  '<!-- FORGE:CLAIM_RELEASED -->\n**Holder**: builder-3\n**Released**: 2026-02-01T10:00:00Z',
  {
    type: 'CLAIM_RELEASED',
    valid: true,
    sentinelState: 'complete',
    fieldChecks: { Holder: 'builder-3', Released: '2026-02-01T10:00:00Z' },
  },
);
add(
  D,
  'INVESTIGATION:INVALID does not complete (only INVESTIGATION:COMPLETE does, §4.1)',
  `${INV_HEAD.replace('CONFIRMED', 'INVALID')}\n\n<!-- INVESTIGATION:INVALID -->`,
  { type: 'INVESTIGATOR', valid: false, sentinelState: 'interrupted' },
);
add(D, 'a custom type without a sentinel is interrupted but valid (§7.2(4))', '<!-- FORGE:ACME_SCAN -->\n**Result**: clean', {
  type: 'ACME_SCAN',
  valid: true,
  sentinelState: 'interrupted',
});
add(
  D,
  'DESIGN_CONTEXT with only the brief is valid (no field is MUST)',
  '<!-- FORGE:DESIGN_CONTEXT -->\n## Design Context — x\n\n**Message:** ship\n<!-- FORGE:DESIGN_CONTEXT:COMPLETE -->',
  { type: 'DESIGN_CONTEXT', valid: true, sentinelState: 'complete' },
);
add(
  D,
  'DESIGN_RATIONALE without a signature move is invalid (MUST, §4.4)',
  '<!-- FORGE:DESIGN_RATIONALE -->\n**Direction:** editorial\n  - Considered & rejected: brutalist (loud)\n\n→ Produces DESIGN_SPEC: https://example.com/s',
  { type: 'DESIGN_RATIONALE', valid: false, sentinelState: 'complete' },
);
add(
  D,
  'a list under an empty key stops at the next field',
  '<!-- FORGE:BUILDER -->\n**Branch**: `b`\n**Commits**:\n- a1\n- b2\n**Files changed**: 2\n<!-- FORGE:BUILDER:COMPLETE -->',
  { type: 'BUILDER', valid: true, fieldChecks: { Commits: '- a1\n- b2', 'Files changed': '2' } },
);

const byFile = new Map();
for (const { file, fixture } of fixtures) byFile.set(file, [...(byFile.get(file) ?? []), fixture]);
for (const [file, list] of byFile) writeFileSync(dir + file, `${JSON.stringify(list, null, 2)}\n`);
console.log(`wrote ${fixtures.length} fixtures in ${byFile.size} files`);
