/**
 * The required gate's pure rules, without a server: exemptions, trust by
 * repository role, the newer-run rule on a status's link, and what a status
 * says for an exempt PR or a PR with more linked issues than the gate reads.
 */
import { exemptionOf, exemptResult } from '../src/decision/exempt.js';
import { counts, parseTrustPolicy, trustOfSource, unresolvedLogins, type Author } from '../src/common/trust.js';
import { annotationStatus } from '../src/decision/status.js';
import { failureText, runIdOf, statusOf, toLimit } from '../src/forge-check/logic/status.js';
import type { CheckResult } from '../src/decision/evaluate.js';
import { item } from './support/work-items.js';

const rules = { authors: new Set(['dependabot[bot]']), labels: new Set(['forge:exempt']) };

describe('exemptions', () => {
  test('an exempt author by login, in any letter case; an exempt label in any letter case; else none', () => {
    expect(exemptionOf({ author: { login: 'Dependabot[bot]', association: 'NONE' }, labels: [] }, rules)).toBe(
      'exempt: author Dependabot[bot]',
    );
    expect(exemptionOf({ author: { login: 'alice', association: 'MEMBER' }, labels: ['docs', 'FORGE:Exempt'] }, rules)).toBe(
      'exempt: label FORGE:Exempt',
    );
    expect(exemptionOf({ author: { login: 'alice', association: 'MEMBER' }, labels: ['docs'] }, rules)).toBeNull();
    expect(exemptionOf({ author: { login: null, association: 'NONE' }, labels: [] }, rules)).toBeNull();
    // Empty rules exempt nothing.
    const none = { authors: new Set<string>(), labels: new Set<string>() };
    expect(exemptionOf({ author: { login: 'dependabot[bot]', association: 'NONE' }, labels: ['forge:exempt'] }, none)).toBeNull();
  });

  test('an exempt result conforms, asks for no type and says why; its status is success with that reason', () => {
    const r = exemptResult(item(7, [], { kind: 'pull', labels: ['workflow:building'] }), ['INVESTIGATOR', 'BUILDER'], 'exempt: label x');
    expect(r).toMatchObject({ conforming: true, missing: [], incomplete: [], invalid: [], problems: [], exempt: 'exempt: label x' });
    expect(r.items[0].types.map((t) => t.status)).toEqual(['not-required', 'not-required']);
    expect(r.items[0]).toMatchObject({ number: 7, kind: 'pull', state: 'workflow:building', exempt: 'exempt: label x' });
    expect(statusOf(r, null)).toEqual({ state: 'success', description: 'exempt: label x' });
  });
});

describe('trust by role (permission:)', () => {
  const hidden: Author = { login: 'Hidden', association: 'CONTRIBUTOR' };
  const member: Author = { login: 'm', association: 'MEMBER' };

  test('the weakest level named wins; below write is refused; a login cannot be mistaken for it', () => {
    expect(parseTrustPolicy('permission:admin, permission:write').minPermission).toBe('write');
    expect(parseTrustPolicy('Permission:Maintain').minPermission).toBe('maintain');
    expect(parseTrustPolicy('OWNER').minPermission).toBeNull();
    expect(() => parseTrustPolicy('permission:triage')).toThrow('must be permission:write, permission:maintain or permission:admin');
    expect(() => parseTrustPolicy('permission:')).toThrow('must be permission:write');
  });

  test('a role is asked only for authors nothing else trusts, once', () => {
    const p = parseTrustPolicy('MEMBER, @listed, permission:write');
    expect(
      unresolvedLogins(p, [hidden, member, { login: 'Listed', association: 'NONE' }, { login: 'hidden', association: 'NONE' }]),
    ).toEqual(['hidden']);
    p.permissions.set('hidden', 'write');
    expect(unresolvedLogins(p, [hidden])).toEqual([]);
    expect(unresolvedLogins(parseTrustPolicy('MEMBER'), [hidden])).toEqual([]);
    expect(unresolvedLogins(parseTrustPolicy('*, permission:write'), [hidden])).toEqual([]);
    expect(unresolvedLogins(p, [{ login: null, association: 'NONE' }])).toEqual([]);
  });

  test('a resolved role at or above the level trusts; below it, or unresolved, does not, and the reason names the role', () => {
    const p = parseTrustPolicy('permission:write');
    expect(counts('comment', hidden, p)).toBe(false);
    for (const [role, trusted] of [
      ['read', false],
      ['triage', false],
      ['none', false],
      ['write', true],
      ['maintain', true],
      ['admin', true],
    ] as const) {
      p.permissions.set('hidden', role);
      expect(counts('comment', hidden, p)).toBe(trusted);
    }
    const strict = parseTrustPolicy('permission:maintain');
    strict.permissions.set('hidden', 'write');
    expect(counts('comment', hidden, strict)).toBe(false);
    strict.permissions.set('hidden', 'read');
    expect(() => counts('comment', hidden, strict)).not.toThrow();
  });
});

describe('the newer-run rule', () => {
  const ours = 'https://github.example/o/r/actions/runs/4242';
  test("a run id is read only from a run page of this repository's", () => {
    expect(runIdOf('https://github.example/o/r/actions/runs/5000', ours)).toBe(5000);
    expect(runIdOf('https://github.example/o/r/actions/runs/5000/attempts/2', ours)).toBe(5000);
    expect(runIdOf('https://github.example/o/other/actions/runs/5000', ours)).toBeNull();
    expect(runIdOf('https://ci.example/build/9', ours)).toBeNull();
    expect(runIdOf('https://github.example/o/r/actions/runs/abc', ours)).toBeNull();
    expect(runIdOf(null, ours)).toBeNull();
    expect(runIdOf('https://github.example/o/r/actions/runs/5000', null)).toBeNull();
  });
});

describe('what the status says', () => {
  const base: CheckResult = {
    conforming: false,
    missing: [],
    incomplete: [],
    invalid: [],
    state: 'none',
    terminal: false,
    items: [],
    problems: ['PR #3 links 25 issues; the gate reads at most 20 — split the PR'],
    notes: [],
  };
  test('a failure with no missing, partial or invalid type names its first problem', () => {
    expect(failureText(base)).toBe('PR #3 links 25 issues; the gate reads at most 20 — split the PR');
    expect(failureText({ ...base, missing: ['REVIEWER'], invalid: ['BUILDER'] })).toBe('Missing REVIEWER; invalid BUILDER');
    expect(failureText({ ...base, problems: [] })).toBe('Not conforming');
    expect(statusOf(base, null).state).toBe('failure');
    expect(statusOf(null, 'boom')).toEqual({ state: 'error', description: 'Could not decide: boom' });
  });
  test('descriptions are cut to 140 characters', () => {
    expect(toLimit('x'.repeat(140))).toHaveLength(140);
    expect(toLimit('x'.repeat(141))).toBe(`${'x'.repeat(139)}…`);
  });
});

describe('trust by role: the edges', () => {
  const hidden: Author = { login: 'Hidden', association: 'CONTRIBUTOR' };
  test('the weakest level wins in any order; roles count only with a permission: entry; everyone is everyone', () => {
    expect(parseTrustPolicy('permission:write, permission:admin').minPermission).toBe('write');
    expect(parseTrustPolicy('permission:admin, permission:maintain').minPermission).toBe('maintain');
    const plain = parseTrustPolicy('MEMBER');
    plain.permissions.set('hidden', 'admin');
    expect(counts('comment', hidden, plain)).toBe(false);
    expect(counts('comment', hidden, parseTrustPolicy('*'))).toBe(true);
    const p = parseTrustPolicy('permission:write');
    expect(counts('comment', { login: null, association: 'NONE' }, p)).toBe(false);
  });

  test('the reason names the role found (a login in any case), and none when no role is asked', () => {
    const p = parseTrustPolicy('permission:write');
    p.permissions.set('hidden', 'read');
    expect(trustOfSource({ kind: 'comment', author: hidden }, p)).toEqual({
      counts: false,
      why: 'author Hidden (CONTRIBUTOR, role read here) is not in trusted-authors',
    });
    expect(trustOfSource({ kind: 'comment', author: { login: 'other', association: 'NONE' } }, p)).toEqual({
      counts: false,
      why: 'author other (NONE) is not in trusted-authors',
    });
    const plain = parseTrustPolicy('MEMBER');
    plain.permissions.set('hidden', 'read');
    expect(trustOfSource({ kind: 'comment', author: hidden }, plain)).toEqual({
      counts: false,
      why: 'author Hidden (CONTRIBUTOR) is not in trusted-authors',
    });
  });

  test('an exempt result is exactly: conforming, nothing missing, nothing found or ignored', () => {
    const r = exemptResult(item(3, []), ['BUILDER'], 'exempt: author x');
    expect(r).toEqual({
      conforming: true,
      missing: [],
      incomplete: [],
      invalid: [],
      state: 'none',
      terminal: false,
      items: [
        {
          number: 3,
          kind: 'issue',
          url: 'https://github.example/o/r/issues/3',
          state: 'none',
          terminal: false,
          exempt: 'exempt: author x',
          types: [{ type: 'BUILDER', status: 'not-required', author: null, url: null, errors: [] }],
          annotations: [],
          ignored: [],
        },
      ],
      problems: [],
      notes: [],
      exempt: 'exempt: author x',
    });
  });

  test("a stage's state from one annotation: unfinished, finished but invalid, or ok", () => {
    expect(annotationStatus('partial', true)).toBe('incomplete');
    expect(annotationStatus('interrupted', true)).toBe('incomplete');
    expect(annotationStatus('complete', false)).toBe('invalid');
    expect(annotationStatus('complete', true)).toBe('ok');
  });
});
