/**
 * The pipeline file from the bundles: forge-context reads `.github/forge.yml`
 * from the default branch in the same query as the thread (no request of its
 * own), an input overrides it key by key, a bad file is one error line before
 * anything is decided, and `forge pipeline` / `--pipeline` read the same file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emit } from '../src/codec/index.js';
import type { FakeGitHub } from './support/github-server.js';
import { ROOT, runBundle } from './support/run-action.js';
import { builder, investigator } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

let n = 0;
function setup(file?: string) {
  const repo = `octo/pipeline${++n}`;
  gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'my-agent[bot]': 'NONE' });
  if (file !== undefined) gh.repo(repo).files.set('.github/forge.yml', file);
  const issue = gh.issue(repo, { title: 'Checkout fails', body: 'Checkout raises on a null profile.' });
  return { repo, issue };
}

const contextStep = (repo: string, number: number, inputs: Record<string, string> = {}) =>
  runBundle('forge-context', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', 'issue-number': String(number), ...inputs },
  });

const graphqlCalls = (since: number) => gh.requests.slice(since).filter((r) => r.path === '/graphql');

describe('forge-context reads the pipeline file', () => {
  test('no file: the built-in chain (INVESTIGATOR, BUILDER, REVIEWER): after a complete BUILDER, the REVIEWER runs next', async () => {
    const { repo, issue } = setup();
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder());
    const r = await contextStep(repo, issue.number);
    expect(r.code).toBe(0);
    expect(r.outputs['next-phase']).toBe('REVIEWER');
    expect(r.stdout).toContain('pipeline: built-in defaults');
  });

  test("the file's agent is trusted and its chain is followed in the file's order, read in the thread's one query", async () => {
    const { repo, issue } = setup(
      'chain:\n  - INVESTIGATOR\n  - ACME_SCAN\n  - BUILDER\n  - REVIEWER\ntrusted-authors:\n  - OWNER\n  - MEMBER\n  - my-agent[bot]\n',
    );
    gh.comment(repo, issue.number, 'my-agent[bot]', investigator());
    const before = gh.requests.length;
    const r = await contextStep(repo, issue.number);
    expect(r.code).toBe(0);
    // The custom stage runs where the file places it: before BUILDER, not after REVIEWER.
    expect(r.outputs['next-phase']).toBe('ACME_SCAN');
    expect(r.stdout).toContain('pipeline: .github/forge.yml on main');
    expect(graphqlCalls(before)).toHaveLength(1);
    gh.comment(repo, issue.number, 'my-agent[bot]', emit('ACME_SCAN', { fields: { Result: 'pass' }, status: 'complete' }));
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('BUILDER');
  });

  test('an input overrides the file key by key', async () => {
    const { repo, issue } = setup('trusted-authors: OWNER, MEMBER, my-agent[bot]\n');
    gh.comment(repo, issue.number, 'my-agent[bot]', investigator());
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('BUILDER');
    // trusted-authors given: the file's agent is no longer trusted, so its INVESTIGATOR does not count.
    expect((await contextStep(repo, issue.number, { 'trusted-authors': 'OWNER, MEMBER' })).outputs['next-phase']).toBe('INVESTIGATOR');
    // chain given: the input's chain, whatever the file says.
    expect((await contextStep(repo, issue.number, { chain: 'minimal' })).outputs['next-phase']).toBe('BUILDER');
  });

  test('a bad file is one error naming the file, the line and the key; no pack is written', async () => {
    const { repo, issue } = setup('chain:\n  - INVESTIGATOR\nstal-after: 2h\n');
    const r = await contextStep(repo, issue.number);
    expect(r.code).toBe(1);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('.github/forge.yml:3: stal-after: unknown key');
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
    expect(r.outputs['next-phase']).toBeUndefined();
  });
});

describe('the CLI reads the same file', () => {
  const cli = (args: string[], cwd: string) =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), ...args], { cwd, encoding: 'utf8' });

  test('forge pipeline prints the effective pipeline and where each value came from', () => {
    const dir = mkdtempSync(join(tmpdir(), 'forge-pipeline-'));
    const none = cli(['pipeline'], dir);
    expect(none.status).toBe(0);
    expect(none.stdout).toContain('no pipeline file: built-in defaults');
    expect(none.stdout).toContain('  - type: REVIEWER\n    on: pull');
    mkdirSync(join(dir, '.github'));
    writeFileSync(join(dir, '.github', 'forge.yml'), 'stall-after: 2d\n');
    const found = cli(['pipeline'], dir);
    expect(found.stdout).toContain('# effective FORGE pipeline (.github/forge.yml)');
    expect(found.stdout).toContain('stall-after: 2d # file');
    expect(found.stdout).toContain('trusted-authors: "OWNER, MEMBER, COLLABORATOR, github-actions[bot]" # default');
    writeFileSync(join(dir, 'bad.yml'), 'attempts: many\n');
    const bad = cli(['pipeline', 'bad.yml'], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('forge: bad.yml:1: attempts: must be a whole number of at least 1, got "many"\n');
  });

  test('forge check and forge context take --pipeline: its trusted agent and its chain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'forge-pipeline-'));
    const thread = {
      number: 7,
      title: 't',
      body: '',
      author_association: 'OWNER',
      user: { login: 'octo-owner' },
      comments: [
        { id: 1, body: investigator(), user: { login: 'my-agent[bot]' }, author_association: 'NONE', created_at: '2026-01-01T00:00:00Z' },
        { id: 2, body: builder(), user: { login: 'my-agent[bot]' }, author_association: 'NONE', created_at: '2026-01-01T01:00:00Z' },
      ],
    };
    writeFileSync(join(dir, 'thread.json'), JSON.stringify(thread));
    writeFileSync(join(dir, 'p.yml'), 'trusted-authors: [OWNER, "my-agent[bot]"]\n');
    expect(cli(['check', 'thread.json'], dir).status).toBe(1);
    expect(cli(['check', 'thread.json', '--pipeline', 'p.yml'], dir).status).toBe(0);
    const ctx = cli(['context', 'thread.json', '--pipeline', 'p.yml', '--json'], dir);
    expect(JSON.parse(ctx.stdout).nextPhase).toBe('REVIEWER');
    expect(cli(['validate', 'thread.json', '--pipeline', 'missing.yml'], dir).stderr).toContain('cannot read missing.yml');
  });
});

describe('the docs say what the code does', () => {
  test("the README's pipeline file is the built-in defaults; docs/pipeline.md lists every key and its diagram parses", async () => {
    const { readFileSync } = await import('node:fs');
    const { parsePipelineFile, resolvePipeline, DEFAULT_PIPELINE, KEYS } = await import('../src/common/pipeline.js');
    const { mermaidBlocks, parseMermaid } = await import('./support/mermaid.js');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /```yaml\n(# \.github\/forge\.yml\n[\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    expect(resolvePipeline(parsePipelineFile(block?.[1] ?? '')).pipeline).toEqual(DEFAULT_PIPELINE);
    const page = readFileSync(join(ROOT, 'docs', 'pipeline.md'), 'utf8');
    for (const k of KEYS) expect(page).toContain(`| \`${k.key === 'board' ? 'board.title' : k.key}\` |`);
    const diagrams = mermaidBlocks(page);
    expect(diagrams).toHaveLength(1);
    expect(parseMermaid(diagrams)).toEqual([{ ok: true, type: 'stateDiagram' }]);
  });
});

describe('the gate reads the pipeline file', () => {
  const gate = (repo: string, pr: number, inputs: Record<string, string> = {}) =>
    runBundle('forge-check', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', 'fail-on-violation': 'false', status: 'true', ...inputs },
      event: { name: 'pull_request_target', payload: { number: pr, pull_request: { number: pr } } },
      env: { GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '4242' },
    });

  function agentPipeline(file?: string) {
    const { repo, issue } = setup(file);
    gh.comment(repo, issue.number, 'my-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'my-agent[bot]', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
    gh.comment(repo, pr.number, 'maintainer', emit('REVIEWER', { fields: { Verdict: 'APPROVED', Commit: pr.pull?.sha ?? '' } }));
    return { repo, issue, pr };
  }

  test('the agent named once in the file is trusted by the gate and by the reader alike; the file costs the gate no request', async () => {
    const { repo, issue, pr } = agentPipeline('trusted-authors: [OWNER, MEMBER, "my-agent[bot]"]\n');
    const before = gh.requests.length;
    const r = await gate(repo, pr.number);
    expect(r.outputs).toMatchObject({ conforming: 'true', missing: '' });
    expect(r.stdout).toContain('pipeline: .github/forge.yml on main');
    // The PR's first evaluation: the snapshot (with the file), the status; no request for the file alone.
    expect(gh.requests.slice(before).some((q) => q.path.includes('/contents/'))).toBe(false);
    expect(gh.operations(before)).toEqual(['ForgeGate']);
    // The issue's reader reads the open PR that closes it: the PR's approval is the issue's too.
    const reader = await contextStep(repo, issue.number);
    expect(reader.outputs['next-phase']).toBe('none');
    expect((await contextStep(repo, pr.number)).outputs['next-phase']).toBe('none');
  });

  test('with no file the built-in set holds: the agent is not trusted, and the gate and the reader agree', async () => {
    const { repo, issue, pr } = agentPipeline();
    const r = await gate(repo, pr.number);
    expect(r.outputs.conforming).toBe('false');
    expect(r.outputs.missing).toBe('INVESTIGATOR,BUILDER');
    expect(r.stdout).toContain('pipeline: built-in defaults');
    expect((await contextStep(repo, issue.number)).outputs['next-phase']).toBe('INVESTIGATOR');
  });

  test("a PR is held to the file's whole chain; an input overrides the file key by key", async () => {
    const { repo, pr } = agentPipeline(
      'chain: [INVESTIGATOR, ACME_SCAN, BUILDER, REVIEWER]\ntrusted-authors: [OWNER, MEMBER, "my-agent[bot]"]\n',
    );
    const r = await gate(repo, pr.number);
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'ACME_SCAN' });
    expect((await gate(repo, pr.number, { required: 'INVESTIGATOR, BUILDER, REVIEWER' })).outputs.conforming).toBe('true');
    expect((await gate(repo, pr.number, { 'trusted-authors': 'OWNER, MEMBER', required: 'INVESTIGATOR' })).outputs.missing).toBe(
      'INVESTIGATOR',
    );
  });

  test("the file's exemptions apply; the default exempts Dependabot", async () => {
    const { repo } = setup('exempt-labels: [docs-only]\n');
    const labelled = gh.issue(repo, { user: 'maintainer', labels: ['docs-only'], pull: { body: 'Docs.', head: 'docs/x' } });
    expect((await gate(repo, labelled.number)).outputs.conforming).toBe('true');
    const { repo: plain } = setup();
    gh.user('dependabot[bot]', 'Bot');
    const bump = gh.issue(plain, { user: 'dependabot[bot]', pull: { body: 'Bump x.', head: 'dependabot/x' } });
    const r = await gate(plain, bump.number);
    expect(r.outputs.conforming).toBe('true');
    expect(r.summary).toContain('exempt');
  });

  test('an issue event reads the file in the query for the PRs that close it (trust decides which are re-gated): no request of its own', async () => {
    const { repo, issue, pr } = agentPipeline('trusted-authors: [OWNER, MEMBER, "my-agent[bot]"]\n');
    const before = gh.requests.length;
    const r = await runBundle('forge-check', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', 'fail-on-violation': 'false' },
      event: { name: 'issue_comment', payload: { action: 'created', issue: { number: issue.number }, comment: { body: 'FORGE:' } } },
    });
    expect(r.outputs.conforming).toBe('true');
    // The PR was re-gated through the issue: its REVIEWER counted, the agent's INVESTIGATOR and BUILDER too.
    expect(r.outputs.report).toContain(`/pull/${pr.number}#issuecomment-`);
    expect(r.stdout).toContain('pipeline: .github/forge.yml on main');
    expect(gh.requests.slice(before).filter((q) => q.path.includes('/contents/'))).toHaveLength(0);
    expect(gh.operations(before)[0]).toBe('IssuePulls');
  });

  test('a bad file fails the gate in one line naming the file, line and key; no status is written', async () => {
    const { repo, pr } = agentPipeline('trusted-authors: OWNER\nexempt-label: [x]\n');
    const writes = gh.writes().length;
    const r = await gate(repo, pr.number);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
      expect.stringContaining('.github/forge.yml:2: exempt-label: unknown key'),
    ]);
    expect(gh.writes().length).toBe(writes);
  });

  test("the repository audit holds issues to the issue's stages of the file's chain", async () => {
    const { repo, issue } = setup('chain: [INVESTIGATOR, BUILDER, REVIEWER]\ntrusted-authors: [OWNER, MEMBER, "my-agent[bot]"]\n');
    gh.comment(repo, issue.number, 'my-agent[bot]', investigator());
    gh.comment(repo, issue.number, 'my-agent[bot]', builder());
    const r = await runBundle('forge-check', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', scope: 'repository', 'fail-on-violation': 'false' },
    });
    expect(r.code).toBe(0);
    expect(r.outputs.conforming).toBe('true');
  });
});

describe('forge-emit reads the pipeline file', () => {
  const emitStep = (repo: string, number: number, inputs: Record<string, string>) =>
    runBundle('forge-emit', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', 'issue-number': String(number), ...inputs },
    });
  const BUILDER_FIELDS = 'Branch: fix/x\nCommits: a1b2c3d\nFiles changed: 2';

  test('a complete stage moves the label the pipeline names for its completion; a partial one moves none', async () => {
    const { repo, issue } = setup();
    gh.repo(repo).issues.get(issue.number)?.labels.push('workflow:building');
    const partial = await emitStep(repo, issue.number, { type: 'BUILDER', fields: BUILDER_FIELDS, status: 'partial' });
    expect(partial.code).toBe(0);
    expect(partial.outputs.label).toBe('');
    expect(gh.repo(repo).issues.get(issue.number)?.labels).toEqual(['workflow:building']);
    const done = await emitStep(repo, issue.number, { type: 'BUILDER', fields: BUILDER_FIELDS });
    expect(done.code).toBe(0);
    expect(done.outputs.label).toBe('workflow:in-review');
    expect(gh.repo(repo).issues.get(issue.number)?.labels).toEqual(['workflow:in-review']);
    expect(done.stdout).toContain('pipeline: built-in defaults');
  });

  test("the file's labels win; a move the state machine refuses leaves the label and keeps the annotation", async () => {
    const { repo, issue } = setup('chain:\n  - type: INVESTIGATOR\n    completes: workflow:building\n  - BUILDER\n  - REVIEWER\n');
    gh.repo(repo).issues.get(issue.number)?.labels.push('workflow:investigating');
    const r = await emitStep(repo, issue.number, {
      type: 'INVESTIGATOR',
      fields: 'Verdict: CONFIRMED\nConfidence: HIGH\nSeverity: LOW\nTask Type: Bug Fix\nDecomposition Assessment: NO — one fix',
    });
    expect(r.code).toBe(0);
    expect(r.outputs.result).toBe('created');
    expect(r.outputs.label).toBe('');
    expect(r.stdout).toContain('the pipeline moves a complete INVESTIGATOR to workflow:building, but');
    expect(gh.repo(repo).issues.get(issue.number)?.labels).toEqual(['workflow:investigating']);
  });

  test('a stage is not written past a terminal state; what belongs after it still is', async () => {
    const { repo, issue } = setup();
    gh.repo(repo).issues.get(issue.number)?.labels.push('workflow:merged');
    const writes = gh.writes().length;
    const refused = await emitStep(repo, issue.number, { type: 'BUILDER', fields: BUILDER_FIELDS });
    expect(refused.code).toBe(1);
    expect(refused.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
      expect.stringContaining(`#${issue.number} is labelled workflow:merged, a terminal state: a BUILDER stage is not written past it`),
    ]);
    expect(gh.writes().length).toBe(writes);
    const marker = await emitStep(repo, issue.number, { type: 'GATE_FAILED' });
    expect(marker.code).toBe(0);
    expect(marker.outputs.result).toBe('created');
  });

  test('the agent named once in the file is trusted by forge-emit: with if-exists: skip, its own complete annotation stands', async () => {
    const { repo, issue } = setup('trusted-authors: [OWNER, MEMBER, "my-agent[bot]"]\n');
    gh.comment(repo, issue.number, 'my-agent[bot]', builder());
    const r = await emitStep(repo, issue.number, {
      type: 'BUILDER',
      fields: BUILDER_FIELDS,
      label: 'workflow:in-review',
      'if-exists': 'skip',
    });
    expect(r.code).toBe(0);
    expect(r.outputs.result).toBe('skipped');
    expect(gh.commentsOn(repo, issue.number)).toHaveLength(1);
    // Without the file the agent is a stranger: a second BUILDER is written.
    const { repo: plain, issue: other } = setup();
    gh.comment(plain, other.number, 'my-agent[bot]', builder());
    expect(
      (await emitStep(plain, other.number, { type: 'BUILDER', fields: BUILDER_FIELDS, label: 'workflow:in-review', 'if-exists': 'skip' }))
        .outputs.result,
    ).toBe('created');
  });
});
