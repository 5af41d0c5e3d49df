/**
 * The pipeline file as the release notes and the gist audit read it, from the
 * bundles: an agent named once in the file's trusted-authors is believed by
 * both, and an issue's run reads the file in the thread's own request.
 */
import { emit } from '../src/codec/index.js';
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { trajectory } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub((g) => g.token('ghp_user', 'octo-owner', 'user'));
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

const AGENT_FILE = 'trusted-authors: [OWNER, MEMBER, "my-agent[bot]"]\n';

let n = 0;
function setup(file?: string) {
  const repo = `octo/readers${++n}`;
  gh.repo(repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'my-agent[bot]': 'NONE' });
  if (file !== undefined) gh.repo(repo).files.set('.github/forge.yml', file);
  return repo;
}

const contentsReads = (since: number) => gh.requests.slice(since).filter((q) => q.path.includes('/contents/')).length;

describe('forge-trajectory-report', () => {
  const report = (repo: string, number: number) =>
    runBundle('forge-trajectory-report', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions' },
      event: { name: 'issues', payload: { action: 'closed', issue: { number } } },
    });

  test("the file's agent writes the trajectory the notes are made from; the file comes with the thread (1 request)", async () => {
    const repo = setup(AGENT_FILE);
    const issue = gh.issue(repo, { title: 'Checkout fix', state: 'closed' });
    gh.comment(repo, issue.number, 'my-agent[bot]', trajectory());
    const before = gh.requests.length;
    const r = await report(repo, issue.number);
    expect(r.outputs.found).toBe('true');
    expect(r.stdout).toContain('pipeline: .github/forge.yml on main');
    expect(gh.requests.length - before).toBe(1);
    expect(contentsReads(before)).toBe(0);
  });

  test('with no file the agent is not trusted, and the step says so by name', async () => {
    const repo = setup();
    const issue = gh.issue(repo, { title: 'Checkout fix', state: 'closed' });
    gh.comment(repo, issue.number, 'my-agent[bot]', trajectory());
    const r = await report(repo, issue.number);
    expect(r.outputs.found).toBe('false');
    expect(r.stdout + r.summary).toContain('my-agent[bot] (NONE) is not in trusted-authors');
  });
});

describe('gist-visibility-audit', () => {
  const audit = (repo: string, number: number) =>
    runBundle('gist-visibility-audit', {
      apiUrl: gh.url,
      repository: repo,
      inputs: { 'github-token': 'ghs_actions', 'gist-token': 'ghp_user', 'issue-number': String(number) },
    });

  test("a public gist the file's agent links is trusted (remediable); the file comes with the thread", async () => {
    const repo = setup(AGENT_FILE);
    const issue = gh.issue(repo);
    const g = gh.gist('octo-owner', { public: true });
    gh.comment(repo, issue.number, 'my-agent[bot]', emit('KNOWLEDGE_GIST', { value: `https://gist.github.example/octo-owner/${g.id}` }));
    const before = gh.requests.length;
    const r = await audit(repo, issue.number);
    expect(r.stdout).toContain('pipeline: .github/forge.yml on main');
    expect(JSON.parse(r.outputs.findings)).toEqual([expect.objectContaining({ id: g.id, public: true, trusted: true })]);
    expect(contentsReads(before)).toBe(0);
    // Without the file the same link is a stranger's: reported, never acted on.
    const plain = setup();
    const other = gh.issue(plain);
    gh.comment(plain, other.number, 'my-agent[bot]', emit('KNOWLEDGE_GIST', { value: `https://gist.github.example/octo-owner/${g.id}` }));
    expect(JSON.parse((await audit(plain, other.number)).outputs.findings)).toEqual([
      expect.objectContaining({ id: g.id, trusted: false }),
    ]);
  });
});
