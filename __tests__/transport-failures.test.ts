/**
 * The client retries only what can succeed, against loopback servers that
 * misbehave the way real ones do: an untrusted certificate, a corrupt or
 * oversized compressed body, a redirect loop, an unknown or stacked coding, a
 * connection reset, and a server that closes each kept-alive socket right
 * after its answer. Requests are counted where they land: at the server.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createClient, requestStats } from '../src/github/client.js';
import { ApiError } from '../src/github/errors.js';
import { listComments } from '../src/github/reads.js';
import { MAX_DECODED_BYTES, transport } from '../src/github/transport.js';
import { runBundle } from './support/run-action.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return String((server.address() as AddressInfo).port);
}

/** A loopback server counting the requests that reach it. */
async function open(handler: Handler): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, hits: () => hits, server };
}

const json = (res: ServerResponse, data: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(data));
};

/** Reading #1's comments through the client, as the actions do: its retry rules decide. */
async function read(url: string): Promise<{ error: unknown; ms: number }> {
  const t = Date.now();
  try {
    await listComments(createClient('ghs_x', { baseUrl: url }), { owner: 'o', repo: 'r' }, 1);
    return { error: null, ms: Date.now() - t };
  } catch (error) {
    return { error, ms: Date.now() - t };
  }
}

test('an untrusted certificate fails at once, with its own reason, and is not tried again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  let hits = 0;
  const server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
    hits++;
    json(res, []);
  });
  let connections = 0;
  server.on('connection', () => connections++);
  const port = await listen(server);
  const { error } = await read(`https://127.0.0.1:${port}`);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).message).toMatch(/cannot succeed: .*certificate/i);
  expect((error as ApiError).transient).toBe(false);
  expect(hits).toBe(0);
  expect(connections).toBe(1);
});

test('a corrupt compressed body, and one that decodes past the limit, are one request each', async () => {
  const corrupt = await open((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(Buffer.from('this is not gzip'));
  });
  const a = await read(corrupt.url);
  expect((a.error as Error).message).toMatch(/is not valid gzip/);
  expect(corrupt.hits()).toBe(1);

  const bomb = await open((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync(Buffer.alloc(MAX_DECODED_BYTES + 1)));
  });
  const b = await read(bomb.url);
  expect((b.error as Error).message).toMatch(/decodes to more than 256 MiB; refused/);
  expect(bomb.hits()).toBe(1);
});

test('a redirect loop costs what fetch pays (21 requests), not four times that', async () => {
  const loop = await open((req, res) => {
    res.writeHead(302, { location: req.url ?? '/' });
    res.end();
  });
  const { error } = await read(loop.url);
  expect((error as Error).message).toMatch(/more than 20 redirects/);
  expect(loop.hits()).toBe(21);
});

test('stacked codings are undone in reverse order under one cap; identity is nothing; an unknown one is an error', async () => {
  const data = [{ id: 1, body: 'stacked', html_url: 'h', user: { login: 'a' }, author_association: 'OWNER' }];
  const stacked = await open((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, identity, br' });
    res.end(brotliCompressSync(gzipSync(Buffer.from(JSON.stringify(data)))));
  });
  const res = await transport(`${stacked.url}/x`);
  expect(await res.json()).toEqual(data);
  const unknown = await open((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress' });
    res.end(Buffer.from('x'));
  });
  await expect(transport(`${unknown.url}/x`)).rejects.toMatchObject({
    code: 'FORGE_UNKNOWN_ENCODING',
    message: expect.stringContaining('is encoded as "compress", which cannot be decoded'),
  });
  const { error } = await read(unknown.url);
  expect(error).toBeInstanceOf(ApiError);
  expect(unknown.hits()).toBe(2);
});

test('a connection reset is transient: tried again, and the read succeeds', async () => {
  let first = true;
  const flaky = await open((req, res) => {
    if (first) {
      first = false;
      req.socket.destroy();
      return;
    }
    json(res, []);
  });
  const { error } = await read(flaky.url);
  expect(error).toBeNull();
  expect(flaky.hits()).toBe(2);
});

test('a server that closes each kept-alive socket after its answer costs nothing: every GET succeeds with no retry wait, and a POST right after a GET succeeds', async () => {
  // Keep-alive promised, and the socket ended with the answer: what idle-timeout closes look like.
  const closing = await open((req, res) => {
    json(res, req.method === 'POST' ? { id: 1 } : [], { connection: 'keep-alive' });
    (req.socket as Socket).end();
  });
  const gh = createClient('ghs_x', { baseUrl: closing.url });
  for (let i = 0; i < 20; i++) await listComments(gh, { owner: 'o', repo: 'r' }, i + 1);
  // Twenty reads, none of them repeated through the read retry (which waits 250 ms and more): a request that met a
  // dying socket was re-sent at once on a new connection, inside the transport.
  expect(requestStats(gh)).toMatchObject({ requests: 20, retries: 0 });
  expect(closing.hits()).toBeGreaterThanOrEqual(20);
  const [get, post] = await Promise.all([
    transport(`${closing.url}/a`),
    (async () => {
      await new Promise((r) => setImmediate(r));
      return transport(`${closing.url}/b`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    })(),
  ]);
  expect([get.status, post.status]).toEqual([200, 200]);
  // A POST is never sent on a pooled socket: twenty in a row, each on its own connection, all succeed.
  for (let i = 0; i < 20; i++) expect((await transport(`${closing.url}/p${i}`, { method: 'POST', body: '{}' })).status).toBe(200);
});

describe('from the bundle, as a step meets them', () => {
  const step = (apiUrl: string) =>
    runBundle('forge-check', { apiUrl, repository: 'o/r', inputs: { 'github-token': 'ghs_x', 'issue-number': '1' } });

  test('a corrupt body fails the step at once with its own reason (one request), a redirect loop after 21', async () => {
    const corrupt = await open((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(Buffer.from('this is not gzip'));
    });
    const r = await step(corrupt.url);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::forge-check: .*cannot succeed: .*is not valid gzip/);
    // What the number is (GraphQL), then the issue's one read: one request each, none repeated.
    expect(corrupt.hits()).toBe(2);

    const loop = await open((req, res) => {
      res.writeHead(302, { location: req.url ?? '/' });
      res.end();
    });
    const l = await step(loop.url);
    expect(l.code).toBe(1);
    expect(l.stdout).toContain('more than 20 redirects');
    expect(loop.hits()).toBe(2 * 21);
  });

  test('stacked codings decode in the bundle too', async () => {
    const issue = {
      number: 1,
      title: 't',
      state: 'open',
      labels: [],
      body: '',
      user: { login: 'o' },
      author_association: 'OWNER',
      html_url: 'h',
      comments: 0,
    };
    // The issue's one read, as GraphQL answers it: the thread, no comments.
    const thread = {
      id: 'I_1',
      number: 1,
      url: 'h',
      title: 't',
      body: '',
      createdAt: '2026-01-01T00:00:00Z',
      author: { __typename: 'User', login: 'o' },
      authorAssociation: 'OWNER',
      editor: null,
      labels: { nodes: [] },
      comments: { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] },
      state: 'OPEN',
      stateReason: null,
      milestone: null,
      repository: { nameWithOwner: 'o/r' },
    };
    const stacked = await open((req, res, query) => {
      // No pipeline file on this server: the gate's built-in settings hold.
      if (req.url?.includes('/contents/')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Not Found' }));
        return;
      }
      const data = query.includes('ForgeGateIssue')
        ? { data: { rateLimit: { cost: 1, remaining: 4999 }, viewer: { login: 'o' }, repository: { nameWithOwner: 'o/r', issue: thread } } }
        : req.url?.includes('/comments')
          ? []
          : issue;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip, br' });
      res.end(brotliCompressSync(gzipSync(Buffer.from(JSON.stringify(data)))));
    });
    const r = await step(stacked.url);
    expect(r.stdout).not.toContain('::error::forge-check: reading');
    expect(r.outputs.missing).toBe('INVESTIGATOR,BUILDER');
  });
});
