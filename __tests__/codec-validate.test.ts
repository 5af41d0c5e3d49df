/** validate(): the exact errors, warnings and template gaps for each kind of finding. */
import { isIso8601, matchEnum, parseAndValidate } from '../src/codec/index.js';

const check = (body: string, index = 0) => {
  const a = parseAndValidate(body)[index];
  return { valid: a.valid, errors: a.errors, warnings: a.warnings, templateGaps: a.templateGaps };
};

test('matchEnum looks through bold and code marks and needs a word boundary', () => {
  expect(matchEnum('**NO** — one file', ['YES', 'NO'])).toBe('NO');
  expect(matchEnum('`HIGH`', ['HIGH'])).toBe('HIGH');
  expect(matchEnum('  high  ', ['HIGH'])).toBe('HIGH');
  expect(matchEnum('NOPE', ['NO'])).toBeNull();
  expect(matchEnum('NO_WAY', ['NO'])).toBeNull();
  expect(matchEnum('NO1', ['NO'])).toBeNull();
  expect(matchEnum('NO.', ['NO'])).toBe('NO');
  expect(matchEnum('', ['NO'])).toBeNull();
});

test('isIso8601: dates and date-times, with or without a code span; nonsense is not', () => {
  for (const v of ['2026-01-15', '2026-01-15T09:30', '2026-01-15T09:30:00Z', '2026-01-15 09:30:00.123+02:00', ' `2026-01-15T09:30:00Z` '])
    expect([v, isIso8601(v)]).toEqual([v, true]);
  for (const v of ['yesterday', '2026-13-45', '2026-01-15T9:30', '2026-01-15T09:30:00Z junk', 'x2026-01-15'])
    expect([v, isIso8601(v)]).toEqual([v, false]);
});

test('REVIEWER: a finding without Severity is a template gap; the full lists are exact', () => {
  expect(check('<!-- FORGE:REVIEWER -->\n**Verdict**: APPROVED\n### Findings\n- **Location**: `a.ts:1`\n  **Issue**: x')).toEqual({
    valid: true,
    errors: [],
    warnings: ['REVIEWER: finding 1 has no "Severity" — the §4.1 template shows it'],
    templateGaps: ['REVIEWER: finding 1 has no "Severity" — the §4.1 template shows it'],
  });
});

test('markers and inline values: a described marker without a description, a body type given a value, a value that is no URL', () => {
  expect(check('<!-- FORGE:PHASE_COMPLETE -->').warnings).toEqual(['PHASE_COMPLETE: marker has no " — {description}" (§4.3)']);
  expect(check('<!-- FORGE:GATE_FAILED -->').warnings).toEqual([]);
  expect(check('<!-- FORGE:CONTEXT: hello -->\n<!-- FORGE:CONTEXT:COMPLETE -->').warnings).toEqual([
    'CONTEXT: takes no inline value; "hello" is ignored (§3.4)',
  ]);
  expect(check('<!-- FORGE:PRIOR_GIST: not a url -->').warnings).toEqual(['PRIOR_GIST: inline value "not a url" is not a URL (§4.2)']);
  expect(check('<!-- FORGE:MEMORY_INDEX: octo/repo -->').warnings).toEqual([]);
  expect(check('<!-- FORGE:CARD: v1 sha:00000000 b64:e30 -->').errors).toEqual([
    'CARD: sha:00000000 does not match the payload (sha:44136fa3) (implementation-notes.md §3)',
  ]);
});

test('sentinel messages: partial, interrupted, misclosed, and a foreign sentinel', () => {
  expect(check('<!-- FORGE:CONTEXT -->\nx\n<!-- FORGE:CONTEXT:PARTIAL -->').errors).toEqual([
    'CONTEXT: marked partial by <!-- FORGE:CONTEXT:PARTIAL --> — not complete; re-run the producing phase (§3.3)',
  ]);
  expect(check('<!-- FORGE:CONTEXT -->\nx').errors).toEqual([
    'CONTEXT: completion sentinel <!-- FORGE:CONTEXT:COMPLETE --> is missing — treated as interrupted (§3.2)',
  ]);
  const inv =
    '<!-- FORGE:INVESTIGATOR -->\n**Verdict**: INVALID\n**Confidence**: HIGH\n**Severity**: LOW\n**Task Type**: Bug Fix\n**Decomposition Assessment**: NO';
  expect(check(`${inv}\n<!-- INVESTIGATION:INVALID -->`).errors).toEqual([
    'INVESTIGATOR: closed with INVESTIGATION:INVALID, not the §4.1 sentinel (Verdict: INVALID) — end it with <!-- INVESTIGATION:COMPLETE --> to complete it (§4.1)',
  ]);
  // Closed properly, the INVALID line is only a foreign sentinel.
  expect(check(`${inv}\n<!-- INVESTIGATION:INVALID -->\n<!-- INVESTIGATION:COMPLETE -->`)).toMatchObject({
    valid: true,
    warnings: [
      'INVESTIGATOR: sentinel <!-- INVESTIGATION:INVALID --> inside this annotation belongs to another type and is ignored (§3.2)',
    ],
  });
});

test('type names outside the reference grammar warn; values outside a list warn only where the list is loose', () => {
  expect(check('<!-- FORGE:ACME_V2 -->\nx\n<!-- ACME_V2:COMPLETE -->').warnings).toEqual([
    'ACME_V2: type name is outside [A-Z_]+ — readers using the reference grammar will not see it (implementation-notes.md §2)',
    'ACME_V2: not a reserved type — read and tolerated (§7.2, §8)',
  ]);
  expect(check('<!-- FORGE:CONTRACT -->\n**Task type**: Chore')).toEqual({
    valid: true,
    errors: [],
    warnings: ['CONTRACT: field "Task type" is "Chore" — expected one of Bug Fix, Feature, Refactor, Maintenance, Investigation (§4.1)'],
    templateGaps: [],
  });
  expect(check('<!-- FORGE:REMEDIATION -->\n**Re-gate outcome**: SHIPPED\n<!-- FORGE:REMEDIATION:COMPLETE -->').errors).toEqual([
    'REMEDIATION: field "Re-gate outcome" is "SHIPPED" — expected one of AUTO-LANDED, HELD-AWAITING-MERGE, RE-ESCALATED, UNFIXABLE (NOTES.md §3)'.replace(
      'NOTES.md',
      'implementation-notes.md',
    ),
  ]);
});

test('DESIGN_SPEC without a readable block is a template gap; DESIGN_RATIONALE accepts -> for the arrow', () => {
  expect(check('<!-- FORGE:DESIGN_SPEC -->\n```jsonc\n[1, 2]\n```').templateGaps).toEqual([
    'DESIGN_SPEC: no readable ```jsonc block holding the spec object — the §4.4 template shows one',
  ]);
  expect(check('<!-- FORGE:DESIGN_SPEC -->\n```json\n{"a": 1}\n```').templateGaps).toEqual([]);
  const rationale =
    '<!-- FORGE:DESIGN_RATIONALE -->\n**Signature move:** n\n  - Considered & Rejected :  loud\n\n-> Produces DESIGN_SPEC: x';
  expect(check(rationale).errors).toEqual([]);
  expect(check(rationale.replace('Rejected :  loud', 'Rejected:')).errors).toEqual([
    'DESIGN_RATIONALE: carries no explicitly rejected alternative ("Considered & rejected: …") (§4.4)',
  ]);
});
