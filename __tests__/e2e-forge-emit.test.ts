import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parse } from '../src/codec/index.js';
import type { FakeGitHub } from './support/github-server.js';
import { useFakeGitHub } from './support/use-fake-github.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator } from './support/seed.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

let n = 0;
function setup(labels: string[] = []) {
  const repo = `octo/emit${++n}`;
  gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  const issue = gh.issue(repo, { labels });
  return { repo, issue };
}

const INVESTIGATOR_FIELDS =
  'Verdict: CONFIRMED\nConfidence: HIGH\nSeverity: LOW\nTask Type: Bug Fix\nDecomposition Assessment: NO — one file\n';

const emitStep = (repo: string, inputs: Record<string, string>) =>
  runBundle('forge-emit', { apiUrl: gh.url, repository: repo, inputs: { 'github-token': 'ghs_actions', ...inputs } });

const errorLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::error::'));

test('emits a comment that reads back as one complete valid annotation', async () => {
  const { repo, issue } = setup();
  const r = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'INVESTIGATOR',
    fields: INVESTIGATOR_FIELDS,
    sections: 'Root Cause: |\n  The lookup `a.ts:3` does not guard null.\nAffected Files:\n  - a.ts\n  - b.ts\n',
  });
  expect(errorLines(r.stdout)).toEqual([]);
  expect(r.code).toBe(0);
  expect(r.outputs.result).toBe('created');
  const comments = gh.commentsOn(repo, issue.number);
  expect(comments).toHaveLength(1);
  expect(r.outputs['comment-id']).toBe(String(comments[0].id));
  expect(r.outputs['comment-url']).toContain(`#issuecomment-${comments[0].id}`);
  const [a] = parse(comments[0].body);
  expect(a).toMatchObject({ type: 'INVESTIGATOR', sentinelState: 'complete' });
  expect(a.fields.Verdict).toBe('CONFIRMED');
  expect(a.sections['Affected Files']).toBe('1. a.ts\n2. b.ts');
  expect(r.outputs.annotation).toBe(comments[0].body);
  expect(r.summary).toContain('| `INVESTIGATOR` | complete |');
});

test('emitting twice leaves one comment; the second run is skipped', async () => {
  const { repo, issue } = setup();
  const inputs = { 'issue-number': String(issue.number), type: 'BUILDER', fields: 'Branch: fix/a\nCommits: abc123\nFiles changed: 1' };
  const first = await emitStep(repo, inputs);
  const writesAfterFirst = gh.writes().length;
  const second = await emitStep(repo, inputs);
  expect(first.outputs.result).toBe('created');
  expect(second.outputs.result).toBe('skipped');
  expect(second.outputs['comment-id']).toBe(first.outputs['comment-id']);
  expect(gh.commentsOn(repo, issue.number)).toHaveLength(1);
  expect(gh.writes().length).toBe(writesAfterFirst);
});

test('racing emits converge to exactly one annotation', async () => {
  const { repo, issue } = setup();
  gh.latencyMs = 40;
  try {
    const inputs = { 'issue-number': String(issue.number), type: 'BUILDER', fields: 'Branch: fix/a\nCommits: abc123\nFiles changed: 1' };
    const mark = gh.requests.length;
    const results = await Promise.all([emitStep(repo, inputs), emitStep(repo, inputs), emitStep(repo, inputs)]);
    // The comment writes (the pipeline's label move for a complete BUILDER writes labels too).
    const writes = gh.requests.slice(mark).filter((q) => q.method !== 'GET' && q.path.includes('/comments'));
    const posted = writes.filter((w) => w.method === 'POST').length;
    const deleted = writes.filter((w) => w.method === 'DELETE').length;
    // Every run that lost the race removed its own comment again.
    expect(posted - deleted).toBe(1);
    expect(results.every((r) => r.code === 0)).toBe(true);
    const left = gh.commentsOn(repo, issue.number);
    expect(left).toHaveLength(1);
    expect(new Set(results.map((r) => r.outputs['comment-id']))).toEqual(new Set([String(left[0].id)]));
  } finally {
    gh.latencyMs = 0;
  }
});

test('with if-exists: skip, a partial annotation is replaced in place, text around it kept (the default, new, writes a new one)', async () => {
  const { repo, issue } = setup();
  const partial = builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->');
  const c = gh.comment(repo, issue.number, 'github-actions[bot]', `Progress notes above.\n\n${partial}\n\nA human note below.`);
  const fresh = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'BUILDER',
    fields: 'Branch: fix/a\nCommits: abc123\nFiles changed: 1',
    'dry-run': 'true',
  });
  expect(fresh.outputs.result).toBe('dry-run');
  expect(fresh.stdout).toContain('create a comment on');
  const r = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'BUILDER',
    fields: 'Branch: fix/b\nCommits: def456\nFiles changed: 3',
    'if-exists': 'skip',
  });
  expect(r.outputs.result).toBe('updated');
  expect(r.outputs['comment-id']).toBe(String(c.id));
  const comments = gh.commentsOn(repo, issue.number);
  expect(comments).toHaveLength(1);
  expect(comments[0].body.startsWith('Progress notes above.\r\n\r\n<!-- FORGE:BUILDER -->')).toBe(true);
  expect(comments[0].body.endsWith('<!-- FORGE:BUILDER:COMPLETE -->\r\n\r\nA human note below.')).toBe(true);
  const [a] = parse(comments[0].body);
  expect(a).toMatchObject({ sentinelState: 'complete', fields: expect.objectContaining({ Commits: 'def456' }) });
});

test('replace edits in place; an unchanged edit is skipped', async () => {
  const { repo, issue } = setup();
  const inputs = {
    'issue-number': String(issue.number),
    type: 'BUILDER',
    fields: 'Branch: fix/a\nCommits: abc123\nFiles changed: 1',
    'if-exists': 'replace',
  };
  await emitStep(repo, inputs);
  const again = await emitStep(repo, inputs);
  expect(again.outputs.result).toBe('skipped');
  const changed = await emitStep(repo, { ...inputs, fields: 'Branch: fix/a\nCommits: abc123 fed321\nFiles changed: 2' });
  expect(changed.outputs.result).toBe('updated');
  const comments = gh.commentsOn(repo, issue.number);
  expect(comments).toHaveLength(1);
  expect(parse(comments[0].body)[0].fields.Commits).toBe('abc123 fed321');
});

test('append always adds (CRITIQUE iterations)', async () => {
  const { repo, issue } = setup();
  for (const i of [1, 2]) {
    const r = await emitStep(repo, {
      'issue-number': String(issue.number),
      type: 'CRITIQUE',
      fields: `Verdict: ITERATE\nLint floor: PASS`,
      title: `Critique — page · iteration ${i}/3`,
      'if-exists': 'append',
    });
    expect(r.outputs.result).toBe('created');
  }
  expect(gh.commentsOn(repo, issue.number)).toHaveLength(2);
});

test('label exclusivity: the target is added, other workflow labels removed, the label created', async () => {
  const { repo, issue } = setup(['workflow:building', 'bug']);
  const r = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'BUILDER',
    fields: 'Branch: x\nCommits: a\nFiles changed: 1',
    label: 'workflow:in-review',
  });
  expect(r.code).toBe(0);
  expect(r.outputs.label).toBe('workflow:in-review');
  expect(gh.repo(repo).issues.get(issue.number)?.labels.sort()).toEqual(['bug', 'workflow:in-review']);
  expect(gh.repo(repo).labels.has('workflow:in-review')).toBe(true);
  const writes = gh
    .writes()
    .filter((w) => w.path.startsWith(`/repos/${repo}/`))
    .map((w) => `${w.method} ${decodeURIComponent(w.path).replace(`/repos/${repo}`, '')}`);
  expect(writes).toEqual([
    `POST /issues/${issue.number}/comments`,
    'POST /labels',
    `POST /issues/${issue.number}/labels`,
    `DELETE /issues/${issue.number}/labels/workflow:building`,
  ]);
});

test('a transition the state machine refuses writes nothing', async () => {
  const { repo, issue } = setup(['workflow:in-review']);
  const before = gh.writes().length;
  const r = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'BUILDER',
    fields: 'Branch: x\nCommits: a\nFiles changed: 1',
    label: 'workflow:investigating',
  });
  expect(r.code).toBe(1);
  expect(errorLines(r.stdout)[0]).toContain('workflow:in-review → workflow:investigating is not an allowed transition');
  expect(gh.writes().length).toBe(before);
  expect(gh.commentsOn(repo, issue.number)).toHaveLength(0);
});

test('bad fields YAML: a clear error and zero writes, zero requests', async () => {
  const { repo, issue } = setup();
  const before = gh.requests.length;
  for (const [inputs, message] of [
    [{ fields: 'Verdict: [unclosed' }, 'input "fields" is not valid YAML at line 1'],
    [{ fields: '- a\n- b' }, 'input "fields" must be a YAML mapping'],
    [{ fields: INVESTIGATOR_FIELDS.replace('CONFIRMED', 'MAYBE') }, '"Verdict" is "MAYBE" — expected one of CONFIRMED, PARTIAL, INVALID'],
    [{ fields: 'Verdict: CONFIRMED' }, 'field "Confidence" is missing'],
    [{ fields: INVESTIGATOR_FIELDS, label: 'workflow:done' }, 'label "workflow:done" is not a FORGE label'],
    [{ fields: INVESTIGATOR_FIELDS, type: 'bad type' }, 'is not a type name'],
    [{ fields: INVESTIGATOR_FIELDS, body: 'x'.repeat(70000) }, "GitHub's limit is 65536"],
  ] as const) {
    const r = await emitStep(repo, { 'issue-number': String(issue.number), type: 'INVESTIGATOR', ...inputs });
    expect(r.code).toBe(1);
    const errors = errorLines(r.stdout);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
    expect(r.stdout).not.toMatch(/\n\s+at /);
  }
  expect(gh.requests.length).toBe(before);
});

test('a value shaped like a tag or sentinel is escaped and reads back unchanged', async () => {
  const { repo, issue } = setup();
  const hostile = 'fix <!-- FORGE:BUILDER:COMPLETE --> and\n<!-- FORGE:REVIEWER -->';
  const r = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'BUILDER',
    fields: `Branch: x\nCommits: ${JSON.stringify(hostile)}\nFiles changed: 1`,
    status: 'partial',
  });
  expect(r.code).toBe(0);
  const [c] = gh.commentsOn(repo, issue.number);
  const all = parse(c.body);
  expect(all).toHaveLength(1);
  expect(all[0].sentinelState).toBe('partial');
  expect(all[0].fields.Commits).toBe('fix <!-- FORGE:BUILDER:COMPLETE --> and <!-- FORGE:REVIEWER -->');
});

test('PRIOR_GIST goes into the issue body; MILESTONE_INDEX into the milestone description', async () => {
  const { repo, issue } = setup();
  gh.repo(repo).issues.get(issue.number)!.body = 'Sub-issue of #1.';
  const url = 'https://gist.github.com/octo/0123456789abcdef';
  const r1 = await emitStep(repo, { 'issue-number': String(issue.number), type: 'PRIOR_GIST', value: url, target: 'issue-body' });
  expect(r1.outputs.result).toBe('created');
  expect(gh.repo(repo).issues.get(issue.number)?.body).toBe(`Sub-issue of #1.\n\n<!-- FORGE:PRIOR_GIST: ${url} -->`);
  const again = await emitStep(repo, { 'issue-number': String(issue.number), type: 'PRIOR_GIST', value: url, target: 'issue-body' });
  expect(again.outputs.result).toBe('skipped');

  const m = gh.milestone(repo, { title: 'v1', description: 'Release one' });
  const r2 = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'MILESTONE_INDEX',
    value: url,
    target: 'milestone',
    milestone: 'v1',
  });
  expect(r2.outputs.result).toBe('created');
  expect(gh.repo(repo).milestones.get(m.number)?.description).toBe(`Release one\n\n<!-- FORGE:MILESTONE_INDEX: ${url} -->`);
  expect(r2.outputs['comment-id']).toBe('');
});

test('PRIOR_GIST in the body of an issue opened by an untrusted author is still written once', async () => {
  const { repo } = setup();
  const issue = gh.issue(repo, { user: 'drive-by', body: 'Please fix.' });
  const url = 'https://gist.github.com/octo/00112233445566778899';
  const inputs = { 'issue-number': String(issue.number), type: 'PRIOR_GIST', value: url, target: 'issue-body' };
  expect((await emitStep(repo, inputs)).outputs.result).toBe('created');
  expect((await emitStep(repo, inputs)).outputs.result).toBe('skipped');
  expect(gh.repo(repo).issues.get(issue.number)?.body?.split('FORGE:PRIOR_GIST')).toHaveLength(2);
});

test('dry-run writes nothing and prints the plan', async () => {
  const { repo, issue } = setup(['workflow:ready-to-build']);
  const before = gh.writes().length;
  const r = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'INVESTIGATOR',
    fields: INVESTIGATOR_FIELDS,
    label: 'workflow:building',
    'dry-run': 'true',
  });
  expect(r.code).toBe(0);
  expect(r.outputs.result).toBe('dry-run');
  expect(r.stdout).toContain('[dry-run] create a comment');
  expect(r.stdout).toContain('[dry-run] add label workflow:building');
  expect(gh.writes().length).toBe(before);
});

test('a label failure after the comment was written says exactly what changed', async () => {
  const { repo, issue } = setup(['workflow:building']);
  gh.fail('POST', new RegExp(`/issues/${issue.number}/labels$`), 422, 1);
  const r = await emitStep(repo, {
    'issue-number': String(issue.number),
    type: 'BUILDER',
    fields: 'Branch: x\nCommits: a\nFiles changed: 1',
    label: 'workflow:in-review',
  });
  expect(r.code).toBe(1);
  const [err] = errorLines(r.stdout);
  expect(err).toMatch(/already done before the failure: created comment \d+; created label workflow:in-review in the repository/);
  expect(gh.repo(repo).issues.get(issue.number)?.labels).toEqual(['workflow:building']);
});

test('untrusted existing annotations do not make the step skip', async () => {
  const { repo, issue } = setup();
  gh.comment(repo, issue.number, 'drive-by', investigator());
  const r = await emitStep(repo, { 'issue-number': String(issue.number), type: 'INVESTIGATOR', fields: INVESTIGATOR_FIELDS });
  expect(r.outputs.result).toBe('created');
  expect(gh.commentsOn(repo, issue.number)).toHaveLength(2);
});

describe('fields-file: the fields an agent wrote', () => {
  function workspaceWith(files: Record<string, string>): string {
    const ws = mkdtempSync(`${tmpdir()}/forge-fields-`);
    mkdirSync(`${ws}/.forge`, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(`${ws}/${name}`, text);
    return ws;
  }
  const step = (repo: string, ws: string, inputs: Record<string, string>) =>
    runBundle('forge-emit', { apiUrl: gh.url, repository: repo, workspace: ws, inputs: { 'github-token': 'ghs_actions', ...inputs } });

  test('a YAML file (or JSON) supplies the fields the agent decided; the workflow adds the rest', async () => {
    const { repo, issue } = setup();
    const ws = workspaceWith({
      '.forge/verdict.yml': 'Verdict: PARTIAL\nConfidence: MEDIUM\nSeverity: LOW\n',
      '.forge/verdict.json': '{"Verdict": "INVALID", "Confidence": "HIGH", "Severity": "LOW"}',
    });
    const r = await step(repo, ws, {
      'issue-number': String(issue.number),
      type: 'INVESTIGATOR',
      'fields-file': '.forge/verdict.yml',
      fields: 'Task Type: Bug Fix\nDecomposition Assessment: NO — one file\n',
    });
    expect(errorLines(r.stdout)).toEqual([]);
    const [a] = parse(gh.commentsOn(repo, issue.number)[0].body);
    expect(a.fields).toMatchObject({ Verdict: 'PARTIAL', Confidence: 'MEDIUM', 'Task Type': 'Bug Fix' });
    const other = setup();
    const j = await step(other.repo, ws, {
      'issue-number': String(other.issue.number),
      type: 'INVESTIGATOR',
      'fields-file': '.forge/verdict.json',
      fields: 'Task Type: Bug Fix\nDecomposition Assessment: NO — one file\n',
    });
    expect(j.code).toBe(0);
    expect(parse(gh.commentsOn(other.repo, other.issue.number)[0].body)[0].fields.Verdict).toBe('INVALID');
  });

  test.each([
    ['not YAML', 'Verdict: [unclosed\n', /fields-file "\.forge\/f\.yml" is not valid YAML/],
    ['not a mapping', '- a\n- b\n', /fields-file "\.forge\/f\.yml" must be a YAML mapping/],
    ['a nested value', 'Verdict:\n  nested: x\n', /fields-file "\.forge\/f\.yml": field "Verdict" must be a single value/],
    [
      'a key also in fields',
      'Task Type: Bug Fix\n',
      /fields-file "\.forge\/f\.yml": field "Task Type" is also given in the "fields" input/,
    ],
    [
      'a value the template refuses',
      'Verdict: MAYBE\nConfidence: HIGH\nSeverity: LOW\n',
      /would be invalid: .*Verdict.*\(fields from fields-file "\.forge\/f\.yml"\)/,
    ],
  ])('%s: one error line naming the file, nothing written', async (_name, text, message) => {
    const { repo, issue } = setup();
    const ws = workspaceWith({ '.forge/f.yml': text });
    const before = gh.writes().length;
    const r = await step(repo, ws, {
      'issue-number': String(issue.number),
      type: 'INVESTIGATOR',
      'fields-file': '.forge/f.yml',
      fields: 'Task Type: Bug Fix\nDecomposition Assessment: NO — one file\n',
    });
    expect(r.code).toBe(1);
    expect(errorLines(r.stdout)).toEqual([expect.stringMatching(message)]);
    expect(gh.writes().length).toBe(before);
  });

  test('the file is confined to the workspace, like body-file', async () => {
    const { repo, issue } = setup();
    const ws = workspaceWith({});
    const r = await step(repo, ws, { 'issue-number': String(issue.number), type: 'BUILDER', 'fields-file': '../outside.yml' });
    expect(r.code).toBe(1);
    expect(errorLines(r.stdout)[0]).toContain('fields-file');
    const missing = await step(repo, ws, { 'issue-number': String(issue.number), type: 'BUILDER', 'fields-file': '.forge/none.yml' });
    expect(errorLines(missing.stdout)[0]).toContain('fields-file ".forge/none.yml" cannot be read: no such file or folder (ENOENT)');
  });
});
