/**
 * Issue 8: each bypass and leak found by trying the actions as an attacker and
 * as a careless maintainer, run from the bundles against the loopback GitHub.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { emit, parse } from '../src/codec/index.js';
import type { FakeGitHub } from './support/github-server.js';
import { useFakeGitHub } from './support/use-fake-github.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator, trajectory } from './support/seed.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
  gh.token('ghp_gister', 'gister');
});

let n = 0;
function setupRepo(): string {
  const repo = `octo/sec${++n}`;
  gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE', member: 'NONE', gister: 'OWNER' });
  return repo;
}

const prEvent = (number: number) => ({ name: 'pull_request', payload: { number, pull_request: { number } } });
const check = (repo: string, inputs: Record<string, string>, event?: { name: string; payload: unknown }) =>
  runBundle('forge-check', { apiUrl: gh.url, repository: repo, inputs: { 'github-token': 'ghs_actions', ...inputs }, event });
const errors = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::error::'));

describe('forge-check', () => {
  test('1. a stranger\'s PR does not borrow a conforming issue through "Fixes #N"', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'drive-by', pull: { body: `Fixes #${issue.number}`, head: 'evil/y' } });
    const r = await check(repo, { required: 'INVESTIGATOR, BUILDER' }, prEvent(pr.number));
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'INVESTIGATOR,BUILDER' });
    expect(JSON.parse(r.outputs.report).map((i: { number: number }) => i.number)).toEqual([pr.number]);
    expect(r.summary).toContain(`its closing references (#${issue.number}) are not followed`);
    expect(r.stdout).toContain('::warning::PR #');
    // Nothing about the issue was even read.
    expect(gh.requests.some((q) => q.path === `/repos/${repo}/issues/${issue.number}/comments`)).toBe(false);
  });

  test("1. a trusted PR for another branch does not count the issue's BUILDER, and says why", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo, { state: 'closed' });
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder('fix/x'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'evil/y' } });
    const r = await check(repo, { required: 'INVESTIGATOR, BUILDER' }, prEvent(pr.number));
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'BUILDER' });
    expect(errors(r.stdout)[0]).toContain(`BUILDER on #${issue.number} is for \`fix/x\`; this PR is \`evil/y\``);
    expect(r.summary).toContain(`BUILDER on #${issue.number} is for`);
    // The right branch, or a BUILDER on the PR itself, passes.
    const good = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'fix/x' } });
    expect((await check(repo, { required: 'INVESTIGATOR, BUILDER' }, prEvent(good.number))).outputs.conforming).toBe('true');
    gh.comment(repo, pr.number, 'maintainer', builder('evil/y'));
    expect((await check(repo, { required: 'INVESTIGATOR, BUILDER' }, prEvent(pr.number))).outputs.conforming).toBe('true');
  });

  test('2. an exemption label on the closed issue does not vouch for the PR', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo, { labels: ['workflow:invalid'] });
    gh.comment(repo, issue.number, 'maintainer', investigator('INVALID'));
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'fix/z' } });
    const r = await check(repo, { required: 'INVESTIGATOR, BUILDER' }, prEvent(pr.number));
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'BUILDER' });
    expect(r.summary).toContain(`PR #${pr.number} closes it and is a build`);
    // Naming the issue re-gates the open PR that closes it; once no open PR does, the issue on its own is still exempt.
    expect((await check(repo, { 'issue-number': String(issue.number) })).outputs.conforming).toBe('false');
    gh.repo(repo).issues.get(pr.number)!.state = 'closed';
    expect((await check(repo, { 'issue-number': String(issue.number) })).outputs.conforming).toBe('true');
  });

  test('3. "owner, member" are associations in any case; the user named member is not trusted, @member is', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'member', investigator());
    gh.comment(repo, issue.number, 'member', builder());
    const lower = await check(repo, { 'issue-number': String(issue.number), 'trusted-authors': 'owner, member' });
    expect(lower.outputs).toMatchObject({ conforming: 'false', missing: 'INVESTIGATOR,BUILDER' });
    const login = await check(repo, { 'issue-number': String(issue.number), 'trusted-authors': 'owner, @member' });
    expect(login.outputs.conforming).toBe('true');
  });

  test('4. 300 closing references cost at most 20 issue reads, the rest are named, and the PR does not pass on the first 20', async () => {
    const repo = setupRepo();
    const pr = gh.issue(repo, {
      user: 'maintainer',
      pull: { body: Array.from({ length: 300 }, (_, i) => `Fixes #${i + 1000}`).join('\n'), head: 'h' },
    });
    for (let i = 1000; i < 1300; i++) gh.issue(repo, { number: i });
    // A BUILDER on the PR itself counts for every issue it closes: only the overflow can fail it.
    gh.comment(repo, pr.number, 'maintainer', builder('h'));
    const before = gh.requests.length;
    const r = await check(repo, { required: 'BUILDER', 'fail-on-violation': 'false' }, prEvent(pr.number));
    const made = gh.requests.length - before;
    // The PR (thread, reviews, pulls: 4), GitHub's link list (3 GraphQL pages of 100), then 20 issues at 2 reads each,
    // and who edited or hid the one annotation (1 GraphQL).
    expect(made).toBeLessThanOrEqual(4 + 3 + 2 * 20 + 1);
    expect(JSON.parse(r.outputs.report)).toHaveLength(20);
    expect(r.stdout).toContain(`PR #${pr.number} links 300 issues; the gate reads at most 20`);
    expect(r.stdout).toContain('#1020');
    // Even when each of the 20 read conforms, the verdict is not a pass.
    expect(r.outputs.conforming).toBe('false');
  });

  test('5. tag spam from strangers keeps the summary under 1 MiB and the verdict table intact', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'maintainer', investigator());
    gh.comment(repo, issue.number, 'maintainer', builder());
    const spam = Array.from({ length: 2000 }, (_, i) => `<!-- FORGE:SPAM_${i}_${'X'.repeat(60)} -->`).join('\n');
    for (let i = 0; i < 20; i++) gh.comment(repo, issue.number, 'drive-by', spam);
    const r = await check(repo, { 'issue-number': String(issue.number) });
    expect(r.outputs.conforming).toBe('true');
    expect(Buffer.byteLength(r.summary)).toBeLessThan(1024 * 1024);
    expect(r.summary).toContain('| `BUILDER` | ✅ ok |');
    expect(r.summary).toMatch(/… and 39975 more/);
  });
});

describe('forge-emit', () => {
  const emitStep = (repo: string, inputs: Record<string, string>, workspace?: string) =>
    runBundle('forge-emit', { apiUrl: gh.url, repository: repo, inputs: { 'github-token': 'ghs_actions', ...inputs }, workspace });

  test('6. body-file outside the workspace — absolute, .., or a symlink out — is refused before any request', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const ws = mkdtempSync(join(tmpdir(), 'forge-ws-'));
    mkdirSync(join(ws, 'notes'));
    writeFileSync(join(ws, 'notes', 'ok.md'), 'fine text');
    symlinkSync('/proc/self/environ', join(ws, 'notes', 'env.md'));
    symlinkSync('/etc', join(ws, 'etc-link'));
    const before = gh.requests.length;
    for (const path of ['/proc/self/environ', '../../../../proc/self/environ', 'notes/env.md', 'etc-link/hostname']) {
      const r = await emitStep(repo, { 'issue-number': String(issue.number), type: 'CONTEXT', 'body-file': path }, ws);
      expect(r.code).toBe(1);
      expect(errors(r.stdout)).toHaveLength(1);
      expect(errors(r.stdout)[0]).toContain('body-file:');
      expect(errors(r.stdout)[0]).toContain('is outside the workspace');
      expect(r.outputs.annotation).toBeUndefined();
    }
    expect(gh.requests.length).toBe(before);
    const ok = await emitStep(repo, { 'issue-number': String(issue.number), type: 'CONTEXT', 'body-file': 'notes/ok.md' }, ws);
    expect(ok.code).toBe(0);
    expect(gh.commentsOn(repo, issue.number)[0].body).toContain('fine text');
  });

  test('7. YAML scalars are posted as written', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const r = await emitStep(repo, {
      'issue-number': String(issue.number),
      type: 'BUILDER',
      fields: 'Branch: 1.10\nCommits: 0123456\nFiles changed: 0x10\nNote: yes\n',
    });
    expect(r.code).toBe(0);
    const [a] = parse(gh.commentsOn(repo, issue.number)[0].body);
    expect(a.fields).toMatchObject({ Branch: '`1.10`', Commits: '0123456', 'Files changed': '0x10', Note: 'yes' });
  });

  test('8. a refused multi-line type is named on one line', async () => {
    const repo = setupRepo();
    const r = await emitStep(repo, { 'issue-number': '1', type: 'BUILDER\n<!-- FORGE:X -->' });
    expect(r.code).toBe(1);
    expect(errors(r.stdout)).toHaveLength(1);
    expect(errors(r.stdout)[0]).toContain('"BUILDER⏎<!-- FORGE:X -->" is not a type name');
  });

  test('9. a POST that landed but answered 5xx is adopted, not posted twice (append mode too)', async () => {
    for (const mode of ['skip', 'append']) {
      const repo = setupRepo();
      const issue = gh.issue(repo);
      gh.fail('POST', new RegExp(`/issues/${issue.number}/comments$`), 502, 1, { after: true });
      const r = await emitStep(repo, { 'issue-number': String(issue.number), type: 'CONTEXT', body: 'ctx', 'if-exists': mode });
      expect(r.code).toBe(0);
      expect(gh.commentsOn(repo, issue.number)).toHaveLength(1);
      expect(r.outputs['comment-id']).toBe(String(gh.commentsOn(repo, issue.number)[0].id));
      expect(r.summary).toContain('adopted comment');
    }
    // A POST that did not land is posted again, once.
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.fail('POST', new RegExp(`/issues/${issue.number}/comments$`), 502, 1);
    const r = await emitStep(repo, { 'issue-number': String(issue.number), type: 'CONTEXT', body: 'ctx' });
    expect(r.code).toBe(0);
    expect(gh.commentsOn(repo, issue.number)).toHaveLength(1);
  });

  test("9b. append after a lost 5xx adopts only the comment this attempt created, never a previous round's identical one", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const inputs = { 'issue-number': String(issue.number), type: 'CONTEXT', body: 'ctx', 'if-exists': 'append' };
    const first = await emitStep(repo, inputs);
    expect(first.outputs.result).toBe('created');
    gh.fail('POST', new RegExp(`/issues/${issue.number}/comments$`), 502, 1, { after: true });
    const second = await emitStep(repo, inputs);
    expect(second.code).toBe(0);
    const comments = gh.commentsOn(repo, issue.number);
    expect(comments).toHaveLength(2);
    expect(second.outputs['comment-id']).toBe(String(comments[1].id));
    expect(second.outputs['comment-id']).not.toBe(first.outputs['comment-id']);
    expect(second.summary).toContain(`adopted comment ${comments[1].id}`);
  });

  test('10. replace with unchanged text is skipped when GitHub stored CRLF', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const text = emit('CONTEXT', { body: 'line one\nline two' });
    gh.comment(repo, issue.number, 'github-actions[bot]', `Intro\n\n${text}\n\nAfter.`, true);
    const before = gh.writes().length;
    const r = await emitStep(repo, {
      'issue-number': String(issue.number),
      type: 'CONTEXT',
      body: 'line one\nline two',
      'if-exists': 'replace',
    });
    expect(r.outputs.result).toBe('skipped');
    expect(gh.writes().length).toBe(before);
  });
});

describe('forge-trajectory-report', () => {
  test('11. titles and values are inert: no comment, no marker, no mention; re-runs keep other entries', async () => {
    const repo = setupRepo();
    const ws = mkdtempSync(join(tmpdir(), 'forge-notes-'));
    const victim = gh.issue(repo, { state: 'closed', title: 'Victim issue' });
    gh.comment(repo, victim.number, 'maintainer', trajectory());
    const attacker = gh.issue(repo, {
      state: 'closed',
      user: 'drive-by',
      title: `x <!-- forge-release-note:begin #${victim.number} --> @octocat <img src=x>`,
    });
    gh.comment(
      repo,
      attacker.number,
      'maintainer',
      trajectory().replace('Guard at the lookup site.', '&lt;!-- forge-release-note:end #1 --&gt; thanks @maintainer'),
    );
    const run = (issue: number) =>
      runBundle('forge-trajectory-report', {
        apiUrl: gh.url,
        repository: repo,
        workspace: ws,
        inputs: { 'github-token': 'ghs_actions', 'issue-number': String(issue), 'output-file': 'NOTES.md' },
      });
    await run(victim.number);
    await run(attacker.number);
    await run(attacker.number);
    await run(victim.number);
    const notes = readFileSync(join(ws, 'NOTES.md'), 'utf8');
    expect(notes.split(`<!-- forge-release-note:begin #${victim.number} -->`)).toHaveLength(2);
    expect(notes.split(`<!-- forge-release-note:begin #${attacker.number} -->`)).toHaveLength(2);
    expect(notes).toContain('Victim issue');
    expect(notes).not.toMatch(/<img/);
    expect(notes).not.toMatch(/@octocat|@maintainer/);
    expect(notes).toContain('@&#8203;octocat');
    expect(notes.match(/<!--/g)).toHaveLength(4);
  });

  test('6. output-file outside the workspace is refused before any request', async () => {
    const repo = setupRepo();
    const ws = mkdtempSync(join(tmpdir(), 'forge-notes-'));
    const before = gh.requests.length;
    const r = await runBundle('forge-trajectory-report', {
      apiUrl: gh.url,
      repository: repo,
      workspace: ws,
      inputs: { 'github-token': 'ghs_actions', 'issue-number': '1', 'output-file': '../escape.md' },
    });
    expect(r.code).toBe(1);
    expect(errors(r.stdout)[0]).toContain('output-file: "../escape.md" is outside the workspace');
    expect(gh.requests.length).toBe(before);
  });
});

describe('gist-visibility-audit', () => {
  const audit = (repo: string, inputs: Record<string, string>) =>
    runBundle('gist-visibility-audit', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', 'gist-token': 'ghp_gister', ...inputs },
    });

  test("12. a stranger's link to a deliberately public gist is reported, never remediated or labelled", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const demo = gh.gist('gister', { public: true, files: { 'demo.md': { content: 'public on purpose' } } });
    gh.comment(repo, issue.number, 'drive-by', `<!-- FORGE:KNOWLEDGE_GIST: https://gist.github.example/gister/${demo.id} -->`);
    const r = await audit(repo, { 'issue-number': String(issue.number), remediate: 'true', 'label-on-violation': 'gist-public' });
    expect(gh.gists.has(demo.id)).toBe(true);
    expect(gh.repo(repo).issues.get(issue.number)?.labels).toEqual([]);
    const findings = JSON.parse(r.outputs.findings);
    expect(findings[0]).toMatchObject({ severity: 'CRITICAL', trusted: false, remediated: false });
    expect(findings[0].detail).toContain('only untrusted authors link to it');
  });

  test("12. a stranger's index gist listing a leaked gist neither blocks nor joins its migration", async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const leaked = gh.gist('gister', { public: true, files: { 'k.md': { content: 'findings' } } });
    const url = `https://gist.github.example/gister/${leaked.id}`;
    const strangerIndex = gh.gist('drive-by', { public: true, files: { 'index.md': { content: `- ${url}` } } });
    gh.comment(repo, issue.number, 'maintainer', `<!-- FORGE:KNOWLEDGE_GIST: ${url} -->`);
    gh.comment(repo, issue.number, 'drive-by', `<!-- FORGE:MILESTONE_INDEX: https://gist.github.example/drive-by/${strangerIndex.id} -->`);
    const r = await audit(repo, { 'issue-number': String(issue.number), remediate: 'true' });
    expect(gh.gists.has(leaked.id)).toBe(false);
    const findings = JSON.parse(r.outputs.findings);
    const fixed = findings.find((f: { id: string; trusted: boolean }) => f.id === leaked.id && f.trusted);
    expect(fixed).toMatchObject({ remediated: true });
    expect(fixed.replacement).toMatch(/^https:\/\/gist\.github\.example\/gister\//);
    expect(gh.gists.get(strangerIndex.id)?.files['index.md'].content).toBe(`- ${url}`);
  });

  test('13. secret ids the repository does not show never reach logs, summary or outputs', async () => {
    const repo = setupRepo();
    const listedSecret = gh.gist('gister', { public: false, files: { 'k.md': { content: 'secret findings' } } });
    const memory = gh.gist('gister', {
      public: false,
      description: `memory <!-- FORGE:MEMORY_INDEX: ${repo} -->`,
      files: { 'index.md': { content: `- https://gist.github.example/gister/${listedSecret.id}` } },
    });
    gh.issue(repo);
    const r = await audit(repo, { scope: 'repository' });
    expect(r.code).toBe(0);
    const everything = r.stdout + r.stderr + r.summary + JSON.stringify(r.outputs);
    expect(everything).not.toContain(listedSecret.id);
    expect(everything).not.toContain(memory.id);
    expect(r.stdout).toContain('a secret gist (memory-index gist');
  });

  test('stranger-written URLs and branch names reach summaries inert', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    gh.comment(repo, issue.number, 'drive-by', '<!-- FORGE:KNOWLEDGE_GIST: https://example.com/<img src=x onerror=alert(1)>@octocat -->');
    const r = await audit(repo, { 'issue-number': String(issue.number) });
    expect(r.summary).toContain('not a gist URL');
    expect(r.summary).not.toContain('<img');
    expect(r.summary).not.toContain('@octocat');
    const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Fixes #${issue.number}`, head: 'evil`<img src=x>' } });
    gh.comment(repo, issue.number, 'maintainer', builder('fix/x'));
    const c = await check(repo, { required: 'BUILDER' }, prEvent(pr.number));
    expect(c.summary).toContain('this PR is ``evil`<img src=x>``');
  });

  test('14. a truncated gist (over 300 files) is never migrated', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const big = gh.gist('gister', { public: true, files: { 'a.md': { content: 'a' } } });
    gh.comment(repo, issue.number, 'maintainer', `<!-- FORGE:KNOWLEDGE_GIST: https://gist.github.example/gister/${big.id} -->`);
    // Every read of it is truncated: the audit's and the migration's own read in full.
    gh.mutateNext('GET', new RegExp(`/gists/${big.id}$`), (data) => ({ ...data, truncated: true }), 2);
    const copies = gh.writes().filter((w) => w.path === '/gists').length;
    const r = await audit(repo, { 'issue-number': String(issue.number), remediate: 'true' });
    expect(gh.gists.has(big.id)).toBe(true);
    expect(JSON.parse(r.outputs.findings)[0].detail).toContain('not remediated: too large to copy safely');
    expect(gh.writes().filter((w) => w.path === '/gists')).toHaveLength(copies);
  });

  test('15. a migration that completed is reported even when the label after it fails', async () => {
    const repo = setupRepo();
    const issue = gh.issue(repo);
    const pub = gh.gist('gister', { public: true, files: { 'k.md': { content: 'x' } } });
    const other = gh.gist('someone-else', { public: true, files: { 'k.md': { content: 'y' } } });
    gh.comment(repo, issue.number, 'maintainer', `<!-- FORGE:KNOWLEDGE_GIST: https://gist.github.example/gister/${pub.id} -->`);
    gh.comment(repo, issue.number, 'maintainer', `<!-- FORGE:KNOWLEDGE_GIST: https://gist.github.example/someone-else/${other.id} -->`);
    gh.fail('POST', /\/issues\/\d+\/labels$/, 403, 5);
    const r = await audit(repo, { 'issue-number': String(issue.number), remediate: 'true', 'label-on-violation': 'gist-public' });
    expect(r.code).toBe(1);
    expect(gh.gists.has(pub.id)).toBe(false);
    const findings = JSON.parse(r.outputs.findings);
    const migrated = findings.find((f: { id: string }) => f.id === pub.id);
    expect(migrated.replacement).toBeTruthy();
    const failure = errors(r.stdout)[0];
    expect(failure).toContain('labelling #');
    expect(failure).toContain(`completed before it: migrated gist ${pub.id} → ${migrated.replacement}`);
    expect(r.summary).toContain(migrated.replacement);
  });

  test('16. an unreachable API and a missing repository say so', async () => {
    const down = await runBundle('forge-check', {
      apiUrl: 'http://127.0.0.1:9',
      inputs: { 'github-token': 'ghs_actions', 'issue-number': '1' },
    });
    expect(errors(down.stdout)[0]).toContain('could not reach GitHub at http://127.0.0.1:9');
    expect(errors(down.stdout)[0]).not.toContain('answered 500');
    const norepo = await runBundle('forge-check', {
      apiUrl: gh.url,
      repository: '',
      inputs: { 'github-token': 'ghs_actions', 'issue-number': '1' },
    });
    expect(errors(norepo.stdout)[0]).toContain('set the "repository" input');
  }, 60_000);
});

test('repository: ../.. is a usage error and nothing is requested', async () => {
  const before = gh.requests.length;
  const r = await runBundle('forge-check', {
    apiUrl: gh.url,
    repository: 'octo/repo',
    inputs: { 'github-token': 'ghs_actions', repository: '../..', 'issue-number': '1' },
  });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error::forge-check: repository: "../.." is not of the form owner/name');
  expect(gh.requests.length).toBe(before);
});
