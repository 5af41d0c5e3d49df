/** The reader's decisions, pure: which annotation speaks for a stage, what runs next, how the pack is fenced and cut. */
import { emit } from '../src/codec/index.js';
import { parseTrustPolicy } from '../src/common/trust.js';
import type { ThreadComment, WorkItem } from '../src/common/work-item.js';
import { evaluate } from '../src/decision/evaluate.js';
import { reviewDomain, verdictOf } from '../src/decision/verdicts.js';
import { buildContext, NEXT_PHASE_RULES, parseChain, parseStage, stagesBefore, type ContextRequest } from '../src/decision/context.js';
import { cutText, fenced } from '../src/decision/fence.js';
import { parse } from '../src/codec/index.js';
import { architect, builder, context, contract, investigator, reviewer, trajectory } from './support/seed.js';
import { item, OWNER, STRANGER } from './support/work-items.js';

const trust = parseTrustPolicy(undefined);
let id = 1;
let clock = Date.parse('2026-03-01T00:00:00Z');
function at(body: string, author = OWNER): ThreadComment {
  clock += 60_000;
  const n = id++;
  return { id: n, url: `https://github.example/o/r/issues/1#issuecomment-${n}`, author, body, createdAt: new Date(clock).toISOString() };
}

function request(comments: ThreadComment[], extra: Partial<ContextRequest> = {}, itemExtra: Partial<WorkItem> = {}): ContextRequest {
  const issue = item(1, comments, { body: 'The report.', createdAt: '2026-01-01T00:00:00Z', ...itemExtra });
  return {
    repository: 'o/r',
    subject: issue,
    issues: [issue],
    pull: null,
    parent: null,
    chain: parseChain('lifecycle'),
    stage: null,
    budget: 60_000,
    trust,
    unreadable: [],
    ...extra,
  };
}

const next = (comments: ThreadComment[], extra: Partial<ContextRequest> = {}, itemExtra: Partial<WorkItem> = {}) =>
  buildContext(request(comments, extra, itemExtra)).nextPhase;

describe('chain and stage', () => {
  test('the chain is ordered as §5 orders it, whatever order it is listed in; custom types come after', () => {
    expect(parseChain('BUILDER, ACME_SCAN, INVESTIGATOR, ARCHITECT')).toEqual(['INVESTIGATOR', 'ARCHITECT', 'BUILDER', 'ACME_SCAN']);
    expect(parseChain('')).toEqual(['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY']);
    expect(parseChain('minimal')).toEqual(['INVESTIGATOR', 'BUILDER']);
    expect(() => parseChain('lifecycle, bogus!')).toThrow(/^chain: /);
  });

  test('a stage reads the stages before it in §5, even when it is not in the chain; none reads all', () => {
    const chain = parseChain('lifecycle');
    expect(stagesBefore(chain, 'ARCHITECT')).toEqual(['INVESTIGATOR', 'CONTRACT', 'CONTEXT']);
    expect(stagesBefore(chain, 'REVIEWER')).toEqual(['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER']);
    expect(stagesBefore(chain, 'INVESTIGATOR')).toEqual([]);
    expect(stagesBefore(chain, null)).toEqual(chain);
    expect(parseStage('FORGE:builder'.toUpperCase())).toBe('BUILDER');
    expect(parseStage('')).toBeNull();
    expect(() => parseStage('minimal')).toThrow(/^stage: /);
  });
});

describe('what runs next: every rule of the table, in its order', () => {
  test('the table is read top to bottom', () => {
    expect(NEXT_PHASE_RULES.map((r) => r.name)).toEqual([
      'needs a person',
      'terminal label',
      'investigation invalid',
      'halted after the build',
      'design shipped',
      'design loop',
      'decomposition',
      'changes requested',
      'own verdict blocks',
      'stale stage',
      'first open stage',
      'chain complete',
    ]);
  });

  test('a terminal label stops everything, even an INVALID investigation', () => {
    for (const label of ['workflow:merged', 'workflow:invalid', 'workflow:decomposed', 'workflow:awaiting-merge', 'workflow:engine-error'])
      expect(next([at(investigator('INVALID'))], {}, { labels: [label] })).toBe('none');
    // needs-human stops it for a person: never read as a finished chain, whatever else is there.
    expect(next([at(investigator('INVALID'))], {}, { labels: ['needs-human'] })).toBe('needs-human');
    expect(next([at(investigator('INVALID'))], {}, { labels: ['workflow:merged', 'needs-human'] })).toBe('needs-human');
    expect(next([at(investigator())], {}, { labels: ['workflow:building'] })).toBe('CONTRACT');
  });

  test("INVALID closes, read the way validation reads it; a stranger's INVALID decides nothing", () => {
    expect(next([at(investigator('INVALID (duplicate of #7)'))])).toBe('close');
    expect(next([at(investigator('**INVALID**'))])).toBe('close');
    expect(next([at(investigator('INVALID'), STRANGER)])).toBe('INVESTIGATOR');
    // A revised investigation confirms it.
    expect(next([at(investigator('INVALID')), at(investigator('CONFIRMED'))])).toBe('CONTRACT');
  });

  test('a control marker newer than the last BUILDER needs a human; an older one does not', () => {
    const chain = [at(investigator()), at(contract()), at(context()), at(architect())];
    expect(next([...chain, at(builder()), at('<!-- FORGE:GATE_FAILED -->')])).toBe('needs-human');
    expect(next([...chain, at('<!-- FORGE:ANCESTRY_FAILED -->')])).toBe('needs-human');
    expect(next([...chain, at('<!-- FORGE:PUSH_FAILED -->'), at(builder())])).toBe('TRAJECTORY');
    expect(next([...chain, at(builder()), at('<!-- FORGE:PUSH_BLOCKED -->', STRANGER)])).toBe('TRAJECTORY');
  });

  test('Decomposition Assessment YES without DECOMPOSED → DECOMPOSED; with it → none (both field shapes)', () => {
    const yes = investigator().replace('NO — single fix', 'YES — three services');
    expect(next([at(yes)])).toBe('DECOMPOSED');
    const heading = investigator()
      .replace('**Decomposition Assessment**: NO — single fix\n', '')
      .replace('<!-- INVESTIGATION:COMPLETE -->', '### Decomposition Assessment\n**YES** — split\n\n<!-- INVESTIGATION:COMPLETE -->');
    expect(parse(heading)[0].fields['Decomposition Assessment']).toBe('YES — split');
    expect(next([at(heading)])).toBe('DECOMPOSED');
    expect(next([at(yes), at(emit('DECOMPOSED', { sections: { 'Sub-Issues Created': ['#2: a'] } }))])).toBe('none');
  });

  test('the newest REVIEWER of a domain requesting changes sends the work back to the builder; a newer BUILDER asks for review', () => {
    const build = [at(investigator()), at(contract()), at(context()), at(architect()), at(builder())];
    const reviews = [at(reviewer('CHANGES_REQUESTED — the null guard is missing', 'SECURITY')), at(reviewer('APPROVED', 'LOGIC'))];
    const pr = (extra: ThreadComment[] = []) => item(9, [...reviews, ...extra], { kind: 'pull' });
    expect(next(build, { pull: pr() })).toBe('BUILDER');
    expect(next(build, { pull: pr([at(reviewer('APPROVED', 'SECURITY'))]) })).toBe('TRAJECTORY');
    expect(next([...build, at(builder())], { pull: pr() })).toBe('REVIEWER');
    // REVIEWER is written on the PR (§4): one on the issue reviews no code and sends nothing back.
    expect(next([...build, ...reviews])).toBe('TRAJECTORY');
  });

  test('the first stage with no complete trusted annotation runs next: a partial or interrupted one runs again', () => {
    expect(next([])).toBe('INVESTIGATOR');
    expect(next([at(investigator()), at(emit('CONTRACT', { fields: { 'Task type': 'Bug Fix' }, status: 'partial' }))])).toBe('CONTRACT');
    expect(next([at(investigator()), at(contract()), at(context().replace('<!-- FORGE:CONTEXT:COMPLETE -->', ''))])).toBe('CONTEXT');
    expect(next([at(investigator()), at(contract(), STRANGER)])).toBe('CONTRACT');
  });

  test('the whole chain complete → none', () => {
    const all = [at(investigator()), at(contract()), at(context()), at(architect()), at(builder()), at(trajectory())];
    expect(next(all)).toBe('none');
    expect(buildContext(request(all)).nextReason).toContain('every stage of the chain');
  });
});

describe('what the pack holds', () => {
  test('a hidden comment and one a stranger edited last are untrusted; so is a body a stranger edited', () => {
    const hidden = { ...at(investigator()), hidden: 'spam' };
    const edited = { ...at(contract()), editor: 'drive-by' };
    const r = buildContext(request([hidden, edited], {}, { bodyEditor: 'drive-by', body: 'Edited by someone else.' }));
    expect(r.stages.filter((s) => s.type !== 'CONTEXT' && s.status !== 'missing').map((s) => `${s.type}:${s.status}`)).toEqual([
      'INVESTIGATOR:untrusted',
      'CONTRACT:untrusted',
    ]);
    expect(r.markdown).toMatch(/> Not written by anyone in trusted-authors \(the body was last edited by drive-by/);
  });

  test('the body of an untrusted author is marked so; its annotations are named, never quoted', () => {
    const r = buildContext(request([], {}, { author: STRANGER, body: `Please do X.\n\n${contract()}` }));
    expect(r.markdown).toContain('Not written by anyone in trusted-authors');
    expect(r.stages.find((s) => s.type === 'CONTRACT')?.status).toBe('untrusted');
  });

  test('the digest moves with what is included only, and is the same for the same input', () => {
    const a = [at(investigator()), at(contract(), STRANGER)];
    const one = buildContext(request(a));
    expect(buildContext(request(a)).digest).toBe(one.digest);
    expect(buildContext(request(a)).markdown).toBe(one.markdown);
    const strangerEdit = [a[0], { ...a[1], body: `${contract()}\nmore` }];
    expect(buildContext(request(strangerEdit)).digest).toBe(one.digest);
    expect(buildContext(request([a[0], a[1], at(investigator('PARTIAL'))])).digest).not.toBe(one.digest);
    // The issue body is context, not an annotation: it is quoted but does not move the digest.
    expect(buildContext(request(a, {}, { body: 'Reworded.' })).digest).toBe(one.digest);
  });

  test('a budget cuts the oldest section first to a floor, then the next; every heading stays', () => {
    const big = (w: string) => `${w} ${'y'.repeat(90)}\n`.repeat(100);
    const comments = [at(investigator().replace('Guard it.', big('first'))), at(contract().replace('Guard the lookup.', big('second')))];
    const r = buildContext(request(comments, { budget: 9000, chain: parseChain('INVESTIGATOR, CONTRACT') }));
    expect(r.markdown.length).toBeLessThanOrEqual(9000);
    // The short issue body is under the floor and kept whole; the older annotation is cut first, furthest.
    expect(r.cuts.map((c) => c.split(':')[0])).toEqual(['INVESTIGATOR', 'CONTRACT']);
    expect(r.markdown).toContain('The report.');
    expect(r.markdown).toContain('## CONTRACT');
    expect(r.markdown.split('second ').length).toBeGreaterThan(r.markdown.split('first ').length);
    const tiny = buildContext(request(comments, { budget: 2000, chain: parseChain('INVESTIGATOR, CONTRACT') }));
    expect(tiny.overBudget || tiny.markdown.length <= 2000).toBe(true);
    for (const h of ['## INVESTIGATOR', '## CONTRACT']) expect(tiny.markdown).toContain(h);
  });

  test('a fence is longer than any backtick run inside; a cut never splits a surrogate pair', () => {
    expect(fenced('a\n```\n## x\n```').startsWith('````text\n')).toBe(true);
    expect(fenced('`````` inline').startsWith('```````text')).toBe(true);
    expect(fenced('plain')).toBe('```text\nplain\n```');
    expect(cutText('ab😀cd', 3)).toBe('ab');
    expect(cutText('line one\nline two', 12)).toBe('line one');
  });
});

describe('verdicts and domains, read once (the gate reads them the same way)', () => {
  const pull = { number: 9, head: 'fix/x', headHere: true };
  const gate = { required: ['INVESTIGATOR', 'BUILDER'], validation: 'presence' as const, trust };
  const prWith = (comments: ThreadComment[]) => ({
    issue: item(1, [at(investigator()), at(builder('fix/x'))]),
    pr: item(9, comments, { kind: 'pull' }),
  });

  test('a verdict with a reason, in bold or a code span, is the value it starts with', () => {
    for (const v of ['CHANGES_REQUESTED — the null guard is missing', '**CHANGES_REQUESTED**', '`CHANGES_REQUESTED` (see below)']) {
      expect(verdictOf(parse(reviewer(v, 'X'))[0])).toBe('CHANGES_REQUESTED');
      const { issue, pr } = prWith([at(reviewer(v, 'X'))]);
      expect(evaluate([issue], [pr], { ...gate, pull }).blocked).toEqual(['REVIEWER (X) requests changes']);
    }
    const invalid = item(1, [at(investigator('INVALID (duplicate of #7)')), at(builder('fix/x'))]);
    expect(evaluate([invalid], [item(9, [], { kind: 'pull' })], { ...gate, pull }).blocked).toEqual(['INVESTIGATOR found #1 INVALID']);
  });

  test('a heading without a separator is its own domain; only the same domain lifts a block', () => {
    const titled = (verdict: string, title: string) => reviewer(verdict).replace('## Review', `## ${title}`);
    expect(reviewDomain(parse(titled('APPROVED', 'Security review'))[0])).toBe('SECURITY REVIEW');
    expect(reviewDomain(parse(titled('APPROVED', 'Review: database'))[0])).toBe('DATABASE');
    expect(reviewDomain(parse(reviewer('APPROVED'))[0])).toBe('(no domain)');
    const { issue, pr } = prWith([at(titled('CHANGES_REQUESTED', 'Security review')), at(titled('APPROVED', 'Logic review'))]);
    expect(evaluate([issue], [pr], { ...gate, pull }).blocked).toEqual(['REVIEWER (SECURITY REVIEW) requests changes']);
    const lookalike = prWith([at(titled('CHANGES_REQUESTED', 'Review — SECURITY')), at(titled('APPROVED', 'Review — SECURlTY'))]);
    expect(evaluate([lookalike.issue], [lookalike.pr], { ...gate, pull }).blocked).toEqual(['REVIEWER (SECURITY) requests changes']);
  });
});

describe("the digest's gists part", () => {
  const URL = 'https://gist.github.example/agent/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
  const pointer = () => at(emit('KNOWLEDGE_GIST', { value: URL }));
  const read = (content: string, error: string | null = null) => [
    {
      type: 'KNOWLEDGE_GIST',
      url: URL,
      id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1',
      via: 'x',
      files: error ? [] : [{ name: 'k.md', content, truncated: false }],
      error,
    },
  ];
  const chain = ['INVESTIGATOR', 'BUILDER', 'REVIEWER'];
  const builderWith = (digest: string) =>
    at(emit('BUILDER', { fields: { Branch: 'fix/x', Commits: 'a1b2c3d', 'Files changed': '1', 'Context digest': digest } }));

  test('the digest quotes what the pack quotes: the gist files read, and nothing more when none is', () => {
    const comments = [at(investigator()), pointer()];
    const req = request(comments, { chain, stage: 'BUILDER' });
    const plain = buildContext(req).digest;
    expect(plain).toMatch(/^sha256:[0-9a-f]{64}$/);
    const quoted = buildContext(req, read('v1')).digest;
    expect(quoted.startsWith(`${plain}+gists:`)).toBe(true);
    expect(buildContext(req, read('v2')).digest).not.toBe(quoted);
    // A gist that could not be read quotes nothing, so it adds nothing.
    expect(buildContext(req, read('', 'rate limited (403)')).digest).toBe(plain);
  });

  test('a stage that recorded its gists: same, changed, or not checked when a gist went unread; only the included one is judged', () => {
    const comments = [at(investigator()), pointer()];
    const digest = buildContext(request(comments, { chain, stage: 'BUILDER' }), read('v1')).digest;
    const older = builderWith(digest);
    const newer = builderWith(digest);
    const all = [...comments, older, newer];
    const entries = (gists: ReturnType<typeof read>) =>
      buildContext(request(all, { chain, stage: 'REVIEWER' }), gists).stages.filter((e) => e.type === 'BUILDER');
    expect(entries(read('v1')).map((e) => [e.status, e.gists])).toEqual([
      ['superseded', undefined],
      ['included', 'same'],
    ]);
    const changed = buildContext(request(all, { chain, stage: 'REVIEWER' }), read('v2'));
    expect(changed.stages.find((e) => e.status === 'included' && e.type === 'BUILDER')?.gists).toBe('changed');
    expect(changed.markdown).toContain('Gists changed: BUILDER');
    // Not a route matter: the next phase is the one the gate computes without the gists.
    expect(changed.nextPhase).toBe(buildContext(request(all, { chain, stage: 'REVIEWER' })).nextPhase);
    expect(entries(read('', 'not found (404)')).find((e) => e.status === 'included')?.gists).toBe('not checked');
    expect(entries([]).find((e) => e.status === 'included')?.gists).toBe('not checked');
    expect(buildContext(request(all, { chain, stage: 'REVIEWER' }), read('v1')).markdown).not.toContain('Gists changed');
  });

  test('a stage that recorded no gists part has nothing to compare', () => {
    const comments = [at(investigator()), pointer()];
    const digest = buildContext(request(comments, { chain, stage: 'BUILDER' })).digest;
    const r = buildContext(request([...comments, builderWith(digest)], { chain, stage: 'REVIEWER' }), read('v2'));
    expect(r.stages.find((e) => e.type === 'BUILDER')?.gists).toBeUndefined();
  });
});
