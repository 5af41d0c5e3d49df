/**
 * Behind a proxy the bundle still reaches GitHub: the proxy stack (undici and
 * @actions/http-client's agent) is a chunk of its own that only a step behind
 * HTTPS_PROXY/HTTP_PROXY loads. Run from dist/ as the runner runs it, through a
 * real CONNECT proxy on loopback in front of the OpenAPI-checked fake GitHub.
 */
import { type ConnectProxy, connectProxy } from './support/connect-proxy.js';
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
let proxy: ConnectProxy;

beforeAll(async () => {
  gh = server();
  proxy = await connectProxy(Number(new URL(gh.url).port));
});

afterAll(() => new Promise<void>((resolve) => proxy.server.close(() => resolve())));

test('forge-check from the bundle goes through HTTP_PROXY, and NO_PROXY exempts', async () => {
  const repo = 'octo/proxied';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  const port = new URL(gh.url).port;
  // Not a loopback name: loopback addresses are never proxied.
  const apiUrl = `http://github.proxy.test:${port}`;
  const env = { HTTP_PROXY: proxy.url };
  const inputs = { 'github-token': 'ghs_actions', 'issue-number': String(issue.number) };
  const r = await runBundle('forge-check', { apiUrl, repository: repo, inputs, env });
  expect(r.stderr).toBe('');
  expect(r.outputs.conforming).toBe('true');
  expect(proxy.tunnels.length).toBeGreaterThan(0);
  expect(new Set(proxy.tunnels)).toEqual(new Set([`github.proxy.test:${port}`]));

  proxy.tunnels.length = 0;
  const direct = await runBundle('forge-check', { apiUrl: gh.url, repository: repo, inputs, env: { ...env, NO_PROXY: '127.0.0.1' } });
  expect(direct.outputs.conforming).toBe('true');
  expect(proxy.tunnels).toEqual([]);
});
