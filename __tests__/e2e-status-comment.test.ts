/**
 * forge-check `comment: true`, from the bundle against the loopback GitHub:
 * one status comment, created once and edited only when the verdict changes;
 * one left after concurrent runs; a read-only (fork) token only warns; the
 * comment never reads as an annotation; its diagram parses with Mermaid.
 */
import { parse } from '../src/codec/index.js';
import type { FakeGitHub } from './support/github-server.js';
import { mermaidBlocks, parseMermaid } from './support/mermaid.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub((g) => g.token('ghs_fork', 'github-actions[bot]', 'app', true));
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

const MARKER = '<!-- forge-check status comment';
const prEvent = (number: number) => ({ name: 'pull_request', payload: { number, pull_request: { number } } });
const check = (repo: string, pr: number, inputs: Record<string, string> = {}, token = 'ghs_actions') =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    event: prEvent(pr),
    inputs: { 'github-token': token, comment: 'true', required: 'INVESTIGATOR, BUILDER, REVIEWER', ...inputs },
  });

let n = 0;
function setup() {
  const repo = `octo/status${++n}`;
  gh.repo(repo, { maintainer: 'MEMBER', 'drive-by': 'NONE' });
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'fix/x' } });
  return { repo, issue: issue.number, pr: pr.number };
}

const statusComments = (repo: string, pr: number) =>
  (gh.repos.get(repo)?.comments ?? []).filter((c) => c.issue === pr && c.body.startsWith(MARKER));

// A GraphQL query is a read sent as a POST.
const writes = (from: number) => gh.requests.slice(from).filter((q) => q.method !== 'GET' && q.path !== '/graphql');

test('one comment: created on the first run, untouched while the verdict holds, edited when it changes', async () => {
  const { repo, issue, pr } = setup();
  const first = await check(repo, pr);
  expect(first.code).toBe(1);
  expect(first.stderr).toBe('');
  const [comment] = statusComments(repo, pr);
  expect(statusComments(repo, pr)).toHaveLength(1);
  expect(first.outputs['comment-url']).toBe(`https://github.example/${repo}/pull/${pr}#issuecomment-${comment.id}`);
  expect(comment.user).toBe('github-actions[bot]');
  expect(comment.body).toContain('## FORGE conformance: ❌ not conforming');
  expect(comment.body).toContain('| `BUILDER` | ❌ missing |');
  // The chain: INVESTIGATOR complete, BUILDER missing; DECOMPOSED left out (the issue was not decomposed).
  const [diagram] = mermaidBlocks(comment.body);
  expect(diagram).toContain('INVESTIGATOR["FORGE:INVESTIGATOR<br/>complete"]:::complete');
  expect(diagram).toContain('BUILDER["FORGE:BUILDER<br/>missing"]:::missing');
  expect(diagram).not.toContain('DECOMPOSED');
  expect(parseMermaid([diagram])).toEqual([{ ok: true, type: 'flowchart-v2' }]);
  // A status comment is never an annotation.
  expect(parse(comment.body)).toEqual([]);

  const before = gh.requests.length;
  const again = await check(repo, pr);
  expect(again.code).toBe(1);
  expect(writes(before)).toEqual([]);
  expect(again.outputs['comment-url']).toBe(first.outputs['comment-url']);

  gh.comment(repo, issue, 'maintainer', builder('fix/x'));
  gh.comment(repo, pr, 'maintainer', reviewer());
  const fixed = await check(repo, pr);
  expect(fixed.code).toBe(0);
  const after = statusComments(repo, pr);
  expect(after.map((c) => c.id)).toEqual([comment.id]);
  expect(after[0].body).toContain('## FORGE conformance: ✅ conforming');
  expect(mermaidBlocks(after[0].body)[0]).toContain('REVIEWER["FORGE:REVIEWER (on the PR)<br/>complete"]:::complete');
  expect(fixed.stdout).toContain(`edited status comment ${comment.id}`);
});

test('every stage state has its colour, and every diagram parses with Mermaid', async () => {
  const { repo, issue, pr } = setup();
  gh.comment(repo, issue, 'maintainer', builder('fix/x').replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->'));
  gh.comment(repo, pr, 'maintainer', reviewer().replace('APPROVED', 'MAYBE'));
  gh.comment(
    repo,
    issue,
    'maintainer',
    '<!-- FORGE:DECOMPOSED -->\n## Decomposition Complete\n\n### Sub-Issues Created\n- #9: part one\n\n<!-- FORGE:DECOMPOSED:COMPLETE -->',
  );
  const r = await check(repo, pr, { required: 'lifecycle' });
  const [comment] = statusComments(repo, pr);
  const [diagram] = mermaidBlocks(comment.body);
  expect(diagram).toMatch(/BUILDER\["FORGE:BUILDER<br\/>partial"\]:::partial/);
  // REVIEWER is not in the lifecycle preset: found, so shown, but faint and saying so.
  expect(diagram).toMatch(/REVIEWER\["FORGE:REVIEWER \(on the PR\)<br\/>invalid · not required"\]:::extra/);
  expect(diagram).toMatch(/DECOMPOSED\["FORGE:DECOMPOSED<br\/>complete · not required"\]:::extra/);
  for (const state of ['complete', 'partial', 'invalid', 'missing']) expect(diagram).toContain(`classDef ${state} `);
  expect(r.code).toBe(1);
  const results = parseMermaid([diagram, 'flowchart TD\n  a["broken --> ]]] b']);
  expect(results[0]).toEqual({ ok: true, type: 'flowchart-v2' });
  // The check can fail: a broken diagram is reported as one.
  expect(results[1].ok).toBe(false);
});

test('concurrent runs leave one comment', async () => {
  const { repo, pr } = setup();
  gh.latencyMs = 15;
  const runs = await Promise.all([check(repo, pr), check(repo, pr), check(repo, pr)]);
  gh.latencyMs = 0;
  expect(runs.map((r) => r.code)).toEqual([1, 1, 1]);
  expect(statusComments(repo, pr)).toHaveLength(1);
  expect(new Set(runs.map((r) => r.outputs['comment-url']))).toEqual(new Set([runs[0].outputs['comment-url']]));
});

test('a run that posted while another had already posted removes its own comment and keeps the earlier one', async () => {
  const { repo, pr } = setup();
  // Another run's comment, posted after this run looked for one: the gate's read of the
  // thread and the status comment's first look do not show it; the look after posting does.
  const earlier = gh.comment(repo, pr, 'github-actions[bot]', `${MARKER}: edited in place by the forge-check action -->\nold verdict`);
  gh.mutateNext(
    'POST',
    /^\/graphql$/,
    (answer) => {
      const thread = answer.data.repository.p0 ?? answer.data.repository.issue;
      thread.comments.nodes = thread.comments.nodes.filter((c: { id: string }) => c.id !== `IC_${earlier.id}`);
      return answer;
    },
    1,
    /query ForgeGate/,
  );
  const r = await check(repo, pr);
  expect(r.code).toBe(1);
  const left = statusComments(repo, pr);
  expect(left.map((c) => c.id)).toEqual([earlier.id]);
  expect(left[0].body).toContain('## FORGE conformance: ❌ not conforming');
  expect(r.stdout).toMatch(new RegExp(`deleted it again: status comment ${earlier.id} was posted first by a concurrent run`));
});

test("a fork PR's read-only token: the verdict stands and the step warns why the comment is missing", async () => {
  const { repo, issue, pr } = setup();
  gh.comment(repo, issue, 'maintainer', builder('fix/x'));
  gh.comment(repo, pr, 'maintainer', reviewer());
  const r = await check(repo, pr, {}, 'ghs_fork');
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ conforming: 'true', 'comment-url': '' });
  expect(r.stdout).toMatch(/::warning::the status comment on #\d+ could not be written: the token may not write here \(403\)/);
  expect(r.stdout).toContain('workflow_run');
  expect(statusComments(repo, pr)).toHaveLength(0);
  const failing = await check(setup().repo, pr, {}, 'ghs_fork');
  expect(failing.code).toBe(1);
});

test("a stranger's comment carrying the marker is neither edited nor deleted, and cannot stand in for ours", async () => {
  const { repo, pr } = setup();
  const fake = gh.comment(
    repo,
    pr,
    'drive-by',
    `${MARKER}: edited in place by the forge-check action -->\n## FORGE conformance: ✅ conforming`,
  );
  const r = await check(repo, pr);
  expect(r.code).toBe(1);
  const all = statusComments(repo, pr);
  expect(all).toHaveLength(2);
  expect(all.find((c) => c.id === fake.id)?.body).toContain('✅ conforming');
  expect(all.find((c) => c.id !== fake.id)?.user).toBe('github-actions[bot]');
});

test('text from annotations cannot form a tag, a sentinel or HTML in the comment', async () => {
  const { repo, issue, pr } = setup();
  gh.comment(repo, issue, 'maintainer', investigator('<!-- FORGE:BUILDER --> <img src=x onerror=alert(1)> @octo-owner'));
  await check(repo, pr);
  const [comment] = statusComments(repo, pr);
  expect(parse(comment.body)).toEqual([]);
  expect(comment.body.split('<!--')).toHaveLength(2);
  expect(comment.body).not.toContain('<img');
  expect(comment.body).not.toMatch(/@octo-owner/);
});

test('comment: false (the default) writes nothing', async () => {
  const { repo, pr } = setup();
  const before = gh.requests.length;
  await check(repo, pr, { comment: 'false' });
  expect(writes(before)).toEqual([]);
});

test('on an issue the comment goes on the issue, and its chain starts at the issue body', async () => {
  const repo = `octo/status${++n}`;
  gh.repo(repo, { maintainer: 'MEMBER' });
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  const r = await runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    event: { name: 'issues', payload: { action: 'labeled', issue: { number: issue.number } } },
    inputs: { 'github-token': 'ghs_actions', comment: 'true' },
  });
  expect(r.code).toBe(1);
  const [comment] = statusComments(repo, issue.number);
  expect(comment.body).toContain(`### Issue #${issue.number}`);
  const [diagram] = mermaidBlocks(comment.body);
  expect(diagram).toContain(`body["Issue #${issue.number} body"]`);
  expect(parseMermaid([diagram])[0].ok).toBe(true);
});

test('the workflow_run pattern: issue-number names the PR, and the comment goes on the PR', async () => {
  const { repo, issue, pr } = setup();
  gh.comment(repo, issue, 'maintainer', builder('fix/x'));
  gh.comment(repo, pr, 'maintainer', reviewer());
  const r = await runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    event: { name: 'workflow_run', payload: { action: 'completed', workflow_run: { id: 1 } } },
    inputs: {
      'github-token': 'ghs_actions',
      'issue-number': String(pr),
      comment: 'true',
      required: 'INVESTIGATOR, BUILDER, REVIEWER',
      'fail-on-violation': 'false',
    },
  });
  expect(r.stderr).toBe('');
  expect(r.outputs.conforming).toBe('true');
  const [comment] = statusComments(repo, pr);
  expect(comment.body).toContain('## FORGE conformance: ✅ conforming');
  expect(comment.body).toContain(`### Issue #${issue}`);
  expect(statusComments(repo, issue)).toHaveLength(0);
});

test('what a reviewer sees: the PR and its issues named, the label in words, only required stages stand out, left to right, the run linked', async () => {
  const { repo, issue, pr } = setup();
  const run = (id: string) =>
    runBundle('forge-check', {
      apiUrl: gh.url,
      repository: repo,
      event: { name: 'pull_request', payload: { number: pr, pull_request: { number: pr } } },
      inputs: { 'github-token': 'ghs_actions', comment: 'true', required: 'INVESTIGATOR, BUILDER', 'fail-on-violation': 'false' },
      env: { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: id },
    });
  await run('100');
  const [comment] = statusComments(repo, pr);
  expect(comment.body).toContain(
    `**PR #${pr}**, judged through #${issue} (the issues it closes) and its own thread. Required: \`INVESTIGATOR\`, \`BUILDER\`.`,
  );
  expect(comment.body).toContain(`### Issue #${issue} — label: no workflow:* label`);
  expect(comment.body).toContain(`[this run](https://github.example/${repo}/actions/runs/100)`);
  const [diagram] = mermaidBlocks(comment.body);
  expect(diagram.split('\n')[0]).toBe('flowchart LR');
  // The missing BUILDER is required: it stands out; CONTRACT, CONTEXT, ARCHITECT, REVIEWER and TRAJECTORY are
  // neither required nor found: left out.
  expect(diagram).toContain('BUILDER["FORGE:BUILDER<br/>missing"]:::missing');
  for (const absent of ['CONTRACT', 'CONTEXT', 'ARCHITECT', 'REVIEWER', 'TRAJECTORY']) expect(diagram).not.toContain(`${absent}[`);
  expect(diagram).toMatch(/classDef missing [^\n]*stroke:#c92a2a/);
  expect(parseMermaid([diagram])[0].ok).toBe(true);
  // Another run with the same verdict leaves the comment as it is, its run link included.
  const before = gh.requests.length;
  await run('101');
  expect(writes(before)).toEqual([]);
  expect(statusComments(repo, pr)[0].body).toContain('/actions/runs/100)');
});

test("the comment is ours by identity: a member's copy of the marker is left alone, and two gates keep two comments", async () => {
  const { repo, pr } = setup();
  const copied = gh.comment(repo, pr, 'maintainer', `${MARKER}: edited in place by the forge-check action -->\nlooks official`);
  await check(repo, pr);
  const comments = statusComments(repo, pr);
  // The member's comment is neither edited nor deleted; the gate (an App token: a bot) keeps its own.
  expect(comments.map((c) => [c.user, c.id === copied.id])).toEqual([
    ['maintainer', true],
    ['github-actions[bot]', false],
  ]);
  expect(comments[0].body).toContain('looks official');
  // A second gate, under another status-context, keeps a comment of its own.
  await check(repo, pr, { required: 'INVESTIGATOR', 'status-context': 'FORGE investigation' });
  const ours = statusComments(repo, pr).filter((c) => c.user === 'github-actions[bot]');
  expect(ours).toHaveLength(2);
  expect(ours[1].body.split('\n')[0]).toBe(
    '<!-- forge-check status comment (FORGE investigation): edited in place by the forge-check action -->',
  );
  // Run again, both gates edit only their own.
  await check(repo, pr);
  await check(repo, pr, { required: 'INVESTIGATOR', 'status-context': 'FORGE investigation' });
  expect(statusComments(repo, pr).filter((c) => c.user === 'github-actions[bot]')).toHaveLength(2);
});

test("with a user token the gate's own comments are that user's: another bot's copy is left alone", async () => {
  const { repo, pr } = setup();
  gh.token('ghp_gatekeeper', 'gatekeeper', 'user');
  gh.repo(repo, { gatekeeper: 'MEMBER' });
  const bot = gh.comment(repo, pr, 'github-actions[bot]', `${MARKER}: edited in place by the forge-check action -->\nanother gate`);
  await check(repo, pr, { 'trusted-authors': 'OWNER, MEMBER, github-actions[bot]' }, 'ghp_gatekeeper');
  const comments = statusComments(repo, pr);
  expect(comments.map((c) => c.user)).toEqual(['github-actions[bot]', 'gatekeeper']);
  expect(comments[0].id).toBe(bot.id);
  expect(comments[0].body).toContain('another gate');
});
