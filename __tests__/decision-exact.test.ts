/**
 * The one decision's answers held exactly: each rule's phase and its reason
 * word for word (the reason is what a person reads on the board and in the
 * log), which annotation speaks for a stage and in what order, each stage
 * line of `stages`, the chain's order and the digest's inputs.
 */
import { createHash } from 'node:crypto';
import { emit } from '../src/codec/index.js';
import { parseTrustPolicy } from '../src/common/trust.js';
import type { ThreadComment, WorkItem } from '../src/common/work-item.js';
import { parseChain, parseStage, stagesBefore } from '../src/decision/chain.js';
import { claimOf, stageRuns } from '../src/decision/claims.js';
import { collectCandidates, type Candidate } from '../src/decision/collect.js';
import { gistDrift, gistsDigest, staleStages, upstreamDigest } from '../src/decision/digest.js';
import { composeDigest, digestParts } from '../src/common/context-digest.js';
import { route, routeHoldsGate } from '../src/decision/next-phase.js';
import { allIncluded, newestIncluded, select, stageEntries } from '../src/decision/select.js';
import { builder, investigator, reviewer, userFeedback } from './support/seed.js';
import { comment, item, OWNER, STRANGER } from './support/work-items.js';

const trust = parseTrustPolicy(undefined);
let clock = Date.parse('2026-07-01T00:00:00Z');
function at(body: string, author = OWNER): ThreadComment {
  clock += 60_000;
  return { ...comment(body, author), createdAt: new Date(clock).toISOString() };
}
const cands = (items: WorkItem[]) =>
  collectCandidates(
    items.map((i) => ({ item: i, repository: 'o/r', scope: 'own' as const })),
    trust,
  );
const sel = (items: WorkItem[]) => select(cands(items));
const on = (comments: ThreadComment[], extra: Partial<WorkItem> = {}) => item(1, comments, extra);
const CHAIN = ['INVESTIGATOR', 'BUILDER', 'REVIEWER'];
const marker = (type: string) => emit(type, { fields: { Gate: 'tests', Reason: 'red' } });

describe('each rule, its phase and its reason word for word', () => {
  test('terminal label, INVALID, halt, decomposition, changes requested, first open stage, chain complete', () => {
    const inv = at(investigator('INVALID'));
    expect(route({ chain: CHAIN, labels: ['workflow:merged'], sel: sel([on([inv])]) })).toEqual({
      phase: 'none',
      why: 'labelled workflow:merged, a terminal state: a consumer stops here (§7.2)',
      rule: 'terminal label',
    });
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([inv])]) })).toEqual({
      phase: 'close',
      why: `the INVESTIGATOR found the issue INVALID (${inv.url}): it is closed, not built (§4.1)`,
      rule: 'investigation invalid',
    });
    const ok = at(investigator());
    const built = at(builder());
    const halt = at(marker('GATE_FAILED'));
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built, halt])]) })).toEqual({
      phase: 'needs-human',
      why: `GATE_FAILED (${halt.url}) is newer than the last BUILDER: automated processing stopped (§4.3)`,
      rule: 'halted after the build',
    });
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, halt])]) }).why).toBe(
      `GATE_FAILED (${halt.url}) is newer than any BUILDER: automated processing stopped (§4.3)`,
    );
    const yes = at(investigator().replace('NO — single fix', 'YES — three parts'));
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([yes])]) })).toEqual({
      phase: 'DECOMPOSED',
      why: `the INVESTIGATOR assessed decomposition YES (${yes.url}) and no DECOMPOSED is written`,
      rule: 'decomposition',
    });
    const split = at(emit('DECOMPOSED', { sections: { 'Sub-Issues Created': ['#2: a'] } }));
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([yes, split])]) })).toEqual({
      phase: 'none',
      why: `decomposed (${split.url}): each sub-issue runs its own pipeline`,
      rule: 'decomposition',
    });
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok])]) })).toEqual({
      phase: 'BUILDER',
      why: 'BUILDER is the first stage of the chain with no complete trusted annotation',
      rule: 'first open stage',
    });
    const pr = item(9, [at(reviewer('APPROVED'))], { kind: 'pull' });
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built]), pr]) })).toEqual({
      phase: 'none',
      why: 'every stage of the chain (INVESTIGATOR, BUILDER, REVIEWER) is complete',
      rule: 'chain complete',
    });
    const cr = item(9, [at(reviewer('CHANGES_REQUESTED', 'SECURITY'))], { kind: 'pull' });
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built]), cr]) })).toEqual({
      phase: 'BUILDER',
      why: `REVIEWER (SECURITY) requests changes (${cr.comments[0].url}): the builder addresses them`,
      rule: 'changes requested',
    });
    const rebuilt = on([ok, built, at(builder())]);
    expect(route({ chain: CHAIN, labels: [], sel: sel([rebuilt, cr]) })).toEqual({
      phase: 'REVIEWER',
      why: 'a BUILDER came after the REVIEWER (SECURITY) that requested changes: it is reviewed again',
      rule: 'changes requested',
    });
  });

  test('the newest of several control markers is named; one written at the same time as the build halts nothing', () => {
    const ok = at(investigator());
    const built = at(builder());
    const first = at(marker('PUSH_BLOCKED'));
    const second = at(marker('PUSH_FAILED'));
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built, first, second])]) }).why).toContain(`PUSH_FAILED (${second.url})`);
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built, second, first])]) }).why).toContain(`PUSH_FAILED (${second.url})`);
    const same = { ...comment(marker('ANCESTRY_FAILED')), createdAt: built.createdAt };
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built, same])]) }).phase).toBe('REVIEWER');
    // A change request written at the same moment as the build is addressed by it.
    const pr = item(9, [{ ...comment(reviewer('CHANGES_REQUESTED')), createdAt: built.createdAt }], { kind: 'pull' });
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built]), pr]) }).phase).toBe('REVIEWER');
  });

  test("the design loop's and the blocks' reasons; the stale stage's", () => {
    const DESIGN = ['DESIGN_SPEC', 'CRITIQUE', 'USER_FEEDBACK', 'DESIGN_SHIPPED'];
    const critique = (v: string) =>
      at(
        emit('CRITIQUE', {
          title: 'Critique — s · iteration 1/3',
          fields: { 'Lint floor': 'PASS', Render: 'd', 'Perceptual findings': '- x', Verdict: v },
        }),
      );
    const c1 = critique('ITERATE');
    expect(route({ chain: DESIGN, labels: [], sel: sel([on([c1])]) })).toEqual({
      phase: 'CRITIQUE',
      why: `the newest CRITIQUE says ITERATE (${c1.url}): the page is revised and critiqued again (§4.4)`,
      rule: 'design loop',
    });
    const shipped = at(
      emit('DESIGN_SHIPPED', { fields: { Archetype: 'a', Gates: 'g', 'Critique iterations': '1', 'Written to memory': 'y' } }),
    );
    expect(route({ chain: DESIGN, labels: [], sel: sel([on([c1, shipped])]) })).toEqual({
      phase: 'none',
      why: `DESIGN_SHIPPED is written (${shipped.url}): the design pipeline is closed (§4.4)`,
      rule: 'design shipped',
    });
    const feedback = at(userFeedback('no'));
    const pass = critique('PASS');
    expect(route({ chain: DESIGN, labels: [], sel: sel([on([feedback, pass])]) }).why).toBe(
      `the page was re-generated and critiqued after the user was not satisfied (${feedback.url}): the user is asked again (§4.4)`,
    );
    // A critique and feedback written at the same moment: the feedback is where the loop stands.
    const tie = {
      ...comment(
        emit('CRITIQUE', {
          title: 'Critique — s · iteration 2/3',
          fields: { 'Lint floor': 'PASS', Render: 'd', 'Perceptual findings': '- x', Verdict: 'ITERATE' },
        }),
      ),
      createdAt: feedback.createdAt,
    };
    expect(route({ chain: DESIGN, labels: [], sel: sel([on([tie, feedback])]) }).phase).toBe('CRITIQUE');
    expect(route({ chain: DESIGN, labels: [], sel: sel([on([tie, feedback])]) }).why).toContain('Satisfied: no');
    // DESIGN_SPEC last in the chain: the loop starts at CRITIQUE.
    expect(route({ chain: ['CRITIQUE', 'USER_FEEDBACK', 'DESIGN_SPEC'], labels: [], sel: sel([on([feedback])]) }).phase).toBe('CRITIQUE');

    const blocks = new Map([['SCAN', [{ field: 'Result', values: ['fail'] }]]]);
    const ok = at(investigator());
    const built = at(builder());
    const scan = at(emit('SCAN', { fields: { Result: 'fail' } }));
    expect(route({ chain: ['INVESTIGATOR', 'BUILDER', 'SCAN'], labels: [], sel: sel([on([ok, built, scan])]), blocks })).toEqual({
      phase: 'BUILDER',
      why: `SCAN says Result: FAIL (${scan.url}), which blocks: the builder addresses it`,
      rule: 'own verdict blocks',
    });
    expect(route({ chain: ['INVESTIGATOR', 'SCAN', 'BUILDER'], labels: [], sel: sel([on([ok, scan])]), blocks }).why).toBe(
      `SCAN says Result: FAIL (${scan.url}), which blocks before the build: a person decides`,
    );
    // The stage placed right at the build's index counts as after it; no field, no block.
    expect(route({ chain: ['BUILDER', 'SCAN'], labels: [], sel: sel([on([built, scan])]), blocks }).phase).toBe('BUILDER');
    const noField = at(emit('SCAN', { fields: { Other: 'x' } }));
    expect(route({ chain: ['BUILDER', 'SCAN'], labels: [], sel: sel([on([built, noField])]), blocks }).phase).toBe('none');
    const rebuilt = at(builder());
    expect(route({ chain: ['BUILDER', 'SCAN'], labels: [], sel: sel([on([built, scan, rebuilt])]), blocks }).why).toBe(
      `a BUILDER came after SCAN says Result: FAIL (${scan.url}): it runs again`,
    );
    // A block of a stage with no rule for it: nothing.
    expect(
      route({
        chain: ['BUILDER', 'SCAN'],
        labels: [],
        sel: sel([on([built, scan])]),
        blocks: new Map([['OTHER', [{ field: 'Result', values: ['fail'] }]]]),
      }).phase,
    ).toBe('none');

    const stale = [{ type: 'BUILDER', url: 'u', recorded: `sha256:${'a'.repeat(64)}`, current: `sha256:${'b'.repeat(64)}` }];
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built])]), stale })).toEqual({
      phase: 'BUILDER',
      why: `BUILDER (u) was written against context sha256:aaaaaaaaaaaa…, and its upstream is now sha256:bbbbbbbbbbbb…: it is stale and runs again`,
      rule: 'stale stage',
    });
  });

  test('DECOMPOSED is never the first open stage by itself; a REVIEWER on the PR completes its stage', () => {
    const ok = at(investigator());
    expect(route({ chain: ['INVESTIGATOR', 'DECOMPOSED', 'BUILDER'], labels: [], sel: sel([on([ok])]) }).phase).toBe('BUILDER');
    const built = at(builder());
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built])]) }).phase).toBe('REVIEWER');
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built]), item(9, [at(reviewer())], { kind: 'pull' })]) }).phase).toBe(
      'none',
    );
  });

  test('what holds the gate, at the edges of the chain', () => {
    expect(routeHoldsGate(['BUILDER', 'REVIEWER'], 'BUILDER')).toBe(true);
    expect(routeHoldsGate(['BUILDER', 'REVIEWER'], 'REVIEWER')).toBe(false);
    expect(routeHoldsGate(['INVESTIGATOR', 'BUILDER'], 'none')).toBe(false);
    expect(routeHoldsGate([], 'none')).toBe(false);
  });
});

describe('which annotation speaks, and the stage lines', () => {
  test('the newest complete trusted one per stage; a tie goes to the later in the thread; allIncluded oldest first', () => {
    const t = '2026-07-02T00:00:00Z';
    const a = { ...comment(builder('fix/a')), createdAt: t };
    const b = { ...comment(builder('fix/b')), createdAt: t };
    const s1 = sel([on([a, b])]);
    expect(newestIncluded(s1, 'BUILDER')?.comment?.id).toBe(b.id);
    const older = at(investigator());
    const pr = item(9, [at(investigator('CONFIRMED'))], { kind: 'pull' });
    const s2 = sel([on([older]), pr]);
    // One stage of the work item: across its issue and its PR, the newest speaks.
    expect(allIncluded(s2, 'INVESTIGATOR').map((c) => c.item.number)).toEqual([9]);
    expect(newestIncluded(s2, 'INVESTIGATOR')?.item.number).toBe(9);
    expect(newestIncluded(s2, 'INVESTIGATOR', 'parent')).toBeNull();
    expect(allIncluded(s2, 'BUILDER')).toEqual([]);
    // Two REVIEWERs of different domains both speak; a body annotation (no time) is the oldest.
    const s3 = sel([item(9, [at(reviewer('APPROVED', 'A')), at(reviewer('APPROVED', 'B'))], { kind: 'pull' })]);
    expect(allIncluded(s3, 'REVIEWER')).toHaveLength(2);
  });

  test('each stage line, exactly', () => {
    const partial = at(builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->'));
    const interrupted = at(builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', ''));
    const old = at(investigator());
    const stranger = at(investigator(), STRANGER);
    const fresh = at(investigator());
    const review = at(reviewer('APPROVED', 'LOGIC'));
    const issue = on([partial, interrupted, old, stranger, fresh]);
    const pr = item(9, [review], { kind: 'pull' });
    const c = cands([issue, pr]);
    const lines = stageEntries(c, select(c), ['INVESTIGATOR', 'BUILDER', 'REVIEWER', 'ARCHITECT'], 'own');
    const base = (x: ThreadComment, n = 1) => ({ url: x.url, author: x.author.login, createdAt: x.createdAt, item: n, scope: 'own' });
    expect(lines).toEqual([
      { type: 'INVESTIGATOR', status: 'superseded', ...base(old), reason: `superseded by the newer complete one, ${fresh.url}` },
      { type: 'INVESTIGATOR', status: 'untrusted', ...base(stranger), reason: expect.stringContaining('drive-by') },
      { type: 'INVESTIGATOR', status: 'included', ...base(fresh), valid: true, errors: [] },
      {
        type: 'BUILDER',
        status: 'partial',
        ...base(partial),
        reason: 'marked partial: the stage stopped before it finished and must run again (§3.3)',
      },
      {
        type: 'BUILDER',
        status: 'interrupted',
        ...base(interrupted),
        reason: 'no completion sentinel: the stage was interrupted and must run again (§3.3)',
      },
      { type: 'REVIEWER', status: 'included', ...base(review, 9), domain: 'LOGIC', valid: true, errors: [] },
      { type: 'ARCHITECT', status: 'missing', url: null, author: null, createdAt: null, item: null, scope: 'own' },
    ]);
    expect(stageEntries(c, select(c), ['INVESTIGATOR'], 'parent')).toEqual([
      { type: 'INVESTIGATOR', status: 'missing', url: null, author: null, createdAt: null, item: null, scope: 'parent' },
    ]);
  });
});

describe('the chain, and what a stage reads', () => {
  test('parseChain and parseStage, exactly', () => {
    expect(parseChain(undefined)).toEqual(['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY']);
    expect(parseChain('  ')).toEqual(parseChain(undefined));
    expect(parseChain('ZED_SCAN, ALPHA_SCAN, BUILDER')).toEqual(['BUILDER', 'ZED_SCAN', 'ALPHA_SCAN']);
    expect(parseStage(undefined)).toBeNull();
    expect(parseStage('  BUILDER  ')).toBe('BUILDER');
    expect(parseStage('FORGE:ARCHITECT')).toBe('ARCHITECT');
    expect(() => parseStage('minimal')).toThrow('stage: "minimal" must be one annotation type, e.g. ARCHITECT');
    expect(() => parseStage('bad type')).toThrow(/^stage: /);
  });

  test('stagesBefore: the chain before a stage in it; for one outside it, the stages §5 (or the listing) places before it', () => {
    const chain = ['INVESTIGATOR', 'ACME', 'BUILDER', 'REVIEWER'];
    expect(stagesBefore(chain, 'INVESTIGATOR')).toEqual([]);
    expect(stagesBefore(chain, 'BUILDER')).toEqual(['INVESTIGATOR', 'ACME']);
    expect(stagesBefore(chain, null)).toEqual(chain);
    expect(stagesBefore(chain, null)).not.toBe(chain);
    // ARCHITECT is not in the chain: §5 places it after INVESTIGATOR and before BUILDER (a custom stage after every §5 one).
    expect(stagesBefore(chain, 'ARCHITECT')).toEqual(['INVESTIGATOR']);
    expect(stagesBefore(['INVESTIGATOR', 'BUILDER'], 'ZED')).toEqual(['INVESTIGATOR', 'BUILDER']);
    expect(stagesBefore(['INVESTIGATOR', 'ZED', 'YAK'], 'TRAJECTORY')).toEqual(['INVESTIGATOR']);
    expect(stagesBefore(['INVESTIGATOR', 'ZED', 'YAK'], 'XRAY')).toEqual(['INVESTIGATOR', 'ZED', 'YAK']);
  });
});

describe('the digest and stale stages', () => {
  test('a stage with no recorded digest is never stale; each REVIEWER domain is judged by its newest', () => {
    const ok = at(investigator());
    expect(staleStages(sel([on([ok, at(builder())])]), CHAIN)).toEqual([]);
    const built = at(builder());
    const d = upstreamDigest(sel([on([ok, built])]), CHAIN, 'REVIEWER');
    const withDigest = (v: string, domain: string) =>
      at(emit('REVIEWER', { title: `Review — ${domain}`, fields: { Verdict: v, 'Context digest': d } }));
    const pr = item(9, [withDigest('APPROVED', 'A'), withDigest('APPROVED', 'B')], { kind: 'pull' });
    expect(staleStages(sel([on([ok, built]), pr]), CHAIN)).toEqual([]);
    const rebuilt = on([ok, built, at(builder())]);
    expect(staleStages(sel([rebuilt, pr]), CHAIN).map((x) => x.type)).toEqual(['REVIEWER']);
  });

  test('the digest is the upstream annotations in chain order, each named by id and length', () => {
    const ok = at(investigator());
    const built = at(builder());
    const a = upstreamDigest(sel([on([ok, built])]), CHAIN, 'REVIEWER');
    const b = upstreamDigest(sel([on([ok, built])]), ['BUILDER', 'INVESTIGATOR', 'REVIEWER'], 'REVIEWER');
    expect(a).not.toBe(b);
    expect(upstreamDigest(sel([on([])]), CHAIN, 'BUILDER')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // The exact bytes: each included annotation as id, length and text on their own lines, one after another.
    const s = sel([on([ok, built])]);
    const bytes = ['INVESTIGATOR', 'BUILDER']
      .flatMap((type) => allIncluded(s, type, 'own'))
      .map((c) => `${c.id}\n${c.annotation.raw.length}\n${c.annotation.raw}\n`)
      .join('');
    expect(upstreamDigest(s, CHAIN, 'REVIEWER')).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  });

  test("a recorded gists' part never makes a stage stale: the route compares the annotations' part, which every decider reads", () => {
    const ok = at(investigator());
    const built = at(builder());
    const d = upstreamDigest(sel([on([ok, built])]), CHAIN, 'REVIEWER');
    const reviewed = (digest: string) =>
      item(9, [at(emit('REVIEWER', { fields: { Verdict: 'APPROVED', 'Context digest': digest } }))], { kind: 'pull' });
    expect(staleStages(sel([on([ok, built]), reviewed(`${d}+gists:${'a'.repeat(64)}`)]), CHAIN)).toEqual([]);
    const rebuilt = on([ok, built, at(builder())]);
    const [stale] = staleStages(sel([rebuilt, reviewed(`${d}+gists:${'a'.repeat(64)}`)]), CHAIN);
    // Named by the annotations' part on both sides, so the two can be compared by eye.
    expect(stale.recorded).toBe(d);
    expect(stale.current).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(stale.current).not.toBe(d);
    // A malformed digest is not read at all: no stage is judged by what cannot be compared.
    expect(staleStages(sel([rebuilt, reviewed(`${d}+gists:xyz`)]), CHAIN)).toEqual([]);
  });

  test("the gists' part: every quoted file by gist id, name and text, in order; unread gists add nothing; none quoted is null", () => {
    const g = (id: string, files: Array<[string, string]>, error: string | null = null) => ({
      id,
      error,
      files: files.map(([name, content]) => ({ name, content })),
    });
    const one = gistsDigest([g('a1', [['x.md', 'text']])]);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(gistsDigest([g('a1', [['x.md', 'text']])])).toBe(one);
    expect(gistsDigest([g('a1', [['x.md', 'text!']])])).not.toBe(one);
    expect(gistsDigest([g('a1', [['y.md', 'text']])])).not.toBe(one);
    expect(gistsDigest([g('b2', [['x.md', 'text']])])).not.toBe(one);
    // Length-prefixed: moving text between a name and its content is another digest.
    expect(gistsDigest([g('a1', [['x.m', 'd\ntext']])])).not.toBe(one);
    expect(gistsDigest([g('a1', [['x.md', 'text']]), g('b2', [], 'not found (404)')])).toBe(one);
    // What an unread gist holds is not quoted, whatever a caller left in it.
    expect(gistsDigest([g('a1', [['x.md', 'text']]), g('b2', [['z.md', 'stale copy']], 'rate limited (403)')])).toBe(one);
    const two = gistsDigest([g('a1', [['x.md', 'text']]), g('b2', [['z.md', 'more']])]);
    expect(gistsDigest([g('b2', [['z.md', 'more']]), g('a1', [['x.md', 'text']])])).not.toBe(two);
    // Within a gist, files by name: the order an answer lists them in is not a revision.
    const both = gistsDigest([
      g('a1', [
        ['b.md', '2'],
        ['a.md', '1'],
        ['B.md', '3'],
      ]),
    ]);
    expect(
      gistsDigest([
        g('a1', [
          ['a.md', '1'],
          ['B.md', '3'],
          ['b.md', '2'],
        ]),
      ]),
    ).toBe(both);
    expect(both).toBe(createHash('sha256').update('a1\n4\nB.md\n1\n3\na1\n4\na.md\n1\n1\na1\n4\nb.md\n1\n2\n').digest('hex'));
    expect(gistsDigest([])).toBeNull();
    expect(gistsDigest([g('a1', [], 'refused (403)')])).toBeNull();
    expect(gistsDigest([g('a1', [['x.md', 'text']])])).toBe(createHash('sha256').update('a1\n4\nx.md\n4\ntext\n').digest('hex'));
  });

  test("gistDrift: same, changed or not checked against the gists quoted now; nothing to say without a recorded gists' part", () => {
    const a = `sha256:${'1'.repeat(64)}`;
    const recorded = `${a}+gists:${'2'.repeat(64)}`;
    expect(gistDrift(recorded, '2'.repeat(64), true)).toBe('same');
    expect(gistDrift(recorded, '3'.repeat(64), true)).toBe('changed');
    expect(gistDrift(recorded, null, true)).toBe('changed');
    expect(gistDrift(recorded, '2'.repeat(64), false)).toBe('not checked');
    expect(gistDrift(a, '2'.repeat(64), true)).toBeNull();
    expect(gistDrift('sha1:abc', null, true)).toBeNull();
  });

  test('the digest form: one part or two; composeDigest and digestParts are each other’s inverse', () => {
    const a = `sha256:${'a'.repeat(64)}`;
    const h = 'b'.repeat(64);
    expect(digestParts(a)).toEqual({ annotations: a, gists: null });
    expect(digestParts(composeDigest(a, h))).toEqual({ annotations: a, gists: h });
    expect(composeDigest(a, null)).toBe(a);
    expect(composeDigest(a, h)).toBe(`${a}+gists:${h}`);
    for (const bad of [`${a}+gists:`, `${a}+gists:${h}x`, `${a}+${h}`, `sha256:${'a'.repeat(63)}`, `${a} `, `SHA256:${'a'.repeat(64)}`])
      expect(digestParts(bad)).toBeNull();
  });
});

describe('claims and attempts', () => {
  const claimBody = (stage: string, holder = 'run 1') =>
    emit('CLAIM', { fields: { Holder: holder, Files: 'x', Interfaces: 'x', TTL: '1h', Stage: stage } });
  const asCands = (comments: ThreadComment[]): Candidate[] => cands([on(comments)]);

  test('a claim is a trusted CLAIM naming a stage, holding it for the ttl; a release of its holder ends it', () => {
    const k = at(claimBody('builder'));
    const [c] = asCands([k]);
    expect(claimOf(c, 3_600_000)).toEqual({
      stage: 'BUILDER',
      holder: 'run 1',
      run: null,
      runId: null,
      url: k.url,
      author: 'octo-owner',
      createdAt: k.createdAt,
      expiresAt: new Date(Date.parse(k.createdAt ?? '') + 3_600_000).toISOString(),
    });
    expect(claimOf(asCands([at(claimBody('BUILDER'), STRANGER)])[0], 1)).toBeNull();
    expect(claimOf(asCands([at(emit('CLAIM', { fields: { Holder: 'h', Files: 'x', Interfaces: 'x', TTL: '1h' } }))])[0], 1)).toBeNull();
    const now = Date.parse(k.createdAt ?? '') + 60_000;
    expect(stageRuns(asCands([k]), 'BUILDER', now, 3_600_000).live?.url).toBe(k.url);
    expect(stageRuns(asCands([k]), 'BUILDER', now + 3_600_000, 3_600_000).live).toBeNull();
    const released = at(emit('CLAIM_RELEASED', { fields: { Holder: 'run 1' } }));
    expect(stageRuns(asCands([k, released]), 'BUILDER', now, 3_600_000).live).toBeNull();
    const otherHolder = at(emit('CLAIM_RELEASED', { fields: { Holder: 'run 2' } }));
    expect(stageRuns(asCands([k, otherHolder]), 'BUILDER', now, 3_600_000).live?.url).toBe(k.url);
    expect(stageRuns(asCands([k]), 'REVIEWER', now, 3_600_000).live).toBeNull();
  });

  test('attempts since the last completion: claims or unfinished annotations, whichever are more; a partial after a claim ends it', () => {
    const before = at(claimBody('BUILDER', 'run 0'));
    const done = at(builder());
    const k1 = at(claimBody('BUILDER', 'run 1'));
    const p1 = at(builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->'));
    const k2 = at(claimBody('BUILDER', 'run 2'));
    const now = Date.parse(k2.createdAt ?? '') + 1000;
    const runs = stageRuns(asCands([before, done, k1, p1, k2]), 'BUILDER', now, 3_600_000);
    expect(runs.count).toBe(2);
    expect(runs.attempts.map((a) => [a.kind, a.url])).toEqual([
      ['claim', k1.url],
      ['partial', p1.url],
      ['claim', k2.url],
    ]);
    // The partial after k1 ended its run short: k2, the claim after it, holds the stage.
    expect(runs.live?.url).toBe(k2.url);
    expect(stageRuns(asCands([before, done, k1, p1]), 'BUILDER', now, 3_600_000).live).toBeNull();
    expect(stageRuns(asCands([before, done, k1]), 'BUILDER', now, 3_600_000).live?.url).toBe(k1.url);
    const partials = [0, 1, 2].map(() => at(builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '')));
    expect(stageRuns(asCands(partials), 'BUILDER', now, 1).count).toBe(3);
    expect(stageRuns(asCands(partials), 'BUILDER', now, 1).attempts.map((a) => a.kind)).toEqual([
      'interrupted',
      'interrupted',
      'interrupted',
    ]);
  });
});

describe('the edges mutation testing found undefended', () => {
  test('the newest control marker wins whatever its place in the marker list; a feedback with no Satisfied field loops nothing', () => {
    const ok = at(investigator());
    const built = at(builder());
    const older = at(marker('PUSH_FAILED'));
    const newer = at(marker('GATE_FAILED'));
    expect(route({ chain: CHAIN, labels: [], sel: sel([on([ok, built, older, newer])]) }).why).toContain(`GATE_FAILED (${newer.url})`);
    const bare = at(emit('USER_FEEDBACK', { title: 'User Feedback — s · round 1', fields: { 'Section target': 'all' } }));
    expect(route({ chain: ['ACME_GEN', 'CRITIQUE', 'USER_FEEDBACK'], labels: [], sel: sel([on([bare])]) }).rule).toBe('first open stage');
    const pass = at(
      emit('CRITIQUE', {
        title: 'Critique — s · iteration 1/3',
        fields: { 'Lint floor': 'PASS', Render: 'd', 'Perceptual findings': '- x', Verdict: 'PASS' },
      }),
    );
    expect(route({ chain: ['ACME_GEN', 'CRITIQUE', 'USER_FEEDBACK'], labels: [], sel: sel([on([bare, pass])]) }).rule).toBe(
      'first open stage',
    );
  });

  test('with no DESIGN_SPEC in the chain, generation is CRITIQUE, not the first stage', () => {
    const no = at(userFeedback('no'));
    expect(route({ chain: ['ACME_GEN', 'CRITIQUE', 'USER_FEEDBACK'], labels: [], sel: sel([on([no])]) }).phase).toBe('CRITIQUE');
  });

  test("blocks on the BUILDER's own field send it back to the builder; a scan written with the build runs again", () => {
    const blocks = new Map([
      ['BUILDER', [{ field: 'Files changed', values: ['0'] }]],
      ['SCAN', [{ field: 'Result', values: ['fail'] }]],
    ]);
    const empty = at(emit('BUILDER', { fields: { Branch: 'fix/x', Commits: 'a1', 'Files changed': '0' } }));
    expect(route({ chain: ['BUILDER', 'SCAN'], labels: [], sel: sel([on([empty])]), blocks })).toMatchObject({
      phase: 'BUILDER',
      rule: 'own verdict blocks',
    });
    const built = at(builder());
    const scan = { ...comment(emit('SCAN', { fields: { Result: 'fail' } })), createdAt: built.createdAt };
    expect(route({ chain: ['BUILDER', 'SCAN'], labels: [], sel: sel([on([built, scan])]), blocks }).phase).toBe('SCAN');
  });

  test("the newest by time speaks, not the last read: an older INVESTIGATOR on the PR does not supersede the issue's", () => {
    const pr = item(9, [at(investigator('INVALID'))], { kind: 'pull' });
    const newer = at(investigator());
    const s1 = sel([on([newer]), pr]);
    expect(newestIncluded(s1, 'INVESTIGATOR')?.item.number).toBe(1);
    // An annotation in a body with no time counts as the oldest.
    const body = item(1, [], { body: investigator('INVALID') });
    const s2 = sel([body, item(9, [at(investigator())], { kind: 'pull' })]);
    expect(newestIncluded(s2, 'INVESTIGATOR')?.item.number).toBe(9);
    // REVIEWER domains are listed oldest first, whatever order they were read in.
    const late = { ...comment(reviewer('APPROVED', 'A')), createdAt: '2027-02-02T00:00:00Z' };
    const early = { ...comment(reviewer('APPROVED', 'B')), createdAt: '2027-01-01T00:00:00Z' };
    const s3 = sel([item(9, [late, early], { kind: 'pull' })]);
    expect(allIncluded(s3, 'REVIEWER').map((c) => c.comment?.id)).toEqual([early.id, late.id]);
  });

  test('a stage line holds exactly its fields: no reason on an included one, the digest it records', () => {
    const d = `sha256:${'c'.repeat(64)}`;
    const b = at(emit('BUILDER', { fields: { Branch: 'fix/x', Commits: 'a1', 'Files changed': '1', 'Context digest': d } }));
    const c = cands([on([b])]);
    expect(stageEntries(c, select(c), ['BUILDER'], 'own')).toStrictEqual([
      {
        type: 'BUILDER',
        status: 'included',
        url: b.url,
        author: 'octo-owner',
        createdAt: b.createdAt,
        item: 1,
        scope: 'own',
        valid: true,
        errors: [],
        contextDigest: d,
      },
    ]);
  });

  test("claims: a code span around the stage is read through; a stranger's and a parent's hold nothing; one before the last completion is history", () => {
    const span = at(emit('CLAIM', { fields: { Holder: 'h', Files: 'x', Interfaces: 'x', TTL: '1h', Stage: '`BUILDER`' } }));
    const now = Date.parse(span.createdAt ?? '') + 1000;
    expect(stageRuns(cands([on([span])]), 'BUILDER', now, 3_600_000).live?.url).toBe(span.url);
    const stranger = at(emit('CLAIM', { fields: { Holder: 'h', Files: 'x', Interfaces: 'x', TTL: '1h', Stage: 'BUILDER' } }), STRANGER);
    expect(stageRuns(cands([on([stranger])]), 'BUILDER', now + 60_000, 3_600_000)).toEqual({
      stage: 'BUILDER',
      live: null,
      attempts: [],
      count: 0,
    });
    const parent = collectCandidates(
      [
        {
          item: on([at(emit('CLAIM', { fields: { Holder: 'h', Files: 'x', Interfaces: 'x', TTL: '1h', Stage: 'BUILDER' } }))]),
          repository: 'o/r',
          scope: 'parent',
        },
      ],
      trust,
    );
    expect(stageRuns(parent, 'BUILDER', now + 120_000, 3_600_000).count).toBe(0);
    // A claim and a completion written at the same moment: the claim is history.
    const done = at(builder());
    const same = {
      ...comment(emit('CLAIM', { fields: { Holder: 'h2', Files: 'x', Interfaces: 'x', TTL: '1h', Stage: 'BUILDER' } })),
      createdAt: done.createdAt,
    };
    expect(stageRuns(cands([on([done, same])]), 'BUILDER', Date.parse(done.createdAt ?? '') + 1000, 3_600_000).count).toBe(0);
    // A partial written with the completion is history too; one of another stage is not this stage's attempt.
    const partial = {
      ...comment(builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->')),
      createdAt: done.createdAt,
    };
    expect(stageRuns(cands([on([done, partial])]), 'BUILDER', 0, 1).count).toBe(0);
    const other = at(investigator().replace('<!-- INVESTIGATION:COMPLETE -->', ''));
    expect(stageRuns(cands([on([other])]), 'BUILDER', 0, 1).count).toBe(0);
    // Expiry is exclusive: at the very moment it expires, a claim holds nothing.
    const k = at(emit('CLAIM', { fields: { Holder: 'h3', Files: 'x', Interfaces: 'x', TTL: '1h', Stage: 'REVIEWER' } }));
    const t = Date.parse(k.createdAt ?? '');
    expect(stageRuns(cands([on([k])]), 'REVIEWER', t + 1000 - 1, 1000).live).not.toBeNull();
    expect(stageRuns(cands([on([k])]), 'REVIEWER', t + 1000, 1000).live).toBeNull();
    // A release written before the claim does not end it; claims are listed oldest first.
    const release = at(emit('CLAIM_RELEASED', { fields: { Holder: 'h4' } }));
    const k4 = at(emit('CLAIM', { fields: { Holder: 'h4', Files: 'x', Interfaces: 'x', TTL: '1h', Stage: 'ARCHITECT' } }));
    const k5 = at(emit('CLAIM', { fields: { Holder: 'h5', Files: 'x', Interfaces: 'x', TTL: '1h', Stage: 'ARCHITECT' } }));
    const runs = stageRuns(cands([on([k5, release, k4].reverse())]), 'ARCHITECT', Date.parse(k5.createdAt ?? '') + 1000, 3_600_000);
    expect(runs.live?.url).toBe(k4.url);
    expect(runs.attempts.map((a) => a.url)).toEqual([k4.url, k5.url]);
  });

  test('required: presets, spaces and commas, and a near miss warned', async () => {
    const { parseRequired, requiredWarnings } = await import('../src/decision/required.js');
    expect(parseRequired('')).toEqual(['INVESTIGATOR', 'BUILDER']);
    expect(parseRequired('  lifecycle  ')).toEqual(['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY']);
    expect(parseRequired('INVESTIGATOR  BUILDER\tREVIEWER')).toEqual(['INVESTIGATOR', 'BUILDER', 'REVIEWER']);
    expect(requiredWarnings(['INVESTIGATR', 'ACME_SCAN'])).toEqual([
      'required: INVESTIGATR is not a reserved type — did you mean INVESTIGATOR?',
    ]);
  });
});
