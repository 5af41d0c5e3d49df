/**
 * actions/forge-gate, the composite PR gate, run step by step as the runner
 * runs composites: inputs through env: into the bundle, outputs back out.
 */
import type { FakeGitHub } from './support/github-server.js';
import { runComposite } from './support/run-action.js';
import { builder, investigator, reviewer } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

const prEvent = (number: number) => ({ name: 'pull_request', payload: { number, pull_request: { number } } });
const gate = (repo: string, pr: number, inputs: Record<string, string> = {}) =>
  runComposite('forge-gate', { apiUrl: gh.url, repository: repo, event: prEvent(pr), githubToken: 'ghs_actions', inputs });

test('the PR gate with its defaults: REVIEWER required, a status comment kept, outputs passed through', async () => {
  const repo = 'octo/gate';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder('fix/x'));
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: `Closes #${issue.number}`, head: 'fix/x' } });
  const r = await gate(repo, pr.number);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(1);
  expect(r.outputs).toMatchObject({ conforming: 'false', missing: 'REVIEWER', incomplete: '', invalid: '' });
  const comments = (gh.repos.get(repo)?.comments ?? []).filter(
    (c) => c.issue === pr.number && c.body.startsWith('<!-- forge-check status comment'),
  );
  expect(comments).toHaveLength(1);
  expect(r.outputs['comment-url']).toBe(`https://github.example/${repo}/pull/${pr.number}#issuecomment-${comments[0].id}`);
  expect(r.summary).toContain('## FORGE conformance: ❌ not conforming');

  gh.comment(repo, pr.number, 'maintainer', reviewer());
  const ok = await gate(repo, pr.number);
  expect(ok.code).toBe(0);
  expect(ok.outputs.conforming).toBe('true');
});

test('inputs with shell metacharacters reach the action as data, never as script', async () => {
  const repo = 'octo/gate-inputs';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const pr = gh.issue(repo, { user: 'maintainer', pull: { body: null, head: 'x' } });
  const r = await gate(repo, pr.number, { required: 'INVESTIGATOR"; echo INJECTED; "', comment: 'false' });
  expect(r.code).toBe(1);
  expect(r.stdout).not.toMatch(/^INJECTED$/m);
  // The value arrives whole (the list is split on spaces and commas, so its first odd entry is named).
  expect(r.stdout).toContain('required: "INVESTIGATOR\\";" is not a FORGE type name');
  const quiet = await gate(repo, pr.number, { required: 'minimal', comment: 'false', 'fail-on-violation': 'false' });
  expect(quiet.code).toBe(0);
  expect(quiet.outputs).toMatchObject({ conforming: 'false', missing: 'INVESTIGATOR,BUILDER', 'comment-url': '' });
});
