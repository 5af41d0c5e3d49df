/**
 * The client is @actions/github's getOctokit, with the retry and throttling
 * plugins on writes: what it sends (auth, user agent with the run's
 * orchestration id) and how a write that fails for a passing reason is sent
 * again, seen from a loopback server.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../src/github/client.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A server that answers the n-th request with answers[n] (the last one repeats). */
async function serve(answers: Array<{ status: number; headers?: Record<string, string>; body: unknown }>) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const a = answers[Math.min(seen.length - 1, answers.length - 1)];
      res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
const saved = process.env.ACTIONS_ORCHESTRATION_ID;
afterAll(async () => {
  if (saved === undefined) delete process.env.ACTIONS_ORCHESTRATION_ID;
  else process.env.ACTIONS_ORCHESTRATION_ID = saved;
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

test("reads and writes carry getOctokit's auth and the run's orchestration id in the user agent", async () => {
  process.env.ACTIONS_ORCHESTRATION_ID = 'run 42/x';
  const gh = await serve([{ status: 200, body: { id: 1, number: 3 } }]);
  const client = createClient('ghs_secret', { baseUrl: gh.url });
  await client.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 3 });
  await client.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 3, body: 'x' });
  expect(gh.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /repos/o/r/issues/3', 'POST /repos/o/r/issues/3/comments']);
  for (const s of gh.seen) {
    expect(s.headers.authorization).toBe('token ghs_secret');
    // @actions/github's sanitising: anything but [a-z0-9_.-] becomes `_`.
    expect(s.headers['user-agent']).toMatch(/^actions_orchestration_id\/run_42_x octokit-core\.js\//);
  }
});

test('an anonymous client sends no Authorization header at all', async () => {
  const gh = await serve([{ status: 200, body: { id: 'abc', public: false } }]);
  await createClient('', { baseUrl: gh.url, anonymous: true }).rest.gists.get({ gist_id: 'abc' });
  expect(gh.seen).toHaveLength(1);
  expect(gh.seen[0].headers.authorization).toBeUndefined();
});

test('a write answered 502 is sent again by the retry plugin, and succeeds', async () => {
  const gh = await serve([
    { status: 502, body: { message: 'Server Error' } },
    { status: 201, body: { id: 9 } },
  ]);
  const said: string[] = [];
  const client = createClient('ghs_x', { baseUrl: gh.url, log: (s) => said.push(s) });
  const { data } = await client.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 3, body: 'x' });
  expect(data.id).toBe(9);
  expect(gh.seen.map((s) => s.method)).toEqual(['POST', 'POST']);
});

test('a write refused by a secondary rate limit waits the retry-after the throttling plugin reads, then succeeds', async () => {
  const gh = await serve([
    {
      status: 403,
      headers: { 'retry-after': '1' },
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
    },
    { status: 201, body: { id: 10 } },
  ]);
  const said: string[] = [];
  const client = createClient('ghs_x', { baseUrl: gh.url, log: (s) => said.push(s) });
  const { data } = await client.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 3, body: 'x' });
  expect(data.id).toBe(10);
  expect(gh.seen).toHaveLength(2);
  expect(said).toEqual(['GitHub secondary rate limit on POST /repos/{owner}/{repo}/issues/{issue_number}/comments; retrying after 1s']);
});

test('a write refused for good (422) is sent once: neither plugin repeats an answer that cannot change', async () => {
  const gh = await serve([{ status: 422, body: { message: 'Validation Failed' } }]);
  const client = createClient('ghs_x', { baseUrl: gh.url });
  await expect(client.rest.issues.createComment({ owner: 'o', repo: 'r', issue_number: 3, body: 'x' })).rejects.toMatchObject({
    status: 422,
  });
  expect(gh.seen).toHaveLength(1);
});

test('a GraphQL query is a read on GitHub Enterprise Server too, where @octokit/graphql sends the full URL', async () => {
  const { isGraphqlUrl } = await import('../src/github/client.js');
  expect(isGraphqlUrl('/graphql')).toBe(true);
  expect(isGraphqlUrl('https://ghes.example/api/graphql')).toBe(true);
  expect(isGraphqlUrl('https://ghes.example/api/v3/repos/o/r/issues')).toBe(false);
  expect(isGraphqlUrl('/repos/o/r/issues/1/comments')).toBe(false);
});

test('GitHub Enterprise Server is told by its /api/v3 URL; a query sent there loses only its rateLimit field', async () => {
  const { isEnterpriseServer, withoutRateLimit } = await import('../src/github/client.js');
  expect(isEnterpriseServer('https://ghes.example/api/v3')).toBe(true);
  expect(isEnterpriseServer('https://ghes.example/api/v3/')).toBe(true);
  expect(isEnterpriseServer('https://api.github.com')).toBe(false);
  expect(isEnterpriseServer('https://api.octo.ghe.com')).toBe(false);
  expect(withoutRateLimit('query Q {\n  rateLimit { cost remaining }\n  viewer { login }\n}')).toBe('query Q {\n  viewer { login }\n}');
});
