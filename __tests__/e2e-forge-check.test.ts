import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from './support/github-server.js';
import { useFakeGitHub } from './support/use-fake-github.js';
import { ROOT, runBundle } from './support/run-action.js';
import { architect, builder, context, contract, investigator, reviewer, trajectory } from './support/seed.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

function setupRepo(name: string) {
  const full = `octo/${name}`;
  gh.repo(full, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  return full;
}

const check = (repo: string, inputs: Record<string, string>, event?: { name: string; payload: unknown }) =>
  runBundle('forge-check', { apiUrl: gh.url, repository: repo, inputs: { 'github-token': 'ghs_actions', ...inputs }, event });

test('a complete lifecycle conforms', async () => {
  const repo = setupRepo('lifecycle');
  const issue = gh.issue(repo, { labels: ['workflow:merged'] });
  for (const body of [investigator(), contract(), context(), architect(), builder(), trajectory()])
    gh.comment(repo, issue.number, 'maintainer', body);
  const r = await check(repo, { 'issue-number': String(issue.number), required: 'lifecycle' });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({
    conforming: 'true',
    missing: '',
    incomplete: '',
    invalid: '',
    state: 'workflow:merged',
    terminal: 'true',
  });
  const report = JSON.parse(r.outputs.report);
  expect(report[0].annotations.map((a: { type: string }) => a.type)).toEqual([
    'INVESTIGATOR',
    'CONTRACT',
    'CONTEXT',
    'ARCHITECT',
    'BUILDER',
    'TRAJECTORY',
  ]);
  expect(r.summary).toContain('| `TRAJECTORY` | ✅ ok | @maintainer |');
});

test('missing, partial and invalid each fail with the right outputs', async () => {
  const repo = setupRepo('mixed');
  const issue = gh.issue(repo, { labels: ['workflow:building'] });
  gh.comment(repo, issue.number, 'maintainer', investigator('MAYBE'));
  gh.comment(repo, issue.number, 'maintainer', builder().replace('<!-- FORGE:BUILDER:COMPLETE -->', '<!-- FORGE:BUILDER:PARTIAL -->'));
  const r = await check(repo, { 'issue-number': String(issue.number), required: 'INVESTIGATOR, BUILDER, CONTEXT' });
  expect(r.code).toBe(1);
  expect(r.outputs).toMatchObject({
    conforming: 'false',
    missing: 'CONTEXT',
    incomplete: 'BUILDER',
    invalid: 'INVESTIGATOR',
    state: 'workflow:building',
    terminal: 'false',
  });
  const failure = r.stdout.split('\n').find((l) => l.startsWith('::error::'));
  expect(failure).toContain('CONTEXT is missing');
  expect(failure).toContain('BUILDER is not complete');
  expect(failure).toContain('"Verdict" is "MAYBE"');
});

test('fail-on-violation: false reports without failing, from an issue_comment event', async () => {
  const repo = setupRepo('soft');
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  const event = { name: 'issue_comment', payload: { action: 'created', issue: { number: issue.number }, comment: { id: 1 } } };
  const r = await check(repo, { 'fail-on-violation': 'false' }, event);
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'BUILDER' });
  expect(r.stdout).toContain(`::warning::issue #${issue.number}: BUILDER is missing`);
});

test('presence mode accepts a complete but invalid annotation', async () => {
  const repo = setupRepo('presence');
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator('MAYBE'));
  gh.comment(repo, issue.number, 'maintainer', builder());
  const r = await check(repo, { 'issue-number': String(issue.number), validation: 'presence' });
  expect(r.outputs.conforming).toBe('true');
  expect(r.code).toBe(0);
});

test('strict passes a trajectory without its template fields; template mode fails it and names the gaps', async () => {
  const repo = setupRepo('template-mode');
  const issue = gh.issue(repo);
  gh.comment(
    repo,
    issue.number,
    'maintainer',
    '<!-- FORGE:TRAJECTORY -->\n## Pipeline Trajectory — #1\n\n| Phase | Result | Notes |\n|---|---|---|\n| Close | done | closed |',
  );
  const strict = await check(repo, { 'issue-number': String(issue.number), required: 'TRAJECTORY' });
  expect(strict.outputs).toMatchObject({ conforming: 'true', invalid: '' });
  const template = await check(repo, { 'issue-number': String(issue.number), required: 'TRAJECTORY', validation: 'template' });
  expect(template.code).toBe(1);
  expect(template.outputs).toMatchObject({ conforming: 'false', invalid: 'TRAJECTORY' });
  expect(template.summary).toContain('field "Decisions" is missing'.replace(/\\/g, ''));
});

test('an investigation closed with INVESTIGATION:INVALID is reported as such, not as a missing sentinel', async () => {
  const repo = setupRepo('invalid-close');
  const issue = gh.issue(repo);
  gh.comment(
    repo,
    issue.number,
    'maintainer',
    investigator('INVALID').replace('<!-- INVESTIGATION:COMPLETE -->', '<!-- INVESTIGATION:INVALID -->'),
  );
  const r = await check(repo, { 'issue-number': String(issue.number), required: 'INVESTIGATOR' });
  expect(r.outputs).toMatchObject({ conforming: 'false', incomplete: 'INVESTIGATOR' });
  expect(r.summary).toContain('closed with INVESTIGATION:INVALID, not the §4.1 sentinel (Verdict: INVALID)');
  expect(r.stdout).toContain('closed with INVESTIGATION:INVALID');
  expect(r.summary).not.toContain('is missing — treated as interrupted');
});

test('an annotation in comment 950 of 1,000 is found (pagination to the end)', async () => {
  const repo = setupRepo('long');
  const issue = gh.issue(repo);
  for (let i = 1; i <= 1000; i++) {
    const body = i === 950 ? builder() : i === 3 ? investigator() : `comment ${i}`;
    gh.comment(repo, issue.number, i === 950 || i === 3 ? 'maintainer' : 'drive-by', body);
  }
  const before = gh.requests.length;
  const r = await check(repo, { 'issue-number': String(issue.number) });
  expect(r.outputs.conforming).toBe('true');
  // One query for the issue and its first 100 comments, then one per further 100.
  const reads = gh.operations(before).filter((op) => op === 'ForgeGateIssue' || op === 'ForgeContextPage');
  expect(reads).toEqual(['ForgeGateIssue', ...Array(9).fill('ForgeContextPage')]);
});

test('a forged annotation by an untrusted commenter is ignored and listed', async () => {
  const repo = setupRepo('forged');
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'drive-by', builder());
  const r = await check(repo, { 'issue-number': String(issue.number) });
  expect(r.code).toBe(1);
  expect(r.outputs.missing).toBe('BUILDER');
  const report = JSON.parse(r.outputs.report);
  expect(report[0].ignored).toEqual([expect.objectContaining({ type: 'BUILDER', author: 'drive-by', association: 'NONE' })]);
  expect(r.stdout).toContain('only untrusted authors wrote one');
});

test('a PR gate reads the linked issue and the PR itself', async () => {
  const repo = setupRepo('prgate');
  const issue = gh.issue(repo, { labels: ['workflow:in-review'] });
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'github-actions[bot]', builder());
  const pr = gh.issue(repo, { pull: { body: `This change\r\n\r\nFixes #${issue.number}.`, head: 'fix/x' } });
  gh.comment(repo, pr.number, 'maintainer', reviewer());
  const event = { name: 'pull_request', payload: { action: 'opened', number: pr.number, pull_request: { number: pr.number } } };
  const r = await check(repo, { required: 'INVESTIGATOR, BUILDER, REVIEWER' }, event);
  expect(r.code).toBe(0);
  expect(r.outputs.conforming).toBe('true');
  expect(r.outputs.state).toBe('workflow:in-review');
  const report = JSON.parse(r.outputs.report);
  expect(report.map((i: { number: number }) => i.number)).toEqual([issue.number]);
  // The PR, its head, its thread and the issue it closes: one query.
  expect(gh.operations().filter((op) => op === 'ForgeGate')).toHaveLength(1);
});

test('a REVIEWER posted as a PR review counts; an untrusted review does not', async () => {
  const repo = setupRepo('prreview');
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  const pr = gh.issue(repo, { pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
  gh.review(repo, pr.number, 'drive-by', reviewer(), 'APPROVED');
  const event = { name: 'pull_request', payload: { number: pr.number, pull_request: { number: pr.number } } };
  const first = await check(repo, { required: 'INVESTIGATOR, BUILDER, REVIEWER' }, event);
  expect(first.outputs.missing).toBe('REVIEWER');
  gh.review(repo, pr.number, 'maintainer', reviewer(), 'APPROVED');
  const second = await check(repo, { required: 'INVESTIGATOR, BUILDER, REVIEWER' }, event);
  expect(second.outputs.conforming).toBe('true');
  expect(
    JSON.parse(second.outputs.report)[0]
      .annotations.map((a: { url: string }) => a.url)
      .pop(),
  ).toContain('#pullrequestreview-');
});

test('an item that ended without a build is not held to required', async () => {
  const repo = setupRepo('invalid');
  const issue = gh.issue(repo, { labels: ['workflow:invalid'] });
  gh.comment(repo, issue.number, 'maintainer', investigator('INVALID'));
  const r = await check(repo, { 'issue-number': String(issue.number) });
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ conforming: 'true', state: 'workflow:invalid', terminal: 'true' });
});

test('502 then success', async () => {
  const repo = setupRepo('flaky');
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  const before = gh.requests.length;
  gh.fail('POST', /^\/graphql$/, 502, 1, { operation: /query ForgeGateIssue\b/ });
  const r = await check(repo, { 'issue-number': String(issue.number) });
  expect(r.outputs.conforming).toBe('true');
  const calls = gh.requests.slice(before).filter((q) => /query ForgeGateIssue\b/.test(String(q.body?.query)));
  expect(calls.map((c) => c.status)).toEqual([502, 200]);
});

test('a secondary rate limit is honoured with retry-after', async () => {
  const repo = setupRepo('secondary');
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  const before = gh.requests.length;
  gh.secondaryRateLimit('POST', /^\/graphql$/, 1, 1, /query ForgeGateIssue\b/);
  const r = await check(repo, { 'issue-number': String(issue.number) });
  expect(r.outputs.conforming).toBe('true');
  expect(r.stdout).toContain('secondary rate limit');
  const calls = gh.requests.slice(before).filter((q) => /query ForgeGateIssue\b/.test(String(q.body?.query)));
  expect(calls.map((c) => c.status)).toEqual([403, 200]);
});

test('an API failure is an error, never a verdict', async () => {
  const repo = setupRepo('broken');
  const issue = gh.issue(repo);
  gh.fail('POST', /^\/graphql$/, 404, 1, { operation: /query ForgeGateIssue\b/ });
  const r = await check(repo, { 'issue-number': String(issue.number) });
  expect(r.code).toBe(1);
  expect(r.outputs.conforming).toBeUndefined();
  expect(r.stdout).toContain(`::error::forge-check: reading #${issue.number} failed`);
  expect(r.summary).toContain('## forge-check failed');
});

test('bad inputs fail with one line before any API call', async () => {
  const repo = setupRepo('badinputs');
  const before = gh.requests.length;
  for (const [inputs, message] of [
    [{ 'issue-number': 'abc' }, 'input "issue-number" must be a positive whole number'],
    [{ 'issue-number': '1', validation: 'loose' }, 'input "validation" must be one of strict, template, presence'],
    [{ 'issue-number': '1', required: 'investigator' }, 'required: "investigator" is not a FORGE type name'],
    [{ 'issue-number': '1', 'trusted-authors': 'bad name!' }, 'trusted-authors: "bad name!"'],
    [{ 'issue-number': '1', 'trusted-authors': 'permission:read' }, 'must be permission:write, permission:maintain or permission:admin'],
    [{ 'issue-number': '1', 'exempt-authors': 'not a login!' }, 'input "exempt-authors": "not a login!" is not a GitHub login'],
    [{ scope: 'repository', 'exempt-labels': 'forge:exempt' }, 'exempt-authors and exempt-labels apply to a gate'],
    [{ 'issue-number': '1', comment: 'yes' }, 'input "comment" must be true or false (true, True, TRUE, false, False or FALSE), got "yes"'],
    [{ 'issue-number': '1', verdicts: 'strict' }, 'input "verdicts" must be one of enforce, ignore'],
    [{ 'issue-number': '1', 'stale-reviews': 'drop' }, 'input "stale-reviews" must be one of dismiss, keep'],
  ] as const) {
    const r = await check(repo, inputs);
    expect(r.code).toBe(1);
    const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
    expect(r.stdout).not.toMatch(/\n\s+at /);
  }
  expect(gh.requests.length).toBe(before);
});

test("the event is @actions/github's context: a payload file that is not JSON fails in one line before any API call; a missing one is said and read as empty", async () => {
  const repo = setupRepo('badpayload');
  const dir = mkdtempSync(join(tmpdir(), 'forge-payload-'));
  const broken = join(dir, 'event.json');
  writeFileSync(broken, '{"issue": ');
  const before = gh.requests.length;
  const r = await runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', 'issue-number': '1' },
    env: { GITHUB_EVENT_PATH: broken },
  });
  expect(r.code).toBe(1);
  const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(/^::error::forge-check: .*JSON/);
  expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
  expect(gh.requests.length).toBe(before);
  // No payload file at all: @actions/github says so on stdout and the event carries nothing (no issue to gate).
  const n = gh.issue(repo, { user: 'maintainer' }).number;
  const missing = await runBundle('forge-check', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', 'issue-number': String(n), required: 'minimal' },
    env: { GITHUB_EVENT_PATH: join(dir, 'none.json') },
  });
  expect(missing.stdout).toContain(`GITHUB_EVENT_PATH ${join(dir, 'none.json')} does not exist`);
  expect(missing.outputs.conforming).toBe('false');
});

test('primary rate-limit exhaustion: waited out when the reset is near, a clear failure when it is not', async () => {
  const repo = setupRepo('primary');
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  gh.primaryExhausted('POST', /^\/graphql$/, 1, 1, /query ForgeGateIssue\b/);
  const near = await check(repo, { 'issue-number': String(issue.number) });
  expect(near.outputs.conforming).toBe('true');
  expect(near.stdout).toContain('rate limit reached');
  gh.primaryExhausted('POST', /^\/graphql$/, 3600, 1, /query ForgeGateIssue\b/);
  const far = await check(repo, { 'issue-number': String(issue.number) });
  expect(far.code).toBe(1);
  expect(far.stdout).toMatch(/::error::forge-check: reading #\d+ failed \(POST \/graphql\): GitHub API rate limit exhausted \(resets at /);
});

/** scripts/local-run.mjs as a person runs it; asynchronous, since the loopback GitHub answers from this very process. */
function localRun(cwd: string, action: string, envFile: string, ...args: string[]) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'local-run.mjs'), action, envFile, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

describe('the local run (scripts/local-run.mjs)', () => {
  test('shows outputs as name=value, ends a failure with its one line and no stack trace, needs no terminal; forge-gate runs too', async () => {
    const repo = setupRepo('localrun');
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    const dir = mkdtempSync(join(tmpdir(), 'forge-local-test-'));
    const envFile = join(dir, '.env');
    writeFileSync(
      envFile,
      [
        '# a comment',
        'INPUT_GITHUB-TOKEN=ghs_actions',
        `GITHUB_REPOSITORY=${repo}`,
        `GITHUB_API_URL=${gh.url}`,
        `INPUT_ISSUE-NUMBER="${issue.number}"`,
      ].join('\n'),
    );
    const run = (action: string) => localRun(dir, action, envFile);
    const r = await run('forge-check');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^conforming=false$/m);
    expect(r.stdout).toMatch(/^missing=BUILDER$/m);
    expect(r.stdout).toMatch(/^summary: .*summary\.md$/m);
    expect(r.stdout).toContain(`failed: FORGE conformance failed: issue #${issue.number}: BUILDER is missing`);
    expect(r.stdout).not.toContain('::');
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /);
    gh.comment(repo, issue.number, 'maintainer', builder());
    const gate = await run('forge-gate');
    // The PR gate on a plain issue with no PR: nothing to gate, exit 0.
    expect(gate.status).toBe(0);
    expect(gate.stdout).toContain('notice: ');
    expect((await run('forge-nothing')).status).toBe(2);
  });

  test('says before it writes to the repository, and --dry-run writes nothing', async () => {
    const repo = setupRepo('localwrites');
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder());
    const dir = mkdtempSync(join(tmpdir(), 'forge-local-test-'));
    const envFile = join(dir, '.env');
    const lines = [
      'INPUT_GITHUB-TOKEN=ghs_actions',
      `GITHUB_REPOSITORY=${repo}`,
      `GITHUB_API_URL=${gh.url}`,
      `INPUT_ISSUE-NUMBER=${issue.number}`,
    ];
    const run = (action: string, extra: string[], ...args: string[]) => {
      writeFileSync(envFile, [...lines, ...extra].join('\n'));
      return localRun(dir, action, envFile, ...args);
    };
    const writes = () => gh.writes().length;
    let before = writes();
    const dry = await run('forge-check', ['INPUT_COMMENT=true'], '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stderr).toContain(`dry run: nothing is written to ${repo}`);
    expect(writes()).toBe(before);
    const emitDry = await run('forge-emit', ['INPUT_TYPE=CONTEXT', 'INPUT_SECTIONS=Known Pitfalls for This Area: none'], '--dry-run');
    expect(emitDry.status).toBe(0);
    expect(writes()).toBe(before);
    // A real run that writes says so first.
    const real = await run('forge-check', ['INPUT_COMMENT=true']);
    expect(real.stderr).toContain(`this run writes to ${repo} on ${gh.url} (a status comment); pass --dry-run to read only`);
    expect(writes()).toBeGreaterThan(before);
    // release: draft cannot run without writing: refused, nothing sent.
    before = gh.requests.length;
    const release = await run('forge-trajectory-report', ['INPUT_RELEASE=draft'], '--dry-run');
    expect(release.status).toBe(2);
    expect(release.stderr).toContain('has no dry run');
    expect(gh.requests.length).toBe(before);
  });
});

test('an issue-number or repository the token cannot see is an error, never conforming=true', async () => {
  const repo = setupRepo('unseen');
  for (const [repository, number] of [
    [repo, '999'],
    ['octo/no-such-repository', '1'],
  ]) {
    const r = await runBundle('forge-check', {
      apiUrl: gh.url,
      repository,
      inputs: { 'github-token': 'ghs_actions', 'issue-number': number },
    });
    expect(r.code).toBe(1);
    expect(r.outputs.conforming).toBeUndefined();
    expect(r.stdout).toContain(`::error::forge-check: issue-number ${number} is not an issue or PR this token can see in ${repository}`);
  }
});
