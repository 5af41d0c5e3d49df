/**
 * The route's rules one by one, on plain work items: §4.4's loops, the
 * pipeline file's `blocks`, stale stages and their digest, what holds the
 * gate, and the gate's own lines for them.
 */
import { emit } from '../src/codec/index.js';
import { parseTrustPolicy } from '../src/common/trust.js';
import type { ThreadComment, WorkItem } from '../src/common/work-item.js';
import { collectCandidates } from '../src/decision/collect.js';
import { buildContext, routeHoldsGate, staleStages, upstreamDigest, type ContextRequest } from '../src/decision/context.js';
import { evaluate } from '../src/decision/evaluate.js';
import { route } from '../src/decision/next-phase.js';
import { select } from '../src/decision/select.js';
import { builder, critique, investigator, reviewer, userFeedback } from './support/seed.js';
import { comment, item, OWNER, STRANGER } from './support/work-items.js';

const trust = parseTrustPolicy(undefined);
let clock = Date.parse('2026-05-01T00:00:00Z');
function at(body: string, author = OWNER): ThreadComment {
  clock += 60_000;
  return { ...comment(body, author), createdAt: new Date(clock).toISOString() };
}

const sel = (items: WorkItem[]) =>
  select(
    collectCandidates(
      items.map((i) => ({ item: i, repository: 'o/r', scope: 'own' as const })),
      trust,
    ),
  );
const routeOf = (comments: ThreadComment[], chain: string[], extra: Partial<Parameters<typeof route>[0]> = {}, labels: string[] = []) =>
  route({ chain, labels, sel: sel([item(1, comments)]), ...extra });

const DESIGN = ['DESIGN_CONTEXT', 'DESIGN_RATIONALE', 'DESIGN_SPEC', 'CRITIQUE', 'USER_FEEDBACK', 'DESIGN_SHIPPED'];
const feedback = userFeedback;

describe('§4.4: the design loop', () => {
  test('each verdict routes where the spec sends it, and says why', () => {
    expect(routeOf([at(critique('ITERATE'))], DESIGN)).toMatchObject({ phase: 'CRITIQUE', rule: 'design loop' });
    expect(routeOf([at(critique('BUDGET-EXHAUSTED'))], DESIGN)).toMatchObject({ phase: 'needs-human', rule: 'design loop' });
    expect(routeOf([at(critique('BUDGET-EXHAUSTED'))], DESIGN).why).toContain('BUDGET-EXHAUSTED');
    // PASS: the loop lets the chain go on (its first open stage).
    expect(routeOf([at(critique('PASS'))], DESIGN)).toMatchObject({ phase: 'DESIGN_CONTEXT', rule: 'first open stage' });
    const no = routeOf([at(critique('PASS')), at(feedback('no'))], DESIGN);
    expect(no).toMatchObject({ phase: 'CRITIQUE', rule: 'design loop' });
    expect(no.why).toContain('back to generation, CRITIQUE');
    expect(routeOf([at(critique('PASS')), at(feedback('no')), at(critique('PASS'))], DESIGN)).toMatchObject({ phase: 'USER_FEEDBACK' });
    expect(routeOf([at(critique('PASS')), at(feedback('yes'))], DESIGN).rule).toBe('first open stage');
    // A critique that iterates after the feedback: critique again, not the user.
    expect(routeOf([at(feedback('no')), at(critique('ITERATE'))], DESIGN).phase).toBe('CRITIQUE');
  });

  test('generation is the stage the chain places after DESIGN_SPEC', () => {
    const chain = ['DESIGN_SPEC', 'ACME_GENERATE', 'CRITIQUE', 'USER_FEEDBACK', 'DESIGN_SHIPPED'];
    expect(routeOf([at(critique('PASS')), at(feedback('no'))], chain).phase).toBe('ACME_GENERATE');
    // DESIGN_SPEC last, or absent: the loop starts at CRITIQUE.
    expect(routeOf([at(critique('PASS')), at(feedback('no'))], ['CRITIQUE', 'USER_FEEDBACK', 'DESIGN_SPEC']).phase).toBe('CRITIQUE');
  });

  test('the loop types count only when the chain has them; DESIGN_SHIPPED ends it', () => {
    expect(routeOf([at(investigator()), at(critique('ITERATE'))], ['INVESTIGATOR', 'BUILDER']).phase).toBe('BUILDER');
    expect(routeOf([at(feedback('no'))], ['INVESTIGATOR', 'BUILDER']).phase).toBe('INVESTIGATOR');
    const shipped = emit('DESIGN_SHIPPED', {
      fields: { Archetype: 'a', Gates: 'all', 'Critique iterations': '1', 'Written to memory': 'yes' },
    });
    expect(routeOf([at(critique('ITERATE')), at(shipped)], DESIGN)).toMatchObject({ phase: 'none', rule: 'design shipped' });
  });
});

describe("the pipeline file's blocks", () => {
  const blocks = new Map([['ACME_SCAN', [{ field: 'Result', values: ['fail', 'error'] }]]]);
  const scan = (result: string) => emit('ACME_SCAN', { fields: { Result: result } });

  test('after the build: back to the builder; after a newer BUILDER, the stage again', () => {
    const chain = ['INVESTIGATOR', 'BUILDER', 'ACME_SCAN'];
    const base = [at(investigator()), at(builder())];
    expect(routeOf([...base, at(scan('fail'))], chain, { blocks })).toMatchObject({ phase: 'BUILDER', rule: 'own verdict blocks' });
    expect(routeOf([...base, at(scan('ERROR'))], chain, { blocks }).phase).toBe('BUILDER');
    expect(routeOf([...base, at(scan('fail')), at(builder())], chain, { blocks }).phase).toBe('ACME_SCAN');
    expect(routeOf([...base, at(scan('pass'))], chain, { blocks }).phase).toBe('none');
    // Without the file's rule, a value blocks nothing.
    expect(routeOf([...base, at(scan('fail'))], chain).phase).toBe('none');
  });

  test('before the build, or with no BUILDER in the chain: a person decides', () => {
    const before = ['INVESTIGATOR', 'ACME_SCAN', 'BUILDER'];
    expect(routeOf([at(investigator()), at(scan('fail'))], before, { blocks })).toMatchObject({ phase: 'needs-human' });
    expect(routeOf([at(scan('fail'))], ['ACME_SCAN'], { blocks }).phase).toBe('needs-human');
  });
});

describe('stale stages', () => {
  const chain = ['INVESTIGATOR', 'BUILDER', 'REVIEWER'];

  function threadWithDigest(revise: boolean) {
    const inv = at(investigator());
    const s = sel([item(1, [inv])]);
    const digest = upstreamDigest(s, chain, 'BUILDER');
    const build = at(emit('BUILDER', { fields: { Branch: 'fix/x', Commits: 'a1b2c3d', 'Files changed': '1', 'Context digest': digest } }));
    const comments = [inv, build];
    if (revise) comments.push(at(investigator().replace('Guard it.', 'Cache it.')));
    return { comments, digest };
  }

  test('a stage whose recorded digest is its upstream digest now is not stale; after a revision it is', () => {
    const fresh = threadWithDigest(false);
    expect(staleStages(sel([item(1, fresh.comments)]), chain)).toEqual([]);
    const revised = threadWithDigest(true);
    const stale = staleStages(sel([item(1, revised.comments)]), chain);
    expect(stale).toEqual([expect.objectContaining({ type: 'BUILDER', recorded: revised.digest })]);
    expect(stale[0].current).not.toBe(revised.digest);
    expect(route({ chain, labels: [], sel: sel([item(1, revised.comments)]), stale })).toMatchObject({
      phase: 'BUILDER',
      rule: 'stale stage',
    });
  });

  test('the digest is of the upstream only: a stranger, a later stage and the stage itself do not move it', () => {
    const inv = at(investigator());
    const base = upstreamDigest(sel([item(1, [inv])]), chain, 'BUILDER');
    expect(upstreamDigest(sel([item(1, [inv, at(investigator('INVALID'), STRANGER)])]), chain, 'BUILDER')).toBe(base);
    expect(upstreamDigest(sel([item(1, [inv, at(builder())])]), chain, 'BUILDER')).toBe(base);
    expect(upstreamDigest(sel([item(1, [inv])]), chain, 'INVESTIGATOR')).not.toBe(base);
    expect(upstreamDigest(sel([item(1, [inv])]), chain, null)).toBe(base);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test('the pack names a stale stage and hands its digest for the stage about to run', () => {
    const { comments } = threadWithDigest(true);
    const req: ContextRequest = {
      repository: 'o/r',
      subject: item(1, comments),
      issues: [],
      pull: null,
      parent: null,
      chain,
      stage: null,
      budget: 60_000,
      trust,
      unreadable: [],
    };
    req.issues = [req.subject];
    const r = buildContext(req);
    expect(r.nextPhase).toBe('BUILDER');
    expect(r.stages.find((e) => e.type === 'BUILDER')?.status).toBe('stale');
    expect(r.markdown).toContain('**stale**');
    expect(r.digest).toBe(upstreamDigest(sel([req.subject]), chain, 'BUILDER'));
    const ignored = buildContext({ ...req, rules: { stale: 'ignore' } });
    expect(ignored.nextPhase).toBe('REVIEWER');
    expect(ignored.stale).toHaveLength(1);
  });

  test('the gate fails naming a stale stage, with its repository; without one it cannot tell', () => {
    const { comments } = threadWithDigest(true);
    const gate = { required: ['INVESTIGATOR', 'BUILDER'], validation: 'strict' as const, trust };
    const r = evaluate([item(1, comments)], [], { ...gate, repository: 'o/r' });
    expect(r.conforming).toBe(false);
    expect(r.blocked).toEqual(['BUILDER is stale']);
    expect(r.problems).toEqual([expect.stringMatching(/^BUILDER is stale — it was written against context sha256:/)]);
    expect(evaluate([item(1, comments)], [], gate).conforming).toBe(true);
    expect(evaluate([item(1, comments)], [], { ...gate, repository: 'o/r', rules: { stale: 'ignore' } }).conforming).toBe(true);
  });
});

describe('what holds the gate', () => {
  test('close, needs-human and DECOMPOSED always; a stage up to the build; never none or a stage after it', () => {
    const chain = ['INVESTIGATOR', 'ARCHITECT', 'BUILDER', 'REVIEWER'];
    for (const phase of ['close', 'needs-human', 'DECOMPOSED', 'INVESTIGATOR', 'ARCHITECT', 'BUILDER'])
      expect([phase, routeHoldsGate(chain, phase)]).toEqual([phase, true]);
    for (const phase of ['none', 'REVIEWER', 'ACME_ELSEWHERE']) expect([phase, routeHoldsGate(chain, phase)]).toEqual([phase, false]);
    // With no BUILDER in the chain, every stage of it holds.
    expect(routeHoldsGate(['INVESTIGATOR', 'REVIEWER'], 'REVIEWER')).toBe(true);
  });

  test('the gate names the route when its own rules said nothing: a halt marker newer than the build', () => {
    const gate = { required: ['INVESTIGATOR', 'BUILDER'], validation: 'strict' as const, trust };
    const clean = [at(investigator()), at(builder())];
    expect(evaluate([item(1, clean)], [], gate).conforming).toBe(true);
    const halted = [...clean, at(emit('PUSH_FAILED', { fields: { Reason: 'rejected' } }))];
    const r = evaluate([item(1, halted)], [], gate);
    expect(r.conforming).toBe(false);
    expect(r.route?.phase).toBe('needs-human');
    expect(r.blocked).toEqual(['routed to needs-human']);
    expect(r.problems).toEqual([expect.stringContaining('issue #1: the pipeline routes this work item to needs-human — PUSH_FAILED')]);
    // A BUILDER after it lifts it; verdicts: ignore and an exempt issue are held by nothing.
    expect(evaluate([item(1, [...halted, at(builder())])], [], gate).conforming).toBe(true);
    expect(evaluate([item(1, halted)], [], { ...gate, verdicts: 'ignore' }).conforming).toBe(true);
    expect(evaluate([item(1, halted, { labels: ['workflow:invalid'] })], [], gate).conforming).toBe(true);
    // A stage the gate already finds missing is said once.
    const missing = evaluate([item(1, [at(investigator())])], [], gate);
    expect(missing.problems).toEqual(['issue #1: BUILDER is missing']);
    expect(missing.route?.phase).toBe('BUILDER');
  });

  test('a stranger writing a control marker holds nothing', () => {
    const gate = { required: ['INVESTIGATOR', 'BUILDER'], validation: 'strict' as const, trust };
    const r = evaluate(
      [item(1, [at(investigator()), at(builder()), at(emit('GATE_FAILED', { fields: { Gate: 'x', Reason: 'y' } }), STRANGER)])],
      [],
      gate,
    );
    expect(r.conforming).toBe(true);
  });

  test('a REVIEWER on the issue reviews no code: the route passes it over', () => {
    const chain = ['INVESTIGATOR', 'BUILDER', 'REVIEWER'];
    expect(routeOf([at(investigator()), at(builder()), at(reviewer('CHANGES_REQUESTED'))], chain).phase).toBe('REVIEWER');
    const issue = item(1, [at(investigator()), at(builder())]);
    const pr = item(9, [at(reviewer('CHANGES_REQUESTED'))], { kind: 'pull' });
    expect(route({ chain, labels: [], sel: sel([issue, pr]) }).phase).toBe('BUILDER');
  });
});
