import { emit, parse } from '../src/codec/index.js';
import type { FakeGitHub, Gist } from './support/github-server.js';
import { useFakeGitHub } from './support/use-fake-github.js';
import { runBundle, type RunResult } from './support/run-action.js';

const SECRET_TEXT = 'TOP-SECRET-ROOT-CAUSE-7f3a';
const server = useFakeGitHub((g) => g.token('ghp_user', 'octo-owner', 'user'));
let gh: FakeGitHub;
const transcripts: string[] = [];

beforeAll(() => {
  gh = server();
});
afterAll(() => {
  // Gist file contents never reach logs or summaries, in any run of this file.
  expect(transcripts.length).toBeGreaterThan(10);
  for (const t of transcripts) expect(t).not.toContain(SECRET_TEXT);
});

let n = 0;
function setupRepo() {
  const repo = `octo/gists${++n}`;
  gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'drive-by': 'NONE' });
  return repo;
}

const gistUrl = (g: Gist) => `https://gist.github.example/${g.owner}/${g.id}`;
const knowledge = (url: string) => emit('KNOWLEDGE_GIST', { value: url });
const files = () => ({
  'repo_1_root-cause.md': { content: `---\nissue: 1\n---\n${SECRET_TEXT}\n` },
  'extra.txt': { content: `more ${SECRET_TEXT}` },
});

async function audit(repo: string, inputs: Record<string, string>, event?: { name: string; payload: unknown }): Promise<RunResult> {
  const r = await runBundle('gist-visibility-audit', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', 'gist-token': 'ghp_user', ...inputs },
    event,
  });
  transcripts.push(r.stdout, r.stderr, r.summary, r.outputs.findings ?? '');
  return r;
}

test('a secret gist passes', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  const g = gh.gist('octo-owner', { public: false, files: files() });
  gh.comment(repo, issue.number, 'maintainer', knowledge(gistUrl(g)));
  const r = await audit(repo, {}, { name: 'issues', payload: { action: 'closed', issue: { number: issue.number } } });
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ checked: '1', public: '0', missing: '0', findings: '[]' });
  expect(r.summary).toContain('✅ no public gists');
});

test('a public gist fails with CRITICAL and the label; untrusted posters are audited too', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  const mine = gh.gist('octo-owner', { public: true, files: files() });
  const theirs = gh.gist('drive-by', { public: true });
  gh.comment(repo, issue.number, 'maintainer', knowledge(`${gistUrl(mine)}#file-repo_1_root-cause-md`));
  gh.comment(repo, issue.number, 'drive-by', knowledge(`https://gist.github.example/drive-by/${theirs.id}/raw/abc/notes.md`));
  const r = await audit(repo, { 'issue-number': String(issue.number), 'label-on-violation': 'needs-human' });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error::2 public FORGE gist(s)');
  const findings = JSON.parse(r.outputs.findings);
  expect(findings).toEqual([
    expect.objectContaining({
      id: mine.id,
      public: true,
      type: 'KNOWLEDGE_GIST',
      severity: 'CRITICAL',
      trusted: true,
      remediated: false,
      source: expect.stringContaining(`on #${issue.number}`),
    }),
    expect.objectContaining({ id: theirs.id, public: true, severity: 'CRITICAL', trusted: false }),
  ]);
  expect(r.outputs.public).toBe('2');
  expect(gh.repo(repo).issues.get(issue.number)?.labels).toEqual(['needs-human']);
});

test('a dangling gist and a non-gist URL are warnings', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', knowledge('https://gist.github.example/octo-owner/0000000000000000000000000000dead'));
  gh.comment(repo, issue.number, 'maintainer', knowledge('https://example.com/not-a-gist'));
  const r = await audit(repo, { 'issue-number': String(issue.number) });
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ checked: '1', public: '0', missing: '1' });
  const findings = JSON.parse(r.outputs.findings);
  expect(findings.map((f: { severity: string; detail: string }) => [f.severity, f.detail])).toEqual([
    ['WARNING', 'dangling reference: the gist does not exist (404)'],
    ['WARNING', 'not a gist URL'],
  ]);
  expect(r.stdout).toContain('::warning::');
});

test('milestone scope: the index gist in the description is followed one level', async () => {
  const repo = setupRepo();
  const m = gh.milestone(repo, { title: 'v1' });
  const leaked = gh.gist('octo-owner', {
    public: true,
    files: { 'k.md': { content: `${SECRET_TEXT} https://gist.github.example/octo-owner/${'b'.repeat(32)}` } },
  });
  const fine = gh.gist('octo-owner', { public: false });
  const index = gh.gist('octo-owner', {
    public: false,
    files: { 'index.md': { content: `- ${gistUrl(leaked)}\n- ${gistUrl(fine)}.git\n` } },
  });
  gh.repo(repo).milestones.get(m.number)!.description = `Release.\n\n${emit('MILESTONE_INDEX', { value: gistUrl(index) })}`;
  const sub = gh.issue(repo, { milestone: m.number, body: emit('PRIOR_GIST', { value: gistUrl(fine) }) });
  void sub;
  const r = await audit(repo, { scope: 'milestone', milestone: 'v1' });
  expect(r.code).toBe(1);
  expect(r.outputs.checked).toBe('3'); // index, leaked, fine — the link inside the leaked gist is not followed
  const [f] = JSON.parse(r.outputs.findings);
  expect(f).toMatchObject({ id: leaked.id, severity: 'CRITICAL', source: `index gist ${index.id}, file index.md` });
});

test('repository scope finds PRIOR_GIST in bodies and the memory-index gist', async () => {
  const repo = setupRepo();
  const leaked = gh.gist('octo-owner', { public: true });
  gh.gist('octo-owner', {
    public: false,
    description: `memory <!-- FORGE:MEMORY_INDEX: ${repo} -->`,
    files: { 'index.md': { content: `${gistUrl(leaked)}` } },
  });
  const closed = gh.issue(repo, {
    state: 'closed',
    body: emit('PRIOR_GIST', { value: gistUrl(gh.gist('octo-owner', { public: false })) }),
  });
  void closed;
  const r = await audit(repo, {});
  expect(r.code).toBe(1);
  expect(r.outputs.checked).toBe('3');
  expect(JSON.parse(r.outputs.findings)[0]).toMatchObject({ id: leaked.id, source: expect.stringContaining('index gist') });
});

test('an App installation token is refused: the audit is unfinished, never a pass', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', knowledge(gistUrl(gh.gist('octo-owner', { public: false }))));
  const r = await audit(repo, { 'issue-number': String(issue.number), 'gist-token': 'ghs_actions' });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('gist endpoints refuse GitHub App installation tokens');
  expect(r.outputs.checked).toBe('0');
});

test('anonymous reads stop cleanly when the rate limit runs out, reporting what was checked', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  for (let i = 0; i < 3; i++) gh.comment(repo, issue.number, 'maintainer', knowledge(gistUrl(gh.gist('octo-owner', { public: false }))));
  gh.anonymousLimit = 2;
  gh.rateLimit.delete('anonymous');
  try {
    const r = await audit(repo, { 'issue-number': String(issue.number), 'gist-token': '' });
    expect(r.code).toBe(1);
    expect(r.outputs.checked).toBe('2');
    expect(r.stdout).toContain('::notice::No gist-token: reading gists anonymously');
    expect(r.stdout).toContain('anonymous gist rate limit (60 requests an hour) ran out');
    expect(gh.requests.filter((q) => q.path.startsWith('/gists/') && q.token === null).length).toBeGreaterThanOrEqual(3);
  } finally {
    gh.anonymousLimit = 60;
  }
});

function remediationSetup() {
  const repo = setupRepo();
  const issue = gh.issue(repo, { body: 'Sub-issue.' });
  const pub = gh.gist('octo-owner', { public: true, description: 'octo/repo #1 investigation', files: files() });
  const c = gh.comment(repo, issue.number, 'github-actions[bot]', `Findings stored.\n\n${knowledge(gistUrl(pub))}\n\nThanks.`);
  gh.repo(repo).issues.get(issue.number)!.body = `Sub-issue.\n\n${emit('PRIOR_GIST', { value: gistUrl(pub) })}`;
  return { repo, issue, pub, comment: c, original: JSON.stringify(pub.files) };
}

test('remediation: a secret copy with identical files, references rewritten, the public gist deleted', async () => {
  const { repo, issue, pub, comment, original } = remediationSetup();
  const r = await audit(repo, { 'issue-number': String(issue.number), remediate: 'true' });
  expect(r.code).toBe(0);
  expect(gh.gists.has(pub.id)).toBe(false);
  const copies = [...gh.gists.values()].filter((g) => g.description === 'octo/repo #1 investigation');
  expect(copies).toHaveLength(1);
  expect(copies[0].public).toBe(false);
  expect(JSON.stringify(copies[0].files)).toBe(original);
  const newUrl = `https://gist.github.example/octo-owner/${copies[0].id}`;
  const body = gh.commentsOn(repo, issue.number).find((x) => x.id === comment.id)!.body;
  expect(parse(body)[0].inlineValue).toBe(newUrl);
  expect(body.startsWith('Findings stored.')).toBe(true);
  expect(body.endsWith('Thanks.')).toBe(true);
  expect(parse(gh.repo(repo).issues.get(issue.number)!.body!)[0].inlineValue).toBe(newUrl);
  const findings = JSON.parse(r.outputs.findings);
  expect(findings.every((f: { remediated: boolean }) => f.remediated)).toBe(true);
  expect(r.outputs.public).toBe('1');
  expect(r.summary).toContain('✅ all public gists remediated');
});

describe('remediation with a fault at each step loses no content and reports honestly', () => {
  const cases: Array<[string, (s: ReturnType<typeof remediationSetup>) => void, RegExp]> = [
    [
      'create fails',
      () => gh.fail('POST', /^\/gists$/, 422, 1),
      /not remediated: creating the secret copy failed.*the public gist is unchanged/,
    ],
    [
      'read-back differs',
      (s) =>
        gh.mutateNext('GET', new RegExp(`^/gists/(?!${s.pub.id})[0-9a-f]+$`), (d) => ({
          ...d,
          files: { ...d.files, 'extra.txt': { ...d.files['extra.txt'], content: 'tampered' } },
        })),
      /read back with different files; removed the copy again; the public gist is unchanged/,
    ],
    [
      'annotation edit fails',
      (s) => gh.fail('PATCH', new RegExp(`/issues/comments/${s.comment.id}$`), 422, 1),
      /rewriting comment \d+ on #\d+ failed .*created secret copy [0-9a-f]+; rewrote body of #\d+; the public gist is unchanged/,
    ],
    [
      'delete fails',
      (s) => gh.fail('DELETE', new RegExp(`^/gists/${s.pub.id}$`), 422, 1),
      /deleting gist [0-9a-f]+ failed.*created secret copy [0-9a-f]+; rewrote body of #\d+; rewrote comment \d+ on #\d+ — the public gist is still there/,
    ],
  ];
  test.each(cases)('%s', async (_name, inject, message) => {
    const s = remediationSetup();
    inject(s);
    const r = await audit(s.repo, { 'issue-number': String(s.issue.number), remediate: 'true' });
    expect(r.code).toBe(1);
    expect(gh.gists.get(s.pub.id)?.public).toBe(true);
    expect(JSON.stringify(gh.gists.get(s.pub.id)?.files)).toBe(s.original);
    const findings = JSON.parse(r.outputs.findings);
    expect(findings[0].remediated).toBe(false);
    expect(findings[0].detail).toMatch(message);
    expect(r.summary).toMatch(message);
  });
});

test("a failed DELETE of the public gist is named in the step's error line itself: it is still public", async () => {
  const s = remediationSetup();
  gh.fail('DELETE', new RegExp(`^/gists/${s.pub.id}$`), 422, 1);
  const r = await audit(s.repo, { 'issue-number': String(s.issue.number), remediate: 'true' });
  expect(r.code).toBe(1);
  const errors = r.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(`deleting public gist ${s.pub.id} failed — it is still public`);
  expect(errors[0]).toContain('FORGE gists must be secret');
});

test('dry-run writes nothing, labels included, and prints the plan', async () => {
  const { repo, issue, pub } = remediationSetup();
  const before = gh.writes().length;
  const r = await audit(repo, {
    'issue-number': String(issue.number),
    remediate: 'true',
    'label-on-violation': 'needs-human',
    'dry-run': 'true',
  });
  expect(gh.writes().length).toBe(before);
  expect(r.stdout).toContain(`[dry-run] would migrate public gist ${pub.id}`);
  expect(r.stdout).toContain(`[dry-run] would label #${issue.number} needs-human`);
  expect(r.code).toBe(1);
});

test('bad inputs fail before any request', async () => {
  const repo = setupRepo();
  const before = gh.requests.length;
  const r = await audit(repo, { 'gist-token': '', remediate: 'true' });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error::gist-visibility-audit: remediate: true needs gist-token');
  const s = await audit(repo, { scope: 'org' });
  expect(s.stdout).toContain('input "scope" must be one of issue, milestone, repository');
  expect(gh.requests.length).toBe(before);
});

test("the gist-token user's gists come from GET /gists; others are read a few at a time", async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  // 150 own gists (2 listing pages), 40 of them referenced, 3 public; 12 others' gists referenced.
  const own = Array.from({ length: 150 }, (_, i) => gh.gist('octo-owner', { public: i % 50 === 7 }));
  const referenced = own.slice(0, 40);
  const foreign = Array.from({ length: 12 }, (_, i) => gh.gist(`writer${i}`, { public: false }));
  for (const g of [...referenced, ...foreign]) gh.comment(repo, issue.number, 'maintainer', knowledge(gistUrl(g)));
  const before = gh.requests.length;
  gh.maxInFlight = 0;
  gh.latencyMs = 20;
  const r = await audit(repo, { 'issue-number': String(issue.number), 'fail-on-public': 'false' });
  gh.latencyMs = 0;
  const requests = gh.requests.slice(before);
  expect(r.code).toBe(0);
  expect(r.outputs).toMatchObject({ checked: '52', public: '1' });
  // One read of the issue and its comments + 2 listing pages + one read per foreign gist; none per own gist.
  expect(requests.filter((q) => q.path === '/gists')).toHaveLength(2);
  const single = requests.filter((q) => q.path.startsWith('/gists/')).map((q) => q.path.slice('/gists/'.length));
  expect(single.sort()).toEqual(foreign.map((g) => g.id).sort());
  // The issue and its comments in one read, the listing's two pages, and the twelve others' gists.
  expect(requests).toHaveLength(1 + 2 + 12);
  // Bounded concurrency: more than one read in flight, never more than four.
  expect(gh.maxInFlight).toBeGreaterThan(1);
  expect(gh.maxInFlight).toBeLessThanOrEqual(4);
  // The log still names each gist in the order it was referenced.
  const order = r.stdout
    .split('\n')
    .filter((l) => /^gist [0-9a-f]+: (PUBLIC|secret)/.test(l))
    .map((l) => l.split(':')[0].slice(5));
  expect(order).toEqual([...referenced, ...foreign].map((g) => g.id));
});

test('with one referenced gist the audit asks for it directly, not for the whole listing', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  const g = gh.gist('octo-owner', { public: false });
  gh.comment(repo, issue.number, 'maintainer', knowledge(gistUrl(g)));
  const before = gh.requests.length;
  const r = await audit(repo, { 'issue-number': String(issue.number) });
  expect(r.code).toBe(0);
  expect(gh.requests.slice(before).map((q) => q.path)).toEqual([
    // The issue and its comments: one GraphQL read.
    '/graphql',
    `/gists/${g.id}`,
  ]);
});

test('when the listing would cost more pages than the gists it could answer, it stops after the first page', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  // The user now owns 300+ gists (4 pages); two old ones are referenced.
  const old = [gh.gist('octo-owner'), gh.gist('octo-owner')];
  for (let i = 0; i < 150; i++) gh.gist('octo-owner');
  for (const g of old) gh.comment(repo, issue.number, 'maintainer', knowledge(gistUrl(g)));
  const before = gh.requests.length;
  const r = await audit(repo, { 'issue-number': String(issue.number) });
  expect(r.code).toBe(0);
  const paths = gh.requests.slice(before).map((q) => q.path);
  expect(paths.filter((p) => p === '/gists')).toHaveLength(1);
  expect(paths.filter((p) => p.startsWith('/gists/')).length).toBeLessThanOrEqual(2);
});

test('the secret copy landed but its answer was a 502: read back among the owner’s gists, not copied twice', async () => {
  const { repo, issue, pub } = remediationSetup();
  // An older copy of the same files (an earlier run's) is not this run's copy.
  const older = gh.gist('octo-owner', { public: false, description: 'octo/repo #1 investigation', files: files() });
  const before = new Set(gh.gists.keys());
  gh.fail('POST', /^\/gists$/, 502, 1, { after: true });
  const r = await audit(repo, { 'issue-number': String(issue.number), remediate: 'true' });
  expect(r.code).toBe(0);
  expect(gh.gists.has(pub.id)).toBe(false);
  const made = [...gh.gists.values()].filter((g) => !before.has(g.id) && g.description === 'octo/repo #1 investigation');
  expect(made).toHaveLength(1);
  expect(gh.gists.has(older.id)).toBe(true);
  const findings = JSON.parse(r.outputs.findings);
  expect(findings.every((f: { remediated: boolean }) => f.remediated)).toBe(true);
  expect(JSON.stringify(findings)).toContain(made[0].id);
});

test('a github.com gist seen from GitHub Enterprise Server is not dangling: reported as not checked, never asked for', async () => {
  const repo = setupRepo();
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', knowledge(`https://gist.github.com/octo-owner/${'e'.repeat(32)}`));
  const from = gh.requests.length;
  const r = await runBundle('gist-visibility-audit', {
    apiUrl: gh.url,
    repository: repo,
    inputs: { 'github-token': 'ghs_actions', 'gist-token': 'ghp_user', 'issue-number': String(issue.number) },
    env: { GITHUB_SERVER_URL: 'https://ghes.example' },
  });
  transcripts.push(r.stdout, r.stderr, r.summary, r.outputs.findings ?? '');
  expect(r.code).toBe(0);
  expect(r.outputs.missing).toBe('0');
  const [f] = JSON.parse(r.outputs.findings);
  expect(f).toMatchObject({ severity: 'WARNING', public: null });
  expect(f.detail).toContain('not checked: a gist on github.com, not on ghes.example');
  expect(r.summary).toContain('not checked (on another GitHub host): 1');
  expect(gh.requests.slice(from).some((q) => q.path.startsWith('/gists/'))).toBe(false);
});
