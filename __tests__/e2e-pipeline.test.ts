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
