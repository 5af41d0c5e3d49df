/**
 * One pipeline, from the bundles: the gate, the reader and the writer decide
 * by one route (src/decision/next-phase.ts) on the same threads — the gate
 * never passes what the route closes, hands to a person or sends back to the
 * build; the issue and its PR route alike; a stage runs again with a new
 * annotation and the same run writes it once whatever token; a stage written
 * against a changed upstream is stale — and docs/workflows.md's three-stage
 * pipeline runs as written until next-phase is none.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { emit, parse } from '../src/codec/index.js';
import type { FakeGitHub } from './support/github-server.js';
import { ROOT, runBundle, runComposite, runEnv } from './support/run-action.js';
import { builder, critique, investigator, reviewer, userFeedback } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
  gh.token('ghs_agent', 'forge-agent[bot]', 'app');
});

const AGENT_FILE = 'trusted-authors: [OWNER, MEMBER, COLLABORATOR, "github-actions[bot]", "forge-agent[bot]"]\n';

let n = 0;
function setup(file: string | null = AGENT_FILE) {
  const repo = `octo/one${++n}`;
  gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'forge-agent[bot]': 'NONE', 'drive-by': 'NONE' });
  if (file !== null) gh.repo(repo).files.set('.github/forge.yml', file);
  const issue = gh.issue(repo, { title: 'Checkout fails', body: 'Checkout raises on a null profile.' });
  return { repo, issue };
}

const run = runEnv;

const contextStep = (repo: string, number: number, inputs: Record<string, string> = {}, workspace?: string) =>
  runBundle('forge-context', {
    apiUrl: gh.url,
    repository: repo,
    workspace,
    inputs: { 'github-token': 'ghs_actions', 'issue-number': String(number), ...inputs },
  });

const emitStep = (repo: string, inputs: Record<string, string>, env: Record<string, string> = {}, workspace?: string) =>
  runBundle('forge-emit', { apiUrl: gh.url, repository: repo, workspace, env, inputs: { 'github-token': 'ghs_agent', ...inputs } });

const gateOnPull = (repo: string, pr: number) =>
  runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', 'fail-on-violation': 'false' },
    event: { name: 'pull_request_target', payload: { number: pr, pull_request: { number: pr } } },
  });

const BUILDER_FIELDS = 'Branch: fix/x\nCommits: a1b2c3d\nFiles changed: 2\n';

describe('the gate never passes what the route holds', () => {
  test('a GATE_FAILED newer than the BUILDER: the reader says needs-human, and the gate fails naming it', async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'forge-agent[bot]', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'APPROVED', Commit: pr.pull?.sha ?? '' } }));
    expect((await gateOnPull(repo, pr.number)).outputs.conforming).toBe('true');
    gh.comment(repo, issue.number, 'github-actions[bot]', emit('GATE_FAILED', { fields: { Gate: 'tests', Reason: 'CI red' } }));
    const reader = await contextStep(repo, pr.number);
    expect(reader.outputs['next-phase']).toBe('needs-human');
    const gate = await gateOnPull(repo, pr.number);
    expect(gate.outputs.conforming).toBe('false');
    expect(gate.stdout).toContain('the pipeline routes this work item to needs-human — GATE_FAILED');
    // From the issue, the same answer.
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('needs-human');
  });

  test('an INVALID investigation then a BUILDER: the reader says close, and the gate fails', async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator('INVALID'));
    gh.comment(repo, issue.number, 'forge-agent[bot]', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'APPROVED', Commit: pr.pull?.sha ?? '' } }));
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('close');
    expect((await contextStep(repo, pr.number)).outputs['next-phase']).toBe('close');
    expect((await gateOnPull(repo, pr.number)).outputs.conforming).toBe('false');
  });

  test("after the PR's REVIEWER approves, the issue and the PR both say none, and the gate passes", async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'forge-agent[bot]', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('REVIEWER');
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'APPROVED', Commit: pr.pull?.sha ?? '' } }));
    const onIssue = await contextStep(repo, issue.number);
    const onPull = await contextStep(repo, pr.number);
    expect(onIssue.outputs['next-phase']).toBe('none');
    expect(onPull.outputs['next-phase']).toBe('none');
    expect(onIssue.outputs.digest).toBe(onPull.outputs.digest);
    expect((await gateOnPull(repo, pr.number)).outputs.conforming).toBe('true');
  });

  test("a stranger's PR that closes the issue by keyword is named, not read", async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'forge-agent[bot]', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'drive-by', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', reviewer('APPROVED'));
    const r = await contextStep(repo, issue.number);
    expect(r.outputs['next-phase']).toBe('REVIEWER');
    expect(r.stdout).toContain(`PR #${pr.number} by drive-by, who is not in trusted-authors, closes it by keyword: not read`);
  });
});

describe('stages that run again', () => {
  test('a re-run of the same run and attempt is a no-op with an App token the default trust does not name', async () => {
    const { repo, issue } = setup(null);
    const inputs = { 'issue-number': String(issue.number), type: 'BUILDER', fields: BUILDER_FIELDS };
    const first = await emitStep(repo, inputs, run('777'));
    expect(first.outputs.result).toBe('created');
    const writes = gh.writes().length;
    const again = await emitStep(repo, inputs, run('777'));
    expect(again.outputs.result).toBe('skipped');
    expect(again.stdout).toContain('skip: this run 777 attempt 1 already wrote this BUILDER');
    expect(gh.writes().length).toBe(writes);
    const comments = gh.commentsOn(repo, issue.number);
    expect(comments).toHaveLength(1);
    expect(parse(comments[0].body)[0].fields.Run).toBe(`https://github.example/${repo}/actions/runs/777/attempts/1`);
    // Another attempt of the run is another run of the stage: a new annotation.
    expect((await emitStep(repo, inputs, run('777', '2'))).outputs.result).toBe('created');
    expect(gh.commentsOn(repo, issue.number)).toHaveLength(2);
  });

  test("someone else's comment carrying this run's Run field does not make the run a no-op", async () => {
    const { repo, issue } = setup();
    const forged = emit('BUILDER', {
      fields: {
        Branch: 'fix/x',
        Commits: 'a1b2c3d',
        'Files changed': '2',
        Run: `https://github.example/${repo}/actions/runs/888/attempts/1`,
      },
    });
    gh.comment(repo, issue.number, 'maintainer', forged);
    const r = await emitStep(repo, { 'issue-number': String(issue.number), type: 'BUILDER', fields: BUILDER_FIELDS }, run('888'));
    expect(r.outputs.result).toBe('created');
  });

  test('a BUILDER after changes were requested is a new annotation, and the REVIEWER runs next', async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    const inputs = { 'issue-number': String(issue.number), type: 'BUILDER', fields: BUILDER_FIELDS };
    expect((await emitStep(repo, inputs, run('1'))).outputs.result).toBe('created');
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'CHANGES_REQUESTED', Commit: pr.pull?.sha ?? '' } }));
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('BUILDER');
    const rebuilt = await emitStep(repo, inputs, run('2'));
    expect(rebuilt.outputs.result).toBe('created');
    expect(rebuilt.stdout).toContain('create a comment on');
    expect(gh.commentsOn(repo, issue.number).filter((c) => c.body.includes('FORGE:BUILDER -->'))).toHaveLength(2);
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('REVIEWER');
    expect((await contextStep(repo, pr.number)).outputs['next-phase']).toBe('REVIEWER');
  });

  test('a partial this run wrote is completed in place', async () => {
    const { repo, issue } = setup();
    const base = { 'issue-number': String(issue.number), type: 'BUILDER', fields: BUILDER_FIELDS };
    expect((await emitStep(repo, { ...base, status: 'partial' }, run('5'))).outputs.result).toBe('created');
    const done = await emitStep(repo, base, run('5'));
    expect(done.outputs.result).toBe('updated');
    expect(gh.commentsOn(repo, issue.number)).toHaveLength(1);
  });
});

describe('a stage written against an upstream that changed since is stale', () => {
  test('the INVESTIGATOR is revised after the BUILDER read it: the BUILDER runs again, the gate fails naming it', async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    const ctx = await contextStep(repo, issue.number, { stage: 'BUILDER' });
    expect(ctx.outputs['next-phase']).toBe('BUILDER');
    const digest = ctx.outputs.digest;
    await emitStep(
      repo,
      { 'issue-number': String(issue.number), type: 'BUILDER', fields: BUILDER_FIELDS, 'context-digest': digest },
      run('9'),
    );
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'APPROVED', Commit: pr.pull?.sha ?? '' } }));
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('none');
    expect((await gateOnPull(repo, pr.number)).outputs.conforming).toBe('true');

    // The investigation is revised: what the BUILDER read is no longer there.
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator().replace('The lookup does not guard null.', 'The cache is stale.'));
    const after = await contextStep(repo, issue.number);
    expect(after.outputs['next-phase']).toBe('BUILDER');
    expect(
      JSON.parse(after.outputs.stages).some((s: { type: string; status: string }) => s.type === 'BUILDER' && s.status === 'stale'),
    ).toBe(true);
    const gate = await gateOnPull(repo, pr.number);
    expect(gate.outputs.conforming).toBe('false');
    expect(gate.stdout).toContain('BUILDER is stale');

    // `stale: ignore` in the file: the route and the gate leave it.
    gh.repo(repo).files.set('.github/forge.yml', `${AGENT_FILE}stale: ignore\n`);
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('none');
    expect((await gateOnPull(repo, pr.number)).outputs.conforming).toBe('true');
  });

  test('a knowledge gist revised after the BUILDER read it: the digest and the reader say so; the route and the gate, which read no gists, do not move', async () => {
    const { repo, issue } = setup();
    const gist = gh.gist('forge-agent[bot]', { files: { 'findings.md': { content: 'The profile is null for free tiers.' } } });
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'forge-agent[bot]', emit('KNOWLEDGE_GIST', { value: `https://gist.github.example/${gist.id}` }));
    const ctx = await contextStep(repo, issue.number, { stage: 'BUILDER' });
    expect(ctx.stdout).not.toContain('::warning::');
    const digest = ctx.outputs.digest;
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}\+gists:[0-9a-f]{64}$/);
    const [annotations, gists] = digest.split('+gists:');
    // Without the gists read, the digest is the annotations' part alone: what the gate can compute.
    const blind = await contextStep(repo, issue.number, { stage: 'BUILDER', 'read-gists': 'false' });
    expect(blind.outputs.digest).toBe(annotations);

    const written = await emitStep(
      repo,
      { 'issue-number': String(issue.number), type: 'BUILDER', fields: BUILDER_FIELDS, 'context-digest': digest },
      run('11'),
    );
    expect(written.outputs.annotation).toContain(`**Context digest**: ${digest}`);
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'APPROVED', Commit: pr.pull?.sha ?? '' } }));
    const builderOf = (stages: string) =>
      (JSON.parse(stages) as Array<{ type: string; status: string; gists?: string }>).find((s) => s.type === 'BUILDER');
    expect((await contextStep(repo, issue.number, { stage: 'BUILDER' })).outputs.digest).toBe(digest);
    // The reviewer's reader reads the BUILDER: it compares what the BUILDER recorded with the gists quoted now.
    const same = await contextStep(repo, issue.number, { stage: 'REVIEWER' });
    expect(builderOf(same.outputs.stages)).toMatchObject({ status: 'included', gists: 'same' });
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('none');
    expect((await gateOnPull(repo, pr.number)).outputs.conforming).toBe('true');

    // The gist is revised in place: no annotation moves, but what the BUILDER read is no longer what it holds.
    gist.files['findings.md'].content = 'The cache is stale, not the profile.';
    const [afterAnnotations, afterGists] = (await contextStep(repo, issue.number, { stage: 'BUILDER' })).outputs.digest.split('+gists:');
    expect(afterAnnotations).toBe(annotations);
    expect(afterGists).toMatch(/^[0-9a-f]{64}$/);
    expect(afterGists).not.toBe(gists);
    const after = await contextStep(repo, issue.number, { stage: 'REVIEWER' });
    expect(builderOf(after.outputs.stages)).toMatchObject({ status: 'included', gists: 'changed' });
    const warnings = after.stdout.split('\n').filter((l) => l.startsWith('::warning::'));
    expect(warnings).toEqual([expect.stringContaining('was written against other gist files than the ones quoted now')]);
    expect(readFileSync(after.outputs['context-file'], 'utf8')).toContain('Gists changed: BUILDER');
    // One decision: the reader's route is the gate's, and neither reads the gist.
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('none');
    expect((await gateOnPull(repo, pr.number)).outputs.conforming).toBe('true');
    // A run that could not read the gist cannot tell: "not checked", never "same".
    const unread = await contextStep(repo, issue.number, { stage: 'REVIEWER', 'read-gists': 'false' });
    expect(builderOf(unread.outputs.stages)).toMatchObject({ gists: 'not checked' });
    expect(unread.stdout).not.toContain('other gist files');

    // forge-emit takes the two-part form and nothing else of its shape.
    const malformed = await emitStep(repo, {
      'issue-number': String(issue.number),
      type: 'BUILDER',
      fields: BUILDER_FIELDS,
      'context-digest': `${annotations}+gists:${'0'.repeat(63)}`,
    });
    expect(malformed.stdout).toContain('input "context-digest" must be');
  });
});

describe('chains as the spec writes them', () => {
  test("a custom stage's own verdict blocks when the file names it: a scan's Result: fail sends the work back to the builder", async () => {
    const { repo, issue } = setup(
      `${AGENT_FILE}chain:\n  - INVESTIGATOR\n  - BUILDER\n  - type: ACME_SCAN\n    blocks: [{ field: Result, values: [fail] }]\n`,
    );
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'forge-agent[bot]', builder('fix/x'));
    gh.comment(repo, issue.number, 'forge-agent[bot]', emit('ACME_SCAN', { fields: { Result: 'fail' } }));
    const r = await contextStep(repo, issue.number);
    expect(r.outputs['next-phase']).toBe('BUILDER');
    expect(r.outputs['next-reason']).toContain('ACME_SCAN says Result: FAIL');
  });

  test("docs/pipeline.md's blocks example is a pipeline file the route reads so", async () => {
    const page = readFileSync(join(ROOT, 'docs', 'pipeline.md'), 'utf8');
    const block = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((y) => y.startsWith('chain:'));
    expect(block).toBeDefined();
    const { repo, issue } = setup(`${AGENT_FILE}${block}`);
    gh.comment(repo, issue.number, 'forge-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'forge-agent[bot]', builder('fix/x'));
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('ACME_SCAN');
    gh.comment(repo, issue.number, 'forge-agent[bot]', emit('ACME_SCAN', { fields: { Result: 'fail' } }));
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('BUILDER');
  });

  test('§4.4: ITERATE → CRITIQUE again, BUDGET-EXHAUSTED → needs-human, Satisfied: no → generation, DESIGN_SHIPPED → none', async () => {
    const chain = 'chain: [DESIGN_CONTEXT, DESIGN_RATIONALE, DESIGN_SPEC, CRITIQUE, USER_FEEDBACK, DESIGN_SHIPPED]\n';
    const { repo, issue } = setup(`${AGENT_FILE}${chain}`);
    const feedback = userFeedback;
    const next = async () => (await contextStep(repo, issue.number)).outputs['next-phase'];
    gh.comment(repo, issue.number, 'forge-agent[bot]', critique('ITERATE'));
    expect(await next()).toBe('CRITIQUE');
    gh.comment(repo, issue.number, 'forge-agent[bot]', critique('BUDGET-EXHAUSTED'));
    expect(await next()).toBe('needs-human');
    gh.comment(repo, issue.number, 'forge-agent[bot]', critique('PASS'));
    gh.comment(repo, issue.number, 'forge-agent[bot]', feedback('no'));
    expect(await next()).toBe('CRITIQUE');
    gh.comment(repo, issue.number, 'forge-agent[bot]', critique('PASS'));
    expect(await next()).toBe('USER_FEEDBACK');
    gh.comment(
      repo,
      issue.number,
      'forge-agent[bot]',
      emit('DESIGN_SHIPPED', { fields: { Archetype: 'editorial', Gates: 'all', 'Critique iterations': '3', 'Written to memory': 'yes' } }),
    );
    expect(await next()).toBe('none');
  });
});

/** The three-stage pipeline of docs/workflows.md, as written there. */
function documentedPipeline(): { steps: Array<{ id?: string; uses?: string; with?: Record<string, string>; if?: string; run?: string }> } {
  const doc = readFileSync(join(ROOT, 'docs', 'workflows.md'), 'utf8');
  const block = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).find((y) => y.startsWith('name: FORGE pipeline'));
  if (!block) throw new Error('docs/workflows.md has no "FORGE pipeline" workflow');
  // One copy: the example file is the page's block, byte for byte.
  expect(readFileSync(join(ROOT, 'examples', 'workflows', 'forge-pipeline.yml'), 'utf8')).toBe(block);
  return YAML.parse(block).jobs.stage;
}

describe("docs/workflows.md's three-stage pipeline runs as written", () => {
  test('each run: forge-context → the agent on the pack → forge-emit as the App → forge-gate, until next-phase is none', async () => {
    const job = documentedPipeline();
    const uses = job.steps.map((s) => s.uses?.replace(/^OWNER\/forge-actions\/actions\/([^@]+)@v1$/, '$1') ?? (s.run ? 'run' : ''));
    expect(uses).toEqual(['actions/checkout@v4', 'actions/create-github-app-token@v1', 'forge-context', 'run', 'forge-emit', 'forge-gate']);
    const withOf = (name: string) => job.steps.find((s) => s.uses?.includes(`/${name}@`))?.with ?? {};
    // The agent is named once: in the pipeline file, and in no step.
    for (const name of ['forge-context', 'forge-emit', 'forge-gate']) expect(Object.keys(withOf(name))).not.toContain('trusted-authors');

    const { repo, issue } = setup(AGENT_FILE);
    const phases: string[] = [];
    let pr: number | null = null;
    for (let round = 1; round <= 6; round++) {
      const workspace = mkdtempSync(join(tmpdir(), 'forge-pipeline-'));
      // forge-context, with the step's inputs (issue-number: the dispatch's input).
      const ctx = await contextStep(repo, issue.number, {}, workspace);
      expect(ctx.code).toBe(0);
      const phase = ctx.outputs['next-phase'];
      phases.push(phase);
      if (!['INVESTIGATOR', 'BUILDER', 'REVIEWER'].includes(phase)) break;
      // The agent reads the pack and writes .forge/fields.yml and .forge/body.md.
      const pack = readFileSync(ctx.outputs['context-file'] ?? '', 'utf8');
      expect(pack).toContain('Checkout raises on a null profile.');
      mkdirSync(join(workspace, '.forge'), { recursive: true });
      let number = issue.number;
      let reviewed = '';
      if (phase === 'INVESTIGATOR')
        writeFileSync(
          join(workspace, '.forge', 'fields.yml'),
          'Verdict: CONFIRMED\nConfidence: HIGH\nSeverity: MEDIUM\nTask Type: Bug Fix\nDecomposition Assessment: NO — one file\n',
        );
      if (phase === 'BUILDER') {
        writeFileSync(join(workspace, '.forge', 'fields.yml'), BUILDER_FIELDS);
        pr = gh.issue(repo, { user: 'forge-agent[bot]', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } }).number;
        gh.repo(repo).sidebar.set(pr, [{ repository: repo, number: issue.number }]);
      }
      if (phase === 'REVIEWER') {
        expect(pack).toContain('FORGE:BUILDER');
        writeFileSync(join(workspace, '.forge', 'fields.yml'), 'Verdict: APPROVED\n');
        number = pr as number;
        reviewed = gh.repo(repo).issues.get(number)?.pull?.sha ?? '';
      }
      writeFileSync(join(workspace, '.forge', 'body.md'), `Work of the ${phase} agent.\n`);
      // forge-emit, with the step's inputs.
      const emitInputs: Record<string, string> = {
        'github-token': 'ghs_agent',
        'issue-number': String(number),
        type: phase,
        'fields-file': '.forge/fields.yml',
        'body-file': '.forge/body.md',
        'context-digest': ctx.outputs.digest,
        'reviewed-commit': reviewed,
      };
      expect(Object.keys(emitInputs).sort()).toEqual(Object.keys(withOf('forge-emit')).sort());
      const written = await emitStep(repo, emitInputs, run(String(100 + round)), workspace);
      expect(written.code).toBe(0);
      expect(written.outputs.result).toBe('created');
      // The same run again (a retried job step): nothing more is written.
      expect((await emitStep(repo, emitInputs, run(String(100 + round)), workspace)).outputs.result).toBe('skipped');
      // forge-gate, with the step's inputs.
      const gateInputs = { 'issue-number': String(number), 'fail-on-violation': 'false' };
      expect(Object.keys(gateInputs).sort()).toEqual(Object.keys(withOf('forge-gate')).sort());
      const gate = await runComposite('forge-gate', {
        apiUrl: gh.url,
        repository: repo,
        githubToken: 'ghs_actions',
        inputs: gateInputs,
        env: run(String(100 + round)),
      });
      expect(gate.code).toBe(0);
    }
    expect(phases).toEqual(['INVESTIGATOR', 'BUILDER', 'REVIEWER', 'none']);
    // The labels the pipeline file's machine names moved with each stage, by forge-emit.
    expect(gh.repo(repo).issues.get(issue.number)?.labels).toContain('workflow:in-review');
    // The PR's gate is green on the head the REVIEWER reviewed.
    expect((await gateOnPull(repo, pr as number)).outputs.conforming).toBe('true');
  });
});

test('examples/workflows/forge-pr-gate.yml as written: a comment on an issue no PR closes is a notice, not a failure', async () => {
  const yml = YAML.parse(readFileSync(join(ROOT, 'examples', 'workflows', 'forge-pr-gate.yml'), 'utf8'));
  const step = yml.jobs.check.steps.find((s: { uses?: string }) => s.uses?.includes('/forge-check@')) as { with: Record<string, unknown> };
  const { repo, issue } = setup();
  const c = gh.comment(repo, issue.number, 'drive-by', 'Me too!');
  const r = await runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', ...Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, String(v)])) },
    event: {
      name: 'issue_comment',
      payload: { action: 'created', issue: { number: issue.number }, comment: { id: c.id, body: 'Me too!' } },
    },
  });
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`::notice::.*no open PR closes #${issue.number}: the PR gate has nothing to gate`));
  expect(r.stdout).not.toContain('::error');
});

test("docs/workflows.md's organisation audit is examples/workflows/forge-org-audit.yml, byte for byte", () => {
  const page = readFileSync(join(ROOT, 'docs', 'workflows.md'), 'utf8');
  const block = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((y) => y.includes('forge-report') && y.includes('matrix'));
  expect(block).toBe(readFileSync(join(ROOT, 'examples', 'workflows', 'forge-org-audit.yml'), 'utf8'));
});
