/**
 * The workflows users copy and the repository's own: each passes actionlint and
 * GitHub's workflow parser, every `with:` key names an input of the action it
 * uses, and no composite action puts an expression inside a `run:` script.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import YAML from 'yaml';

const ROOT = join(new URL('.', import.meta.url).pathname, '..');
const files = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.yml'))
    .map((f) => join(dir, f));
/** The pages users copy workflows from. */
const COPIED_FROM = ['README.md', 'docs/workflows.md'];

/**
 * The complete workflows of the README and docs/workflows.md (a fenced yaml
 * block with both `on:` and `jobs:`), written out to be checked like the
 * files: what users paste must lint.
 */
function readmeWorkflows(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'forge-readme-'));
  const blocks = COPIED_FROM.flatMap((page) =>
    [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]),
  );
  return blocks
    .map((b) => (/^on:/m.test(b) && /^jobs:/m.test(b) ? b : asWorkflow(b)))
    .filter((b): b is string => b !== null)
    .map((b, i) => {
      const path = join(dir, `readme-${i + 1}.yml`);
      writeFileSync(path, b);
      return path;
    });
}

/**
 * A step-only snippet (a list of steps, as the README shows how to read an
 * output or end an agent's job) wrapped into a job, so it is linted as it will
 * run once pasted; null for a block that is no list of steps.
 */
function asWorkflow(block: string): string | null {
  const lines = block.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length);
  const cut = Math.min(...indents);
  const body = lines.map((l) => l.slice(Math.min(cut, l.length - l.trimStart().length)));
  if (!body.find((l) => l.trim() !== '')?.startsWith('- ')) return null;
  const steps = body.map((l) => (l.trim() === '' ? '' : `      ${l}`)).join('\n');
  return `name: README snippet\non:\n  workflow_dispatch:\n    inputs:\n      issue:\n        description: 'an issue'\npermissions: {}\njobs:\n  snippet:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n`;
}

const README_WORKFLOWS = readmeWorkflows();
const WORKFLOWS = [...files('.github/workflows'), ...files('examples/workflows'), ...README_WORKFLOWS];

/** The action folder a `uses:` names, when it is one of ours. */
function ourAction(uses: string): string | null {
  const m = /^(?:OWNER\/forge-actions\/|\.\/)actions\/([a-z0-9-]+)(?:@.+)?$/.exec(uses);
  return m ? m[1] : null;
}

/** actionlint's findings for these files (run in a child process: its loader needs CommonJS). */
function actionlint(paths: string[]): Array<{ path: string; line: number; kind: string; message: string }> {
  return JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'actionlint.cjs'), ...paths], { cwd: ROOT, encoding: 'utf8' }));
}

const LINTED = actionlint(WORKFLOWS);

const inputsOf = (name: string): string[] =>
  Object.keys(YAML.parse(readFileSync(join(ROOT, 'actions', name, 'action.yml'), 'utf8')).inputs ?? {});

test("there are workflows to check, the README's complete gate and its step-only snippets among them", () => {
  expect(WORKFLOWS.length).toBeGreaterThanOrEqual(6);
  expect(README_WORKFLOWS.filter((f) => readFileSync(f, 'utf8').startsWith('name: README snippet')).length).toBeGreaterThanOrEqual(3);
  const gate = README_WORKFLOWS.map((f) => readFileSync(f, 'utf8')).find((t) => t.startsWith('name: FORGE gate\n'));
  expect(gate).toContain('pull_request_target:');
  expect(gate).toContain('statuses: write');
});

describe.each(WORKFLOWS)('%s', (file) => {
  const text = readFileSync(file.startsWith('/') ? file : join(ROOT, file), 'utf8');

  test('actionlint finds nothing', () => {
    expect(LINTED.filter((f) => f.path === file)).toEqual([]);
  });

  test("GitHub's workflow parser accepts it", () => {
    const result = parseWorkflow({ name: file, content: text }, new NoOperationTraceWriter());
    expect(result.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    expect(result.value).toBeDefined();
  });

  test('every with: key is an input of the action it uses', () => {
    const doc = YAML.parse(text) as { jobs: Record<string, { steps?: Array<{ uses?: string; with?: Record<string, unknown> }> }> };
    for (const job of Object.values(doc.jobs)) {
      for (const step of job.steps ?? []) {
        const action = step.uses ? ourAction(step.uses) : null;
        if (!action) continue;
        const known = inputsOf(action);
        for (const key of Object.keys(step.with ?? {})) expect([action, key, known.includes(key)]).toEqual([action, key, true]);
      }
    }
  });
});

test('actionlint catches a broken workflow (the check can fail)', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'forge-lint-')), 'broken.yml');
  writeFileSync(
    file,
    'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n',
  );
  expect(actionlint([file]).map((f) => f.kind)).toContain('expression');
});

test('no composite action puts a ${{ }} expression inside a run: script', () => {
  for (const name of readdirSync(join(ROOT, 'actions'))) {
    const yml = YAML.parse(readFileSync(join(ROOT, 'actions', name, 'action.yml'), 'utf8')) as {
      runs: { using: string; steps?: Array<{ run?: string }> };
    };
    if (yml.runs.using !== 'composite') continue;
    for (const step of yml.runs.steps ?? []) expect([name, step.run?.includes('${{') ?? false]).toEqual([name, false]);
  }
});

test("the release refuses a tag that is not package.json's version", () => {
  const release = YAML.parse(readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
    permissions: Record<string, string>;
    jobs: { release: { steps: Array<{ name?: string; run?: string; env?: Record<string, string> }> } };
  };
  const steps = release.jobs.release.steps;
  const check = steps.find((s) => s.name === "The tag is package.json's version");
  if (!check?.run) throw new Error('no tag check in release.yml');
  // It runs before anything is built, released or published.
  expect(steps.indexOf(check)).toBeLessThan(steps.findIndex((s) => s.name === 'Create the release, its notes from CHANGELOG.md'));
  expect(steps.find((s) => s.name === 'Create the release, its notes from CHANGELOG.md')?.run).toContain(
    '--notes-file "$RUNNER_TEMP/notes.md"',
  );
  expect(release.permissions['id-token']).toBe('write');
  const publish = steps.find((s) => s.name?.startsWith('Publish'));
  expect(publish?.run).toContain('--provenance');
  // Published with the repository it is released from: the package page's links resolve there.
  expect(publish?.env?.REPOSITORY).toBe('${{ github.repository }}');
  expect(publish?.run).toContain('npm pkg set "repository.url=git+https://github.com/$REPOSITORY.git"');
  const meta = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  expect(Object.keys(meta)).toEqual(expect.arrayContaining(['repository', 'homepage', 'bugs']));
  const dir = mkdtempSync(join(tmpdir(), 'forge-release-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.0.0' }));
  writeFileSync(join(dir, 'CHANGELOG.md'), '# Changelog\n\n## 1.0.0\n\n- The first release.\n');
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(join(dir, 'scripts', 'changelog-section.mjs'), readFileSync(join(ROOT, 'scripts', 'changelog-section.mjs')));
  const output = join(dir, 'output');
  const run = (tag: string, event = 'push') => {
    writeFileSync(output, '');
    try {
      execFileSync('bash', ['-e', '-c', check.run as string], {
        cwd: dir,
        env: { ...process.env, REF_NAME: tag, EVENT: event, GITHUB_OUTPUT: output, RUNNER_TEMP: dir },
        encoding: 'utf8',
      });
      return { code: 0, out: '' };
    } catch (e) {
      return { code: (e as { status: number }).status, out: String((e as { stdout?: string }).stdout) };
    }
  };
  expect(run('v1.0.0').code).toBe(0);
  expect(readFileSync(output, 'utf8')).toBe('tag=v1.0.0\n');
  expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('- The first release.\n');
  // Run by hand: the tag is package.json's version, refused once it exists.
  execFileSync('git', ['init', '-q'], { cwd: dir });
  expect(run('main', 'workflow_dispatch').code).toBe(0);
  expect(readFileSync(output, 'utf8')).toBe('tag=v1.0.0\n');
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'x'], { cwd: dir });
  execFileSync('git', ['tag', 'v1.0.0'], { cwd: dir });
  const again = run('main', 'workflow_dispatch');
  expect(again.code).toBe(1);
  expect(again.out).toContain('::error::v1.0.0 is already tagged');
  const wrong = run('v1.0.1');
  expect(wrong.code).toBe(1);
  expect(wrong.out).toContain("::error::tag v1.0.1 is not package.json's version v1.0.0");
  // And this repository's own version has its CHANGELOG section, undated: the tag dates it.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
  expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## ${pkg.version.replace(/\./g, '\\.')}$`, 'm'));
  expect(pkg.bin).toEqual({ forge: 'dist/cli/index.js', 'forge-actions': 'dist/cli/index.js' });
});

/** The gate's settings: the pipeline file holds them, so no example that runs the gate sets one (an input overrides the file). */
const GATE_SETTINGS = ['required', 'trusted-authors', 'exempt-authors', 'exempt-labels'];

test("every gate run in the examples and the README judges by the pipeline file's settings: a re-gate never overwrites the gate's verdict with others", () => {
  let gates = 0;
  for (const file of WORKFLOWS.filter((f) => !f.startsWith('.github/'))) {
    const doc = YAML.parse(readFileSync(file.startsWith('/') ? file : join(ROOT, file), 'utf8')) as {
      jobs: Record<string, { steps?: Array<{ uses?: string; with?: Record<string, unknown> }> }>;
    };
    for (const job of Object.values(doc.jobs))
      for (const step of job.steps ?? []) {
        const action = step.uses ? ourAction(step.uses) : null;
        // The gate: forge-gate, or forge-check writing a status.
        if (action !== 'forge-gate' && !(action === 'forge-check' && String(step.with?.status) === 'true')) continue;
        gates++;
        const set = GATE_SETTINGS.filter((k) => step.with?.[k] !== undefined);
        expect([file, set]).toEqual([file, []]);
      }
  }
  // The Quick start, the complete gate, the follow-up, the agent's re-gate (file and README), the PR check (file and README).
  expect(gates).toBeGreaterThanOrEqual(7);
});

test('the review follow-up runs only for fork PRs, and waits for a workflow name no other example takes', () => {
  const follow = YAML.parse(readFileSync(join(ROOT, 'examples/workflows/forge-gate-review-followup.yml'), 'utf8'));
  expect(follow.jobs.gate.if).toContain('github.event.workflow_run.head_repository.full_name != github.repository');
  const waited: string[] = follow.on.workflow_run.workflows;
  const names = WORKFLOWS.map((f) => YAML.parse(readFileSync(f.startsWith('/') ? f : join(ROOT, f), 'utf8')).name as string);
  for (const name of waited) expect(names.filter((n) => n === name).length).toBeLessThanOrEqual(2);
  expect(names.filter((n) => n === 'FORGE gate').length).toBeLessThanOrEqual(2);
});
