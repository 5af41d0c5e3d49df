/**
 * The decision's reading of evidence, on plain work items (no server): what
 * verdicts block, where REVIEWER counts, who really wrote a comment, and what
 * another repository's associations are worth here.
 */
import { parseTrustPolicy } from '../src/common/trust.js';
import type { ThreadComment } from '../src/common/work-item.js';
import { collectAnnotations } from '../src/common/trusted-annotations.js';
import { evaluate, type EvaluateOptions } from '../src/decision/evaluate.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { comment, item, OWNER, STRANGER } from './support/work-items.js';

const trust = parseTrustPolicy(undefined);
const gate: EvaluateOptions = { required: ['INVESTIGATOR', 'BUILDER', 'REVIEWER'], validation: 'strict', trust };
const pull = { number: 9, head: 'fix/x' };

let clock = Date.parse('2026-01-01T00:00:00Z');
/** A comment written a minute after the previous one. */
function at(body: string, author = OWNER): ThreadComment {
  clock += 60_000;
  return { ...comment(body, author), createdAt: new Date(clock).toISOString() };
}

/** Issue #1 (investigated and built for fix/x) and PR #9 holding `onPr`. */
function prWith(onPr: ThreadComment[], issueExtra: ThreadComment[] = []) {
  const issue = item(1, [at(investigator()), at(builder('fix/x')), ...issueExtra]);
  const pr = item(9, onPr, { kind: 'pull' });
  return { issue, pr };
}

describe('verdicts', () => {
  test('CHANGES_REQUESTED blocks: status blocked, a problem naming the domain and the review, blocked listed', () => {
    const { issue, pr } = prWith([at(reviewer('CHANGES_REQUESTED', 'SECURITY'))]);
    const r = evaluate([issue], [pr], { ...gate, pull });
    expect(r.conforming).toBe(false);
    expect(r.blocked).toEqual(['REVIEWER (SECURITY) requests changes']);
    expect(r.missing).toEqual([]);
    expect(r.items[0].types.find((t) => t.type === 'REVIEWER')).toMatchObject({
      status: 'blocked',
      errors: ['REVIEWER (SECURITY) requests changes'],
    });
    expect(r.problems).toEqual([
      expect.stringMatching(/^issue #1: REVIEWER \(SECURITY\) by octo-owner requests changes \(CHANGES_REQUESTED\) — https:/),
    ]);
  });

  test('the newest REVIEWER of each domain decides; domains are independent', () => {
    const approved = prWith([at(reviewer('CHANGES_REQUESTED', 'SECURITY')), at(reviewer('APPROVED', 'SECURITY'))]);
    expect(evaluate([approved.issue], [approved.pr], { ...gate, pull }).conforming).toBe(true);
    const reopened = prWith([at(reviewer('APPROVED', 'SECURITY')), at(reviewer('CHANGES_REQUESTED', 'SECURITY'))]);
    expect(evaluate([reopened.issue], [reopened.pr], { ...gate, pull }).blocked).toEqual(['REVIEWER (SECURITY) requests changes']);
    const two = prWith([at(reviewer('CHANGES_REQUESTED', 'LOGIC')), at(reviewer('APPROVED', 'SECURITY'))]);
    expect(evaluate([two.issue], [two.pr], { ...gate, pull }).blocked).toEqual(['REVIEWER (LOGIC) requests changes']);
    // Written at the same moment: the later in the thread decides.
    const same = { ...comment(reviewer('CHANGES_REQUESTED', 'DB')), createdAt: '2027-01-01T00:00:00Z' };
    const after = { ...comment(reviewer('APPROVED', 'DB')), createdAt: '2027-01-01T00:00:00Z' };
    const tie = prWith([same, after]);
    expect(evaluate([tie.issue], [tie.pr], { ...gate, pull }).conforming).toBe(true);
  });

  test('a domain is read from the title whatever the dash; none is one domain; the verdict in any case or a code span', () => {
    const dashes = prWith([
      at(reviewer('CHANGES_REQUESTED').replace('## Review', '## Review - FRONTEND')),
      at(reviewer('APPROVED').replace('## Review', '## Review – FRONTEND')),
      at(reviewer('APPROVED')),
      at(reviewer('changes_requested').replace('## Review', '## Review')),
    ]);
    const r = evaluate([dashes.issue], [dashes.pr], { ...gate, pull, validation: 'presence' });
    expect(r.blocked).toEqual(['REVIEWER requests changes']);
    const span = prWith([at(reviewer('APPROVED').replace('**Verdict**: APPROVED', '**Verdict**: `CHANGES_REQUESTED`'))]);
    expect(evaluate([span.issue], [span.pr], { ...gate, pull }).blocked).toEqual(['REVIEWER requests changes']);
  });

  test('COMMENTED and APPROVED are present; a stranger decides nothing; verdicts: ignore reads presence only', () => {
    const ok = prWith([at(reviewer('COMMENTED', 'X')), at(reviewer('CHANGES_REQUESTED', 'X'), STRANGER)]);
    expect(evaluate([ok.issue], [ok.pr], { ...gate, pull }).conforming).toBe(true);
    const blocked = prWith([at(reviewer('CHANGES_REQUESTED', 'X'))]);
    expect(evaluate([blocked.issue], [blocked.pr], { ...gate, pull, verdicts: 'ignore' })).toMatchObject({ conforming: true, blocked: [] });
  });

  test('a blocking REVIEWER blocks even when REVIEWER is not required; an invalid one stays invalid', () => {
    const { issue, pr } = prWith([at(reviewer('CHANGES_REQUESTED', 'X'))]);
    const r = evaluate([issue], [pr], { ...gate, required: ['INVESTIGATOR', 'BUILDER'], pull });
    expect(r.conforming).toBe(false);
    expect(r.items[0].types.map((t) => t.status)).toEqual(['ok', 'ok']);
    const invalid = prWith([
      at(
        '<!-- FORGE:REVIEWER -->\n## Review — X\n\n**Verdict**: CHANGES_REQUESTED\n\n### Findings\n- **Severity**: BOGUS\n  **Location**: `a.ts:1`\n  **Issue**: x\n  **Suggested fix**: y\n  **Prevention**: z\n',
      ),
    ]);
    const types = evaluate([invalid.issue], [invalid.pr], { ...gate, pull }).items[0].types;
    // Invalid stays invalid: a verdict only blocks what would otherwise pass.
    expect(types.find((t) => t.type === 'REVIEWER')?.status).toBe('invalid');
  });

  test('an INVESTIGATOR that found the issue INVALID blocks a PR closing it and the issue (routed to close) — not the PR itself', () => {
    const issue = item(1, [at(investigator('INVALID')), at(builder('fix/x'))]);
    const pr = item(9, [at(reviewer())], { kind: 'pull' });
    const r = evaluate([issue], [pr], { ...gate, pull });
    expect(r.blocked).toEqual(['INVESTIGATOR found #1 INVALID']);
    expect(r.items[0].types.find((t) => t.type === 'INVESTIGATOR')?.status).toBe('blocked');
    expect(r.problems).toEqual([expect.stringContaining('issue #1: INVESTIGATOR by octo-owner found the issue INVALID')]);
    // The issue alone: the route sends it to close, and the gate never passes what the route closes.
    const alone = evaluate([issue], [], gate);
    expect(alone.blocked).toEqual(['routed to close']);
    expect(alone.route?.phase).toBe('close');
    expect(alone.problems).toContainEqual(
      expect.stringContaining('issue #1: the pipeline routes this work item to close — the INVESTIGATOR found the issue INVALID'),
    );
    const onPr = item(9, [at(investigator('INVALID')), at(builder('fix/x')), at(reviewer())], { kind: 'pull' });
    expect(evaluate([onPr], [], { ...gate, pull }).conforming).toBe(true);
    // A later investigation that confirms it clears the block.
    const revised = item(1, [at(investigator('INVALID')), at(builder('fix/x')), at(investigator('CONFIRMED'))]);
    expect(evaluate([revised], [pr], { ...gate, pull }).conforming).toBe(true);
    // An exempt (ended) issue is not asked for its verdict on its own.
    const ended = item(1, [at(investigator('INVALID'))], { labels: ['workflow:invalid'] });
    expect(evaluate([ended], [], gate).conforming).toBe(true);
  });
});

describe('verdicts: the edges', () => {
  test('newest by when it was written, not by where it sits in the list; a body counts as oldest', () => {
    const late = { ...comment(reviewer('CHANGES_REQUESTED', 'X')), createdAt: '2027-02-02T00:00:00Z' };
    const early = { ...comment(reviewer('APPROVED', 'X')), createdAt: '2027-01-01T00:00:00Z' };
    const { issue } = prWith([]);
    const pr = item(9, [late, early], { kind: 'pull' });
    expect(evaluate([issue], [pr], { ...gate, pull }).blocked).toEqual(['REVIEWER (X) requests changes']);
    const inBody = item(9, [{ ...comment(reviewer('APPROVED', 'X')), createdAt: '2027-01-01T00:00:00Z' }], {
      kind: 'pull',
      body: reviewer('CHANGES_REQUESTED', 'X'),
    });
    expect(evaluate([issue], [inBody], { ...gate, pull }).conforming).toBe(true);
  });

  test('a title that starts with the dash still names its domain', () => {
    const { issue } = prWith([]);
    const pr = item(9, [at(reviewer('CHANGES_REQUESTED').replace('## Review', '## — INFRA'))], { kind: 'pull' });
    expect(evaluate([issue], [pr], { ...gate, pull, validation: 'presence' }).blocked).toEqual(['REVIEWER (INFRA) requests changes']);
  });

  test("an unfinished INVESTIGATOR decides nothing; only the issue's own investigation speaks for it", () => {
    const partial = investigator('INVALID').replace('<!-- INVESTIGATION:COMPLETE -->', '<!-- INVESTIGATION:PARTIAL -->');
    const issue = item(1, [at(investigator()), at(builder('fix/x')), at(partial)]);
    const pr = item(9, [at(reviewer())], { kind: 'pull' });
    expect(evaluate([issue], [pr], { ...gate, pull }).blocked).toEqual([]);
    const confirmed = item(1, [at(investigator()), at(builder('fix/x'))]);
    const prInvalid = item(9, [at(reviewer()), at(investigator('INVALID'))], { kind: 'pull' });
    expect(evaluate([confirmed], [prInvalid], { ...gate, pull }).blocked).toEqual([]);
  });
});

describe('where a REVIEWER counts', () => {
  test('on the PR it counts; on the issue a PR closes it is passed over (§4); an issue checked alone keeps it', () => {
    const { issue, pr } = prWith([], [at(reviewer())]);
    const r = evaluate([issue], [pr], { ...gate, pull });
    expect(r.missing).toEqual(['REVIEWER']);
    expect(r.items[0].ignored).toMatchObject([
      { kind: 'wrong-place', type: 'REVIEWER', reason: expect.stringContaining('written on the pull request (§4)') },
    ]);
    expect(r.problems[0]).toContain('REVIEWER on #1 is passed over');
    expect(evaluate([issue], [], gate).conforming).toBe(true);
    const onPr = prWith([at(reviewer())]);
    expect(evaluate([onPr.issue], [onPr.pr], { ...gate, pull }).conforming).toBe(true);
  });
});

describe('who really wrote it', () => {
  test('a hidden comment never counts; an edit by an untrusted editor loses it; a trusted editor keeps it', () => {
    const hidden = { ...at(builder('fix/x')), hidden: 'spam' };
    const r = collectAnnotations(item(1, [hidden]), trust);
    expect(r.found).toEqual([]);
    expect(r.ignored).toMatchObject([{ kind: 'hidden', reason: 'the comment is hidden on GitHub (spam): a hidden comment never counts' }]);
    const edited = { ...at(builder('fix/x')), editedBy: { login: 'drive-by', trusted: false } };
    expect(collectAnnotations(item(1, [edited]), trust).ignored).toMatchObject([
      { kind: 'edited', reason: 'the comment was last edited by drive-by, who is not in trusted-authors' },
    ]);
    const fine = { ...at(builder('fix/x')), editedBy: { login: 'maintainer', trusted: true }, hidden: null };
    expect(collectAnnotations(item(1, [fine]), trust).found).toHaveLength(1);
    // An untrusted author stays untrusted, whatever else is true of the comment.
    expect(collectAnnotations(item(1, [{ ...at(builder(), STRANGER), hidden: 'spam' }]), trust).ignored[0].kind).toBe('untrusted');
  });

  test("another repository's associations trust nobody here; a listed login does", () => {
    const theirs = item(1, [at(investigator(), { login: 'mallory', association: 'OWNER' })], { foreign: 'mallory/tools' });
    const r = collectAnnotations(theirs, trust);
    expect(r.found).toEqual([]);
    expect(r.ignored[0].reason).toBe(
      'author mallory (OWNER) is not in trusted-authors (on mallory/tools an association counts for nobody here)',
    );
    expect(collectAnnotations(theirs, parseTrustPolicy('OWNER, mallory')).found).toHaveLength(1);
    expect(collectAnnotations({ ...theirs, foreign: undefined }, trust).found).toHaveLength(1);
  });

  test("github-actions[bot] on another repository's issue is that repository's workflow: never trusted there, listed or not", () => {
    const bot = { login: 'github-actions[bot]', association: 'NONE' };
    const theirs = item(1, [at(investigator(), bot), at(builder('fix/x'), bot)], { foreign: 'mallory/tools' });
    expect(collectAnnotations(theirs, trust).found).toEqual([]);
    expect(collectAnnotations(theirs, parseTrustPolicy('OWNER, github-actions[bot]')).found).toEqual([]);
    // Here it is our own workflow, as the default says.
    expect(collectAnnotations({ ...theirs, foreign: undefined }, trust).found).toHaveLength(2);
  });

  test("an issue of another repository with the PR's number is not the PR; a fork's branch does not borrow a BUILDER", () => {
    const neighbour = item(9, [at(investigator()), at(builder('other'))], { foreign: 'octo/neighbour' });
    const pr = item(9, [at(reviewer())], { kind: 'pull' });
    const r = evaluate([neighbour], [pr], { ...gate, trust: parseTrustPolicy('octo-owner'), pull });
    expect(r.missing).toEqual(['BUILDER']);
    const { issue } = prWith([]);
    const fork = evaluate([issue], [pr], { ...gate, pull: { ...pull, headHere: false, headRepository: 'drive-by/fork' } });
    expect(fork.missing).toEqual(['BUILDER']);
    expect(fork.items[0].ignored).toMatchObject([{ kind: 'foreign-build', reason: expect.stringContaining('is in `drive-by/fork`') }]);
    expect(evaluate([issue], [pr], { ...gate, pull: { ...pull, headHere: true } }).conforming).toBe(true);
  });
});
