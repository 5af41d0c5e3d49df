/**
 * Behind a proxy the bundle still reaches GitHub: the proxy stack (undici and
 * @actions/http-client's agent) is a chunk of its own that only a step behind
 * HTTPS_PROXY/HTTP_PROXY loads. Run from dist/ as the runner runs it, through a
 * real CONNECT proxy on loopback in front of the OpenAPI-checked fake GitHub.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { FakeGitHub } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { builder, investigator } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
const tunnels: string[] = [];
const proxy = createServer();

beforeAll(async () => {
  gh = server();
  const port = Number(new URL(gh.url).port);
  proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
});

afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

test('forge-check from the bundle goes through HTTP_PROXY, and NO_PROXY exempts', async () => {
  const repo = 'octo/proxied';
  gh.repo(repo, { maintainer: 'MEMBER' });
  const issue = gh.issue(repo);
  gh.comment(repo, issue.number, 'maintainer', investigator());
  gh.comment(repo, issue.number, 'maintainer', builder());
  const port = new URL(gh.url).port;
  // Not a loopback name: loopback addresses are never proxied.
  const apiUrl = `http://github.proxy.test:${port}`;
  const env = { HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
  const inputs = { 'github-token': 'ghs_actions', 'issue-number': String(issue.number) };
  const r = await runBundle('forge-check', { apiUrl, repository: repo, inputs, env });
  expect(r.stderr).toBe('');
  expect(r.outputs.conforming).toBe('true');
  expect(tunnels.length).toBeGreaterThan(0);
  expect(new Set(tunnels)).toEqual(new Set([`github.proxy.test:${port}`]));

  tunnels.length = 0;
  const direct = await runBundle('forge-check', { apiUrl: gh.url, repository: repo, inputs, env: { ...env, NO_PROXY: '127.0.0.1' } });
  expect(direct.outputs.conforming).toBe('true');
  expect(tunnels).toEqual([]);
});
