/**
 * forge-dispatch from its bundle against the loopback GitHub: a mapped stage
 * is claimed and its workflow started with workflow_dispatch (the inputs the
 * workflow declares, on the default branch); a live claim is not started
 * again; two dispatchers at once leave one claim and one run; a stage out of
 * attempts goes to a person; close and needs-human are acted on when the file
 * says so; a workflow that cannot take the dispatch is one error, nothing
 * written; a repository sweep names what it cannot read and acts on the rest.
 */
import { readFileSync } from 'node:fs';
import { emit } from '../src/codec/index.js';
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator } from './support/seed.js';
import { DISPATCH_FILE as FILE, STAGE_WORKFLOW } from './support/dispatch-fixtures.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

let n = 0;
function setup(file = FILE) {
  const repo = `octo/dispatch${++n}`;
  const r = gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  r.files.set('.github/forge.yml', file);
  r.files.set('.github/workflows/investigate.yml', STAGE_WORKFLOW);
  r.files.set('.github/workflows/build.yml', STAGE_WORKFLOW);
  const issue = gh.issue(repo, { title: 'Checkout fails', body: 'Checkout raises on a null profile.' });
  return { repo, r, issue };
}

const RUN = { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '9001' };

const dispatch = (repo: string, inputs: Record<string, string> = {}, env: Record<string, string> = RUN) =>
  runBundle('forge-dispatch', { apiUrl: gh.url, repository: repo, env, inputs: { 'github-token': 'ghs_actions', ...inputs } });

const claims = (repo: string, number: number) => gh.commentsOn(repo, number).filter((c) => c.body.includes('<!-- FORGE:CLAIM -->'));

describe('forge-dispatch starts the next stage', () => {
  test('the next phase is a mapped stage: one claim, then workflow_dispatch with issue-number, stage and the claim', async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(d.code).toBe(0);
    const [claim] = claims(repo, issue.number);
    expect(claim.body).toContain('**Stage**: BUILDER');
    expect(claim.body).toContain(`**Holder**: https://github.example/${repo}/actions/runs/9001`);
    expect(r.dispatches).toEqual([
      {
        workflow: 'build.yml',
        ref: 'main',
        inputs: { 'issue-number': String(issue.number), stage: 'BUILDER', claim: expect.stringContaining('#issuecomment-') },
        by: 'github-actions[bot]',
      },
    ]);
    expect(JSON.parse(d.outputs.dispatched)).toEqual([
      {
        number: issue.number,
        stage: 'BUILDER',
        workflow: 'build.yml',
        claim: r.dispatches[0].inputs.claim,
        run: `https://github.example/${repo}/actions/runs/${r.runs[0].id}`,
      },
    ]);
    expect(d.outputs.inconclusive).toBe('false');

    // While the claim is live, the stage is running: nothing is claimed or started again.
    const writes = gh.writes().length;
    const again = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(JSON.parse(again.outputs.dispatched)).toEqual([]);
    expect(again.stdout).toContain('running');
    expect(gh.writes().length).toBe(writes);
    expect(r.dispatches).toHaveLength(1);
    // The reader shows the stage running: who holds it, until when.
    const reader = await runBundle('forge-context', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', 'issue-number': String(issue.number) },
    });
    expect(reader.outputs['next-phase']).toBe('BUILDER');
    expect(reader.stdout).toContain(`running: BUILDER is claimed by https://github.example/${repo}/actions/runs/9001 until `);
  });

  test("a stranger's claim counts for nothing; a stage the file maps to no workflow starts nothing", async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(
      repo,
      issue.number,
      'drive-by',
      emit('CLAIM', { fields: { Holder: 'me', Files: 'x', Interfaces: 'x', TTL: '2h', Stage: 'BUILDER' } }),
    );
    expect(JSON.parse((await dispatch(repo, { 'issue-number': String(issue.number) })).outputs.dispatched)).toHaveLength(1);
    // The BUILDER is written: REVIEWER runs next, and the file maps it to no workflow.
    gh.comment(repo, issue.number, 'maintainer', builder());
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(JSON.parse(d.outputs.dispatched)).toEqual([]);
    expect(d.stdout).toContain('REVIEWER is not a stage the pipeline file maps to a workflow');
    expect(r.dispatches).toHaveLength(1);
  });

  test('a claim whose run died expires and counts as an attempt; at the budget, a person is asked once and nothing is started', async () => {
    const { repo, r, issue } = setup(
      'chain:\n  - { type: INVESTIGATOR, workflow: investigate.yml }\n  - BUILDER\nattempts: 2\nclaim-ttl: 1m\n',
    );
    // GitHub's clock (the fake's), which claims are judged by.
    const old = (m: number) => new Date(Date.parse(gh.now()) - m * 60_000).toISOString();
    const claimText = emit('CLAIM', { fields: { Holder: 'run 1', Files: 'x', Interfaces: 'x', TTL: '1m', Stage: 'INVESTIGATOR' } });
    gh.comment(repo, issue.number, 'github-actions[bot]', claimText).created_at = old(30);
    const first = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(JSON.parse(first.outputs.dispatched)).toHaveLength(1);
    // The second claim expires too, with nothing written: two attempts of two.
    for (const c of claims(repo, issue.number)) c.created_at = old(10);
    // GitHub has the run the claim started end without writing the stage (the runner died).
    for (const run of r.runs) Object.assign(run, { status: 'completed', conclusion: 'failure' });
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(JSON.parse(d.outputs.escalated)).toEqual([{ number: issue.number, stage: 'INVESTIGATOR', attempts: 2 }]);
    expect(gh.repo(repo).issues.get(issue.number)?.labels).toContain('needs-human');
    const note = gh.commentsOn(repo, issue.number).find((c) => c.body.includes('FORGE dispatch'));
    expect(note?.body).toContain('INVESTIGATOR has had 2 attempts since it last completed, and the pipeline allows 2');
    // One line an attempt: the claim, the run it started and how GitHub says that run ended.
    expect(note?.body).toContain(`— run https://github.example/${repo}/actions/runs/${r.runs[0].id} (failure)`);
    expect(note?.body).toContain('— a run GitHub did not name');
    expect(r.dispatches).toHaveLength(1);
    // Asked once: the next sweep writes nothing.
    const writes = gh.writes().length;
    await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(gh.writes().length).toBe(writes);
  });

  test('partials count as attempts: three partial BUILDERs and the stage goes to a person', async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    for (let i = 0; i < 3; i++)
      gh.comment(repo, issue.number, 'maintainer', builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->'));
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(JSON.parse(d.outputs.escalated)).toEqual([{ number: issue.number, stage: 'BUILDER', attempts: 3 }]);
    expect(JSON.parse(d.outputs.dispatched)).toEqual([]);
  });

  test("a stage that runs again within the claim-ttl of its last run is claimed anew: the finished run's claim holds nothing", async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    expect(JSON.parse((await dispatch(repo, { 'issue-number': String(issue.number) })).outputs.dispatched)).toHaveLength(1);
    gh.comment(repo, issue.number, 'github-actions[bot]', builder());
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'CHANGES_REQUESTED', Commit: pr.pull?.sha ?? '' } }));
    const again = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(JSON.parse(again.outputs.dispatched)).toEqual([expect.objectContaining({ stage: 'BUILDER' })]);
    expect(r.dispatches).toHaveLength(2);
    expect(claims(repo, issue.number)).toHaveLength(2);
  });

  test('two dispatchers at once: one claim is left and one workflow is started', async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.latencyMs = 30;
    try {
      const both = await Promise.all([
        dispatch(repo, { 'issue-number': String(issue.number) }, { ...RUN, GITHUB_RUN_ID: '1' }),
        dispatch(repo, { 'issue-number': String(issue.number) }, { ...RUN, GITHUB_RUN_ID: '2' }),
      ]);
      expect(both.every((d) => d.code === 0)).toBe(true);
    } finally {
      gh.latencyMs = 0;
    }
    expect(claims(repo, issue.number)).toHaveLength(1);
    expect(r.dispatches).toHaveLength(1);
    expect(r.dispatches[0].inputs.claim).toContain(`#issuecomment-${claims(repo, issue.number)[0].id}`);
  });
});

describe('a create whose answer GitHub lost is read back, never sent twice', () => {
  test('the claim landed but its answer was a 502: one claim, read back as ours, and the stage is started', async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.fail('POST', new RegExp(`/issues/${issue.number}/comments$`), 502, 1, { after: true });
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(d.code).toBe(0);
    expect(claims(repo, issue.number)).toHaveLength(1);
    expect(r.dispatches).toHaveLength(1);
    expect(r.dispatches[0].inputs.claim).toContain(`#issuecomment-${claims(repo, issue.number)[0].id}`);
  });

  test('the board landed but its answer was a 502: one board, and its URL is the output', async () => {
    const { repo, r } = setup();
    gh.fail('POST', new RegExp(`^/repos/${repo}/issues$`), 502, 1, { after: true });
    const d = await dispatch(repo, { scope: 'repository' });
    expect(d.code).toBe(0);
    const boards = [...r.issues.values()].filter((i) => i.title === 'FORGE pipeline board');
    expect(boards).toHaveLength(1);
    expect(d.outputs['board-url']).toBe(`https://github.example/${repo}/issues/${boards[0].number}`);
  });

  test('a 502 before anything landed: the read-back finds nothing, and the board is opened once more', async () => {
    const { repo, r } = setup();
    gh.fail('POST', new RegExp(`^/repos/${repo}/issues$`), 502, 1);
    const d = await dispatch(repo, { scope: 'repository' });
    expect(d.code).toBe(0);
    expect([...r.issues.values()].filter((i) => i.title === 'FORGE pipeline board')).toHaveLength(1);
  });
});

describe('what the file says to act on', () => {
  test('act-on: close — an INVALID investigation closes the issue as not planned with workflow:invalid', async () => {
    const { repo, r, issue } = setup(`${FILE}act-on: [close, needs-human]\n`);
    gh.comment(repo, issue.number, 'maintainer', investigator('INVALID'));
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(d.code).toBe(0);
    const after = gh.repo(repo).issues.get(issue.number);
    expect(after?.state).toBe('closed');
    expect(after?.state_reason).toBe('not_planned');
    expect(after?.labels).toContain('workflow:invalid');
    expect(r.dispatches).toEqual([]);
  });

  test('without act-on, close and needs-human are reported, not acted on', async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator('INVALID'));
    const writes = gh.writes().length;
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(d.stdout).toContain('next phase close');
    expect(gh.writes().length).toBe(writes);
    expect(gh.repo(repo).issues.get(issue.number)?.state).toBe('open');
  });

  test('act-on: needs-human — a control marker newer than the build labels the issue once, with one comment', async () => {
    const { repo, issue } = setup(`${FILE}act-on: [needs-human]\n`);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder());
    gh.comment(repo, issue.number, 'github-actions[bot]', emit('GATE_FAILED', { fields: { Gate: 'tests', Reason: 'red' } }));
    await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(gh.repo(repo).issues.get(issue.number)?.labels).toContain('needs-human');
    const writes = gh.writes().length;
    await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(gh.writes().length).toBe(writes);
  });
});

describe('refused before anything is written', () => {
  test.each([
    [
      'a mapped workflow the repository does not have',
      (r: ReturnType<typeof setup>['r']) => r.files.delete('.github/workflows/build.yml'),
      'chain: BUILDER runs build.yml, which the repository does not have',
    ],
    [
      'a workflow that does not declare the inputs',
      (r: ReturnType<typeof setup>['r']) =>
        r.files.set('.github/workflows/build.yml', 'on:\n  workflow_dispatch:\n    inputs:\n      stage: {}\njobs: {}\n'),
      'chain: BUILDER runs build.yml, which does not declare the inputs issue-number, claim under on.workflow_dispatch.inputs',
    ],
    [
      'a workflow with no workflow_dispatch',
      (r: ReturnType<typeof setup>['r']) => r.files.set('.github/workflows/build.yml', 'on: push\njobs: {}\n'),
      'chain: BUILDER runs build.yml, which has no on.workflow_dispatch trigger',
    ],
  ])('%s: one error line, nothing written', async (_name, spoil, message) => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    spoil(r);
    const writes = gh.writes().length;
    const d = await dispatch(repo, { 'issue-number': String(issue.number) });
    expect(d.code).toBe(1);
    expect(d.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([expect.stringContaining(message)]);
    expect(gh.writes().length).toBe(writes);
  });

  test('dry-run says what it would start and writes nothing', async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const writes = gh.writes().length;
    const d = await dispatch(repo, { 'issue-number': String(issue.number), 'dry-run': 'true' });
    expect(JSON.parse(d.outputs.dispatched)).toEqual([
      { number: issue.number, stage: 'BUILDER', workflow: 'build.yml', claim: '', run: '' },
    ]);
    expect(d.summary).toContain('(dry run)');
    expect(gh.writes().length).toBe(writes);
    expect(r.dispatches).toEqual([]);
  });
});

describe('scope: repository', () => {
  test('every open issue is routed; one that cannot be read is named, inconclusive is true, and the rest still start', async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const broken = gh.issue(repo, { title: 'Another' });
    const hole = gh.comment(repo, broken.number, 'maintainer', investigator());
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: 'No issue.', head: 'chore/x' } });
    gh.droppedNodes.add(`IC_${hole.id}`);
    try {
      const d = await dispatch(repo, { scope: 'repository' });
      expect(d.code).toBe(0);
      expect(d.outputs.inconclusive).toBe('true');
      expect(d.summary).toContain('**Not read**');
      expect(d.stdout).toMatch(new RegExp(`::warning::not read: #${broken.number}: reading #${broken.number} failed`));
      expect(JSON.parse(d.outputs.dispatched)).toEqual([expect.objectContaining({ number: issue.number, stage: 'BUILDER' })]);
      expect(r.dispatches).toHaveLength(1);
      // A PR is no work item of its own here: its issue is.
      expect(d.stdout).not.toContain(`#${pr.number}: next phase`);
    } finally {
      gh.droppedNodes.delete(`IC_${hole.id}`);
    }
  });

  test('the sweep costs one GraphQL request per 100 open issues (PRs listed alongside); an unchanged sweep writes nothing', async () => {
    // INVESTIGATOR maps to no workflow: every item waits, so the only write of the first sweep is the board.
    const { repo, r } = setup('chain:\n  - INVESTIGATOR\n  - { type: BUILDER, workflow: build.yml }\n  - REVIEWER\n');
    for (let i = 0; i < 229; i++) gh.issue(repo, { title: `Item ${i}` });
    for (let i = 0; i < 120; i++) gh.issue(repo, { user: 'maintainer', pull: { body: 'Tidy.', head: `chore/${i}` } });
    const from = gh.requests.length;
    const first = await dispatch(repo, { scope: 'repository' });
    expect(first.code).toBe(0);
    expect(gh.operations(from)).toEqual(['ForgeSweep', 'ForgeSweep', 'ForgeSweep']);
    const writes = gh.requests.slice(from).filter((q) => q.method !== 'GET' && q.path !== '/graphql');
    expect(writes.map((q) => `${q.method} ${q.path}`)).toEqual([`POST /repos/${repo}/issues`]);
    const board = [...r.issues.values()].find((i) => i.title === 'FORGE pipeline board');
    expect(board?.body).toContain('230 open work item(s)');
    expect(board?.body).toContain('### Open PRs that carry no annotation and close no listed issue (120)');
    // The board is an open issue now: still three pages, and no write at all.
    const again = gh.requests.length;
    const second = await dispatch(repo, { scope: 'repository' });
    expect(second.code).toBe(0);
    expect(gh.operations(again)).toEqual(['ForgeSweep', 'ForgeSweep', 'ForgeSweep']);
    expect(gh.requests.slice(again).filter((q) => q.method !== 'GET' && q.path !== '/graphql')).toEqual([]);
  });

  test("GitHub's timeout answer is asked once more with half the page; a second says GitHub's reason and writes nothing", async () => {
    // Only the first issue has a mapped next phase (BUILDER): writes are paced a second apart, so one item acts.
    const { repo, r, issue } = setup('chain:\n  - INVESTIGATOR\n  - { type: BUILDER, workflow: build.yml }\n  - REVIEWER\n');
    gh.comment(repo, issue.number, 'maintainer', investigator());
    for (let i = 0; i < 59; i++) gh.issue(repo, { title: `Item ${i}` });
    const timeout = {
      body: {
        data: null,
        errors: [
          { message: 'Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug.' },
        ],
      },
    };
    gh.fail('POST', /^\/graphql$/, 200, 1, { operation: /query ForgeSweep/, ...timeout });
    const from = gh.requests.length;
    const d = await dispatch(repo, { scope: 'repository', board: 'false' });
    expect(d.code).toBe(0);
    const sweeps = gh.requests.slice(from).filter((q) => q.path === '/graphql');
    expect(sweeps.map((q) => (q.body as { variables: { first: number } }).variables.first)).toEqual([100, 50, 50]);
    expect(r.dispatches).toHaveLength(1);

    gh.fail('POST', /^\/graphql$/, 200, 2, { operation: /query ForgeSweep/, ...timeout });
    const before = gh.writes().length;
    const failed = await dispatch(repo, { scope: 'repository', board: 'false' });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('reading the open issues (50 at a time, after GitHub timed out) failed');
    expect(failed.stdout).toContain('Something went wrong while executing your query. This may be the result of a timeout');
    expect(failed.stdout).not.toMatch(/\n\s+at /);
    expect(gh.writes().length).toBe(before);
  });

  test('scope repository takes no issue-number', async () => {
    const { repo } = setup();
    const d = await dispatch(repo, { scope: 'repository', 'issue-number': '1' });
    expect(d.code).toBe(1);
    expect(d.stdout).toContain('issue-number: only with scope: item');
  });
});

test("every page's dispatcher pipeline file is examples/forge.yml, which trusts the agent the stage workflows write as", async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { parsePipelineFile, resolvePipeline } = await import('../src/common/pipeline.js');
  const { parseTrustPolicy, counts } = await import('../src/common/trust.js');
  const { ROOT } = await import('./support/run-action.js');
  const example = readFileSync(join(ROOT, 'examples', 'forge.yml'), 'utf8');
  const blocks = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => [...readFileSync(join(ROOT, 'docs', f), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => ({ f, yaml: m[1] })))
    .filter((b) => /^# \.github\/forge\.yml/.test(b.yaml) && b.yaml.includes('workflow:'));
  expect(blocks.map((b) => b.f).sort()).toEqual(['run-a-pipeline.md', 'workflows.md']);
  for (const b of blocks) expect([b.f, b.yaml]).toEqual([b.f, example]);
  const p = resolvePipeline(parsePipelineFile(example)).pipeline;
  expect(p.chain.map((s) => [s.type, s.workflow])).toEqual([
    ['INVESTIGATOR', 'investigate.yml'],
    ['BUILDER', 'build.yml'],
    ['REVIEWER', 'review.yml'],
  ]);
  // The stage workflows post as the agents' App: what it writes counts.
  expect(counts('comment', { login: 'forge-agent[bot]', association: 'NONE' }, parseTrustPolicy(p.trustedAuthors))).toBe(true);
});

describe('the pipeline board', () => {
  test('one issue, opened once and edited in place only when its text changes; the doctor finds what is stuck', async () => {
    const { repo, r, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const building = gh.issue(repo, { title: 'Half built', labels: ['workflow:building'] });
    const review = gh.issue(repo, { title: 'Waiting for review', labels: ['workflow:in-review'] });
    gh.comment(repo, review.number, 'maintainer', investigator());
    gh.comment(repo, review.number, 'maintainer', builder());
    const stray = gh.issue(repo, { user: 'maintainer', pull: { body: 'A tidy-up.', head: 'chore/tidy' } });
    const first = await dispatch(repo, { scope: 'repository' });
    expect(first.code).toBe(0);
    const boards = [...r.issues.values()].filter((i) => i.title === 'FORGE pipeline board');
    expect(boards).toHaveLength(1);
    const board = boards[0];
    expect(first.outputs['board-url']).toBe(`https://github.example/${repo}/issues/${board.number}`);
    const body = board.body ?? '';
    expect(body.startsWith('<!-- forge:board -->\n# FORGE pipeline board')).toBe(true);
    expect(body).toContain(`| [#${issue.number}](`);
    expect(body).toContain('```mermaid\nflowchart LR');
    expect(body).toMatch(/INVESTIGATOR\["INVESTIGATOR \(\d+\)"\] --> BUILDER\["BUILDER \(\d+\)"\]/);
    const link = (n: number) => `[#${n}](https://github.example/${repo}/issues/${n})`;
    expect(body).toContain(`### Building without a BUILDER (1)\n\n- ${link(building.number)} (workflow:building)`);
    expect(body).toContain(`### In review without an open PR (1)\n\n- ${link(review.number)} (workflow:in-review)`);
    expect(body).toContain(`### Open PRs that carry no annotation and close no listed issue (1)\n\n- #${stray.number}`);
    // Why each waits, in a word: the one just started reads as the next sweep reads it (running), and the label that
    // says more than the chain.
    expect(body).toContain('| item | state | next phase | waits | last stage written | why |');
    expect(body).toMatch(new RegExp(`\\| \\[#${issue.number}\\]\\([^)]+\\) Checkout fails \\| none \\| BUILDER \\| running \\|`));
    expect(body).toContain(
      `### Label contradicting the chain (1)\n\n- ${link(building.number)} (workflow:building without a complete INVESTIGATOR)`,
    );
    // The same board in the job summary, and as data in board-file.
    expect(first.summary).toContain('### FORGE pipeline board');
    const data = JSON.parse(readFileSync(first.outputs['board-file'], 'utf8'));
    expect(data.items.map((i: { number: number; waits: string }) => [i.number, i.waits])).toEqual(
      expect.arrayContaining([
        [issue.number, 'running'],
        [building.number, 'running'],
      ]),
    );
    // The board is no work item: nothing is claimed or started for it.
    expect(r.dispatches.map((d) => d.inputs['issue-number'])).not.toContain(String(board.number));
    expect(claims(repo, board.number)).toHaveLength(0);

    // The next sweep sees the stages running, as the board already said: it changes nothing and writes nothing.
    const writes = gh.writes().length;
    const third = await dispatch(repo, { scope: 'repository' });
    expect(third.stdout).toContain(`board: #${board.number} is current`);
    expect([...r.issues.values()].filter((i) => i.title === 'FORGE pipeline board')).toHaveLength(1);
    expect(third.outputs['board-url']).toBe(first.outputs['board-url']);
    expect(gh.writes().length).toBe(writes);
  });

  test("a stranger's issue titled like the board is a work item, not the board; board: false writes none", async () => {
    const { repo, r } = setup();
    gh.issue(repo, { user: 'drive-by', title: 'FORGE pipeline board', body: '<!-- forge:board -->\nfake' });
    const d = await dispatch(repo, { scope: 'repository', board: 'false' });
    expect(d.outputs['board-url']).toBe('');
    expect([...r.issues.values()].filter((i) => i.title === 'FORGE pipeline board')).toHaveLength(1);
    await dispatch(repo, { scope: 'repository' });
    expect([...r.issues.values()].filter((i) => i.title === 'FORGE pipeline board')).toHaveLength(2);
  });
});
