/**
 * The one decision, as a property over every thread fixture in the suite:
 * threads of an issue and the PR that closes it, built from the fixtures'
 * annotation texts and the pipeline's own stages, written in any order by
 * trusted and untrusted authors, under any labels —
 *
 * - the gate never passes a work item the route sends to `close`, to
 *   `needs-human` or to a stage up to the build, nor one with a stale stage;
 * - reading from the issue or from the PR that closes it gives the same next
 *   phase and the same digest.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { emit } from '../src/codec/index.js';
import { parseTrustPolicy } from '../src/common/trust.js';
import type { ThreadComment, WorkItem } from '../src/common/work-item.js';
import { buildContext, routeHoldsGate, type ContextRequest } from '../src/decision/context.js';
import { evaluate } from '../src/decision/evaluate.js';
import { builder, investigator, reviewer, trajectory } from './support/seed.js';
import { comment, item, OWNER, STRANGER } from './support/work-items.js';

const ROOT = new URL('..', import.meta.url).pathname;

/** Every annotation text of the fixture suites (the codec's conformance fixtures). */
function fixtureTexts(): string[] {
  const out: string[] = [];
  for (const file of readdirSync(join(ROOT, 'fixtures')).filter((f) => f.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(join(ROOT, 'fixtures', file), 'utf8'));
    const cases = Array.isArray(data) ? data : Array.isArray(data.cases) ? data.cases : [];
    for (const c of cases) if (typeof c?.input === 'string') out.push(c.input);
  }
  return out;
}

const FIXTURES = fixtureTexts();

/** The stages a pipeline writes, with the verdicts that route. */
const STAGES = [
  investigator(),
  investigator('INVALID'),
  investigator().replace('NO — single fix', 'YES — three parts'),
  builder('fix/x'),
  builder('fix/other'),
  builder('fix/x').replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->'),
  reviewer('APPROVED'),
  reviewer('CHANGES_REQUESTED'),
  reviewer('CHANGES_REQUESTED', 'SECURITY'),
  reviewer('APPROVED', 'SECURITY'),
  emit('GATE_FAILED', { fields: { Gate: 'tests', Reason: 'red' } }),
  emit('PUSH_BLOCKED', { fields: { Reason: 'protected' } }),
  emit('DECOMPOSED', { fields: { 'Sub-issues': '#2, #3' } }),
  trajectory(),
];

const TEXTS = [...FIXTURES, ...STAGES];
const AUTHORS = [OWNER, STRANGER, { login: 'forge-agent[bot]', association: 'NONE' }];
const LABELS = [
  'workflow:investigating',
  'workflow:ready-to-build',
  'workflow:in-review',
  'workflow:merged',
  'workflow:invalid',
  'needs-human',
];
const CHAINS: string[][] = [
  ['INVESTIGATOR', 'BUILDER', 'REVIEWER'],
  ['INVESTIGATOR', 'BUILDER'],
  ['INVESTIGATOR', 'ARCHITECT', 'BUILDER', 'REVIEWER', 'TRAJECTORY'],
  ['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY'],
];

const trust = parseTrustPolicy('OWNER, MEMBER, forge-agent[bot]');
const REPOSITORY = 'octo/repo';

interface Written {
  text: number;
  onPull: boolean;
  author: number;
}

// The pipeline's own stages are drawn three times as often as a fixture, and trusted authors twice as often as a
// stranger: threads near the line between passing and held are the ones that test it.
const written = fc.record({
  text: fc.oneof(
    { weight: 1, arbitrary: fc.nat({ max: FIXTURES.length - 1 }) },
    { weight: 3, arbitrary: fc.integer({ min: FIXTURES.length, max: TEXTS.length - 1 }) },
  ),
  onPull: fc.boolean(),
  author: fc.oneof(
    { weight: 2, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.constant(2) },
    { weight: 1, arbitrary: fc.constant(1) },
  ),
});

/** A work item that would pass: investigated and built on the issue, approved on the PR. */
const HAPPY: Written[] = [
  { text: FIXTURES.length, onPull: false, author: 2 },
  { text: FIXTURES.length + 3, onPull: false, author: 2 },
  { text: FIXTURES.length + 6, onPull: true, author: 0 },
];

function threads(list: readonly Written[], labels: readonly string[]): { issue: WorkItem; pr: WorkItem } {
  let clock = Date.parse('2026-03-01T00:00:00Z');
  const onIssue: ThreadComment[] = [];
  const onPull: ThreadComment[] = [];
  list.forEach((w, i) => {
    clock += 60_000;
    const c = { ...comment(TEXTS[w.text], AUTHORS[w.author]), id: 1000 + i, createdAt: new Date(clock).toISOString() };
    (w.onPull ? onPull : onIssue).push({
      ...c,
      url: `https://github.example/${REPOSITORY}/${w.onPull ? 'pull/9' : 'issues/1'}#issuecomment-${c.id}`,
    });
  });
  return {
    issue: item(1, onIssue, { labels: [...labels] }),
    pr: item(9, onPull, { kind: 'pull' }),
  };
}

function request(subject: WorkItem, issue: WorkItem, pr: WorkItem, chain: string[], fromIssue: boolean): ContextRequest {
  return {
    repository: REPOSITORY,
    subject,
    issues: [issue],
    pull: fromIssue ? null : pr,
    pulls: fromIssue ? [pr] : [],
    parent: null,
    chain,
    stage: null,
    budget: 200_000,
    trust,
    unreadable: [],
  };
}

// npm run mutate asks for fewer runs per mutant; this property keeps enough to reach both sides of the line.
const RUNS = Math.max(300, Number(process.env.FORGE_PROPERTY_RUNS ?? 1500));

test('the gate never passes what the route holds, and the issue and its PR route alike', () => {
  let held = 0;
  let passed = 0;
  fc.assert(
    fc.property(
      fc.boolean(),
      fc.array(written, { minLength: 0, maxLength: 6 }),
      fc.subarray(LABELS, { maxLength: 2 }),
      fc.nat({ max: CHAINS.length - 1 }),
      (happy, list, labels, c) => {
        const chain = CHAINS[c];
        const { issue, pr } = threads(happy ? [...HAPPY, ...list] : list, labels);
        const fromPull = buildContext(request(pr, issue, pr, chain, false));
        const fromIssue = buildContext(request(issue, issue, pr, chain, true));
        expect(fromIssue.nextPhase).toBe(fromPull.nextPhase);
        expect(fromIssue.digest).toBe(fromPull.digest);
        const gate = evaluate([issue], [pr], {
          required: chain,
          chain,
          validation: 'strict',
          trust,
          pull: { number: 9, head: 'fix/x' },
          repository: REPOSITORY,
        });
        if (routeHoldsGate(chain, fromPull.nextPhase) || fromPull.stale.length > 0) {
          held++;
          // An issue that ended without a build is exempt on its own, never as a PR's: the PR is a build.
          expect(gate.conforming).toBe(false);
        }
        if (gate.conforming) passed++;
      },
    ),
    { numRuns: RUNS, seed: 20261206 },
  );
  // The property was tried on both sides of the line.
  expect(held).toBeGreaterThan(RUNS / 15);
  expect(passed).toBeGreaterThan(RUNS / 75);
});

test('every fixture text is in the pool the property draws from', () => {
  expect(FIXTURES.length).toBeGreaterThan(100);
  expect(TEXTS).toEqual(expect.arrayContaining(FIXTURES));
});
