/**
 * The gate's rules one by one, on plain work items: which annotation a verdict
 * rests on, when a BUILDER is about this PR, how `required` is read, which
 * closing references count, and whose word counts. Each rule here is one a
 * mutant could delete without the bundle tests noticing.
 */
import { closingIssues } from '../src/common/closing.js';
import { counts, parseTrustPolicy, trustOfSource, type Author } from '../src/common/trust.js';
import { collectAnnotations, trustedOfType } from '../src/common/trusted-annotations.js';
import { parseAndValidate } from '../src/codec/index.js';
import { evaluate, parseRequired } from '../src/decision/evaluate.js';
import { builder, investigator } from './support/seed.js';
import { comment, item, OWNER, STRANGER } from './support/work-items.js';

const trust = parseTrustPolicy(undefined);
const MEMBER: Author = { login: 'second-maintainer', association: 'MEMBER' };
const gate = { required: ['BUILDER'], validation: 'strict' as const, trust };
const onPull = (head: string, number = 9) => ({ ...gate, pull: { number, head } });
const noBranch = () => builder().replace(/\*\*Branch\*\*:[^\n]*\n/, '');

describe('which BUILDER is about the PR', () => {
  test('on an issue the PR closes: only the one for the PR head branch counts', () => {
    expect(evaluate([item(1, [comment(builder('fix/x'))])], [], onPull('fix/x')).conforming).toBe(true);
    const other = evaluate([item(1, [comment(builder('fix/y'))])], [], onPull('fix/x'));
    expect(other.conforming).toBe(false);
    expect(other.items[0].ignored).toEqual([
      {
        kind: 'foreign-build',
        type: 'BUILDER',
        item: 1,
        url: expect.stringContaining('#issuecomment-'),
        reason: 'BUILDER on #1 is for `fix/y`; this PR is `fix/x`',
        author: 'octo-owner',
        association: 'OWNER',
      },
    ]);
  });

  test('a BUILDER with no branch never matches, not even a PR whose head reads as empty', () => {
    const r = evaluate([item(1, [comment(noBranch())])], [], onPull(''));
    expect(r.conforming).toBe(false);
    expect(r.problems).toEqual(['issue #1: BUILDER is missing (BUILDER on #1 is for (no branch); this PR is ``)']);
  });

  test('a BUILDER on the PR itself counts whatever branch it names', () => {
    const pr = item(9, [comment(builder('fix/elsewhere'))], { kind: 'pull' });
    expect(evaluate([pr], [], onPull('fix/x')).conforming).toBe(true);
    // The same BUILDER on another item (#8) is held to the branch.
    expect(evaluate([item(8, [comment(builder('fix/elsewhere'))])], [], onPull('fix/x')).conforming).toBe(false);
  });

  test('other types on the issue are never held to the branch', () => {
    const r = evaluate([item(1, [comment(investigator())])], [], { ...onPull('fix/x'), required: ['INVESTIGATOR'] });
    expect(r.conforming).toBe(true);
  });

  test('the branch is read from its code span, trimmed', () => {
    const spaced = builder('fix/x').replace('**Branch**: `fix/x`', '**Branch**:   `fix/x`  ');
    expect(spaced).toContain('`fix/x`  ');
    expect(evaluate([item(1, [comment(spaced)])], [], onPull('fix/x')).conforming).toBe(true);
  });

  test('more than three foreign builds: three are named, the rest counted', () => {
    const builds = ['a', 'b', 'c', 'd'].map((b) => comment(builder(`fix/${b}`)));
    const r = evaluate([item(1, builds)], [], onPull('fix/x'));
    expect(r.problems).toEqual([
      'issue #1: BUILDER is missing (BUILDER on #1 is for `fix/a`; this PR is `fix/x`; BUILDER on #1 is for `fix/b`; this PR is `fix/x`; ' +
        'BUILDER on #1 is for `fix/c`; this PR is `fix/x`; and 1 more)',
    ]);
    const three = evaluate([item(1, builds.slice(0, 3))], [], onPull('fix/x'));
    expect(three.problems[0]).not.toContain('more');
    // A foreign build explains the absence even when a stranger also wrote one.
    const mixed = evaluate([item(1, [comment(builder('fix/a')), comment(builder('fix/x'), STRANGER)])], [], onPull('fix/x'));
    expect(mixed.problems).toEqual(['issue #1: BUILDER is missing (BUILDER on #1 is for `fix/a`; this PR is `fix/x`)']);
    // A foreign BUILDER explains nothing about another missing type.
    const both = evaluate([item(1, [comment(builder('fix/a'))])], [], { ...onPull('fix/x'), required: ['INVESTIGATOR', 'BUILDER'] });
    expect(both.problems[0]).toBe('issue #1: INVESTIGATOR is missing');
  });
});

describe('the annotation a status rests on', () => {
  test('between equals the first found decides, and its author and link are reported', () => {
    const first = comment(builder(), OWNER);
    const second = comment(builder(), MEMBER);
    const r = evaluate([item(1, [first, second])], [], gate);
    expect(r.items[0].types).toEqual([{ type: 'BUILDER', status: 'ok', author: 'octo-owner', url: first.url, errors: [] }]);
  });

  test('a missing type names no author, no link and no error', () => {
    const r = evaluate([item(1, [])], [], gate);
    expect(r.items[0].types).toEqual([{ type: 'BUILDER', status: 'missing', author: null, url: null, errors: [] }]);
    expect(r.problems).toEqual(['issue #1: BUILDER is missing']);
  });

  test('template: a complete annotation with no template gaps is ok; presence: an invalid one is ok', () => {
    const full = investigator();
    expect(
      evaluate([item(1, [comment(full)])], [], { ...gate, required: ['INVESTIGATOR'], validation: 'template' }).items[0].types[0],
    ).toMatchObject({ status: 'ok', errors: [] });
    const invalid = evaluate([item(1, [comment(investigator('MAYBE'))])], [], {
      ...gate,
      required: ['INVESTIGATOR'],
      validation: 'presence',
    });
    expect(invalid.items[0].types[0]).toMatchObject({ status: 'ok', errors: [] });
  });

  test('errors: strict reports the errors only; template adds the gaps', () => {
    const bad = '<!-- FORGE:TRAJECTORY -->\n| Phase | Result | Notes |\n|---|---|---|\n| Close | done | x |';
    const strict = evaluate([item(1, [comment(bad)])], [], { ...gate, required: ['TRAJECTORY'] });
    expect(strict.items[0].types[0]).toMatchObject({ status: 'ok', errors: [] });
    const template = evaluate([item(1, [comment(bad)])], [], { ...gate, required: ['TRAJECTORY'], validation: 'template' });
    expect(template.items[0].types[0].status).toBe('invalid');
    expect(template.items[0].types[0].errors.length).toBeGreaterThan(0);
    expect(template.problems[0]).toBe(`issue #1: TRAJECTORY is invalid — ${template.items[0].types[0].errors.join('; ')}`);
    const invalid = evaluate([item(1, [comment(investigator('MAYBE'))])], [], {
      ...gate,
      required: ['INVESTIGATOR'],
      validation: 'template',
    });
    expect(invalid.items[0].types[0].errors).toEqual(expect.arrayContaining([expect.stringContaining('MAYBE')]));
  });

  test('strict names the errors alone, even when the annotation also has template gaps', () => {
    const bare = '<!-- FORGE:CRITIQUE -->\n**Verdict**: MAYBE\n<!-- FORGE:CRITIQUE:COMPLETE -->';
    const [parsed] = parseAndValidate(bare);
    expect(parsed.errors.length).toBeGreaterThan(0);
    expect(parsed.templateGaps.length).toBeGreaterThan(0);
    const r = evaluate([item(1, [comment(bare)])], [], { ...gate, required: ['CRITIQUE'] });
    expect(r.items[0].types[0]).toMatchObject({ status: 'invalid', errors: parsed.errors });
  });

  test('an unfinished annotation is incomplete, with the reason first', () => {
    const r = evaluate([item(1, [comment('<!-- FORGE:BUILDER -->\ncut off')])], [], gate);
    expect(r.incomplete).toEqual(['BUILDER']);
    expect(r.problems[0]).toMatch(/^issue #1: BUILDER is not complete — \S/);
    expect(r.items[0].types[0].errors.length).toBeGreaterThan(0);
  });

  test('a PR is labelled as a PR in problems', () => {
    expect(evaluate([item(9, [], { kind: 'pull' })], [], gate).problems).toEqual(['PR #9: BUILDER is missing']);
  });
});

describe('exemption and the result', () => {
  test('an item that ended without a build is exempt, also when it is the PR itself', () => {
    const ended = { labels: ['workflow:invalid'] };
    const alone = evaluate([item(1, [], ended)], [], gate);
    expect(alone.items[0].exempt).toBe('workflow:invalid: the work ended without a build, so required types are not checked (§7.2)');
    expect(alone.items[0].types).toEqual([{ type: 'BUILDER', status: 'not-required', author: null, url: null, errors: [] }]);
    expect(alone.notes).toEqual([]);
    const self = evaluate([item(9, [], { ...ended, kind: 'pull' })], [], onPull('fix/x'));
    expect(self.items[0].exempt).not.toBeNull();
    const closed = evaluate([item(1, [], ended)], [], onPull('fix/x'));
    expect(closed.items[0].exempt).toBeNull();
    expect(closed.notes).toEqual([
      '#1 is labelled workflow:invalid (ended without a build), but PR #9 closes it and is a build: held to required',
    ]);
  });

  test('nothing to check: conforming, state none, not terminal', () => {
    expect(evaluate([], [], gate)).toEqual({
      conforming: true,
      blocked: [],
      missing: [],
      incomplete: [],
      invalid: [],
      state: 'none',
      terminal: false,
      items: [],
      problems: [],
      notes: [],
    });
  });

  test('the report lists each counted annotation and each ignored one with login and association', () => {
    const mine = comment(builder());
    const theirs = comment(investigator(), STRANGER);
    const r = evaluate([item(1, [mine, theirs], { labels: ['workflow:building'] })], [], {
      ...gate,
      required: ['BUILDER', 'INVESTIGATOR'],
    });
    expect(r.state).toBe('workflow:building');
    expect(r.items[0].annotations).toEqual([
      { type: 'BUILDER', state: 'complete', valid: true, author: 'octo-owner', association: 'OWNER', url: mine.url, errors: [] },
    ]);
    expect(r.items[0].ignored).toEqual([
      {
        kind: 'untrusted',
        type: 'INVESTIGATOR',
        item: 1,
        url: theirs.url,
        reason: 'author drive-by (NONE) is not in trusted-authors',
        author: 'drive-by',
        association: 'NONE',
      },
    ]);
    expect(r.problems).toEqual(['issue #1: INVESTIGATOR is missing (only untrusted authors wrote one; ignored)']);
  });
});

describe('where annotations come from', () => {
  test('the body counts as its author, named by the kind of item', () => {
    const issue = collectAnnotations(item(1, [], { body: builder() }), trust).found;
    expect(issue.map((f) => [f.source, f.comment])).toEqual([['issue-body', null]]);
    const pull = collectAnnotations(item(2, [comment(builder())], { kind: 'pull', body: builder() }), trust).found;
    expect(pull.map((f) => f.source)).toEqual(['pull-body', 'comment']);
    expect(collectAnnotations(item(3, [], { body: builder(), author: STRANGER }), trust)).toMatchObject({
      found: [],
      ignored: [{ kind: 'untrusted', reason: 'author drive-by (NONE) is not in trusted-authors' }],
    });
  });

  test('trustedOfType: only the type asked for, only trusted comments, oldest first', () => {
    const a = comment(builder());
    const b = comment(investigator());
    const c = comment(builder(), STRANGER);
    const d = comment(builder('fix/2'));
    const out = trustedOfType([a, b, c, d], 4, 'BUILDER', trust);
    const together = comment(`${investigator()}\n\n${builder()}`);
    expect(trustedOfType([together], 4, 'BUILDER', trust).map((f) => f.annotation.type)).toEqual(['BUILDER']);
    expect(out.map((f) => [f.comment?.id, f.item, f.source, f.url, f.author.login])).toEqual([
      [a.id, 4, 'comment', a.url, 'octo-owner'],
      [d.id, 4, 'comment', d.url, 'octo-owner'],
    ]);
  });
});

describe('required', () => {
  test('blanks or commas separate; presets expand in place; duplicates drop; FORGE: is a prefix only', () => {
    expect(parseRequired('  ')).toEqual(['INVESTIGATOR', 'BUILDER']);
    expect(parseRequired(' lifecycle ')).toEqual(['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY']);
    expect(parseRequired('REVIEWER BUILDER\tREVIEWER,,minimal')).toEqual(['REVIEWER', 'BUILDER', 'INVESTIGATOR']);
    expect(parseRequired('FORGE:REVIEWER')).toEqual(['REVIEWER']);
    expect(() => parseRequired('X:FORGE:REVIEWER')).toThrow(
      'required: "X:FORGE:REVIEWER" is not a FORGE type name (e.g. INVESTIGATOR, BUILDER) or a preset (minimal, lifecycle)',
    );
    expect(() => parseRequired(',,')).toThrow('required: no types given');
  });
});

describe('closing references', () => {
  const refs = (body: string) => closingIssues(body, 'Octo/Repo');
  test('a keyword and its reference may be separated by any run of blanks, and a reference may end a sentence', () => {
    expect(refs('Fixes  \t #12.)')).toEqual([12]);
    expect(refs('this fixes')).toEqual([]);
    expect(refs('Closes: #3')).toEqual([3]);
  });
  test('the whole token must be a reference: no prefix, no suffix, no colon inside the keyword', () => {
    expect(refs('fixes x#12')).toEqual([]);
    expect(refs('fixes #12abc')).toEqual([]);
    expect(refs('fix:es #12')).toEqual([]);
    expect(refs('fixes evil/octo/repo#15')).toEqual([]);
    expect(refs('fixes octo/repo#15x')).toEqual([]);
    expect(refs('fixes xhttps://github.com/octo/repo/issues/17')).toEqual([]);
    expect(refs('fixes https://github.com/octo/repo/issues/17/files')).toEqual([]);
  });
  test('an issue URL of this repository over http or https; another repository is never followed', () => {
    expect(refs('fixes http://github.com/octo/repo/issues/17')).toEqual([17]);
    expect(refs('fixes https://ghe.example/octo/repo/issues/18')).toEqual([18]);
    expect(refs('fixes https://github.com/other/repo/issues/16')).toEqual([]);
    expect(refs('fixes other/repo#16')).toEqual([]);
  });
});

describe('trust', () => {
  test('an all-blank trusted-authors is the default policy', () => {
    expect(counts('comment', MEMBER, parseTrustPolicy('  \n'))).toBe(true);
    expect(counts('comment', STRANGER, parseTrustPolicy('  \n'))).toBe(false);
  });
  test('an entry that is neither an association nor a login is refused, naming the choices', () => {
    expect(() => parseTrustPolicy('OWNER, not a login!')).toThrow(
      'trusted-authors: "not a login!" is neither an author_association (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER, MANNEQUIN, NONE) nor a GitHub login',
    );
  });
  test('a ghost author (no login) is named as unknown', () => {
    expect(trustOfSource({ kind: 'comment', author: { login: null, association: 'NONE' } }, trust)).toEqual({
      counts: false,
      why: 'author (unknown) (NONE) is not in trusted-authors',
    });
  });
  test('an authored source with no policy at hand never counts', () => {
    const call = trustOfSource as (source: unknown) => { counts: boolean };
    expect(call({ kind: 'comment', author: OWNER }).counts).toBe(false);
  });
});
