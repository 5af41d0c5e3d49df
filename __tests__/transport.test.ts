/**
 * The node:http(s) transport Octokit uses (src/github/transport.ts), against
 * loopback servers: fetch's redirect, decoding, abort and error behaviour that
 * @octokit/request relies on, and the proxy rule (behind a proxy the client
 * keeps @actions/github's proxy-aware fetch, and requests really go through it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createClient } from '../src/github/client.js';
import { MAX_DECODED_BYTES, transport } from '../src/github/transport.js';
import { connectProxy } from './support/connect-proxy.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: Server[] = [];
async function open(handler: Handler) {
  const s = await serve(handler);
  servers.push(s.server);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

test('a GET returns status, final URL, headers and body as fetch does', async () => {
  const { url, seen } = await open((_req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('x-ratelimit-remaining', '4999');
    res.end('{"a":1}');
  });
  const res = await transport(`${url}/repos/o/r`, { method: 'GET', headers: { Authorization: 'token t', 'User-Agent': 'ua' } });
  expect([res.status, res.ok, res.url]).toEqual([200, true, `${url}/repos/o/r`]);
  expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
  expect(Object.fromEntries(res.headers)['x-ratelimit-remaining']).toBe('4999');
  expect(await res.json()).toEqual({ a: 1 });
  expect(seen[0].headers.authorization).toBe('token t');
  expect(seen[0].headers['accept-encoding']).toBe('gzip, deflate, br');
});

test('a body is sent with its length; 204 and HEAD come back empty', async () => {
  const { url, seen } = await open((req, res) => {
    res.statusCode = req.method === 'DELETE' ? 204 : 201;
    res.end(req.method === 'HEAD' ? undefined : 'made');
  });
  const made = await transport(`${url}/x`, { method: 'POST', body: '{"body":"é"}', headers: { 'content-type': 'application/json' } });
  expect([made.status, await made.text()]).toEqual([201, 'made']);
  expect(seen[0]).toMatchObject({ method: 'POST', body: '{"body":"é"}' });
  expect(seen[0].headers['content-length']).toBe(String(Buffer.byteLength('{"body":"é"}')));
  const gone = await transport(`${url}/x`, { method: 'DELETE' });
  expect([gone.status, await gone.text()]).toEqual([204, '']);
  const head = await transport(`${url}/x`, { method: 'HEAD' });
  expect([head.status, (await head.arrayBuffer()).byteLength]).toEqual([201, 0]);
});

test.each([
  ['gzip', gzipSync],
  ['deflate', deflateSync],
  ['br', brotliCompressSync],
])('a %s-encoded body is decoded', async (encoding, compress) => {
  const text = JSON.stringify({ body: 'x'.repeat(5000), encoding });
  const { url } = await open((_req, res) => {
    res.setHeader('content-encoding', encoding);
    res.end(compress(Buffer.from(text)));
  });
  expect(await (await transport(`${url}/c`)).text()).toBe(text);
});

test('redirects are followed: 307 keeps method and body, 303 and a redirected POST turn into a GET', async () => {
  const { url, seen } = await open((req, res, body) => {
    const to: Record<string, [number, string]> = {
      '/307': [307, '/end'],
      '/303': [303, '/end'],
      '/302': [302, '/end'],
      '/301': [301, '/end'],
    };
    const hop = to[req.url ?? ''];
    if (hop) {
      res.writeHead(hop[0], { location: hop[1] });
      res.end();
      return;
    }
    res.end(`${req.method} ${body}`);
  });
  const keep = await transport(`${url}/307`, { method: 'PATCH', body: 'p', headers: { 'content-type': 'text/plain' } });
  expect([keep.url, await keep.text()]).toEqual([`${url}/end`, 'PATCH p']);
  expect(await (await transport(`${url}/303`, { method: 'PUT', body: 'p' })).text()).toBe('GET ');
  expect(await (await transport(`${url}/302`, { method: 'POST', body: 'p' })).text()).toBe('GET ');
  expect(await (await transport(`${url}/301`, { method: 'GET' })).text()).toBe('GET ');
  expect(seen.filter((s) => s.url === '/end').every((s) => s.method !== 'GET' || s.headers['content-type'] === undefined)).toBe(true);
});

test('a redirect to another origin does not carry the Authorization header; the same origin does', async () => {
  const other = await open((req, res) => res.end(String(req.headers.authorization ?? 'none')));
  const { url } = await open((req, res) => {
    if (req.url === '/away') res.writeHead(302, { location: `${other.url}/landing` });
    else if (req.url === '/here') res.writeHead(302, { location: '/landing' });
    else {
      res.end(String(req.headers.authorization ?? 'none'));
      return;
    }
    res.end();
  });
  const away = await transport(`${url}/away`, { headers: { authorization: 'token secret' } });
  expect([away.url, await away.text()]).toEqual([`${other.url}/landing`, 'none']);
  expect(await (await transport(`${url}/here`, { headers: { authorization: 'token secret' } })).text()).toBe('token secret');
});

test('redirect: manual returns the 3xx; error refuses it; a loop ends after 20 hops', async () => {
  const { url, seen } = await open((req, res) => {
    res.writeHead(302, { location: req.url === '/loop' ? '/loop' : '/x' });
    res.end();
  });
  const manual = await transport(`${url}/m`, { redirect: 'manual' });
  expect([manual.status, manual.headers.get('location')]).toEqual([302, '/x']);
  await expect(transport(`${url}/e`, { redirect: 'error' })).rejects.toThrow('redirects are refused');
  await expect(transport(`${url}/loop`)).rejects.toThrow('more than 20 redirects');
  expect(seen.filter((s) => s.url === '/loop')).toHaveLength(21);
});

test('repeated headers are joined as fetch joins them', async () => {
  const { url } = await open((_req, res) => {
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.end();
  });
  expect((await transport(url)).headers.get('set-cookie')).toBe('a=1, b=2');
});

test('a connection failure rejects with the system error; an unknown scheme is refused', async () => {
  const { url, server } = await serve((_req, res) => res.end());
  await new Promise((resolve) => server.close(resolve));
  await expect(transport(`${url}/x`)).rejects.toThrow(/ECONNREFUSED/);
  await expect(transport('ftp://example.test/x')).rejects.toThrow('unsupported URL scheme: ftp:');
});

test('an AbortSignal aborts before and during a request', async () => {
  const { url } = await open(() => undefined);
  const before = new AbortController();
  before.abort();
  await expect(transport(`${url}/x`, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
  const during = new AbortController();
  const pending = transport(`${url}/hang`, { signal: during.signal });
  setTimeout(() => during.abort(), 20);
  await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
});

test('Octokit over the transport: a 404 is a RequestError with GitHub’s message, and a lost connection a 500', async () => {
  const { url } = await open((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"message":"Not Found","documentation_url":"https://docs.github.com"}');
  });
  const gh = createClient('ghs_x', { baseUrl: url });
  await expect(gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 })).rejects.toMatchObject({
    status: 404,
    message: 'Not Found - https://docs.github.com',
  });
  const closed = await serve((_req, res) => res.end());
  await new Promise((resolve) => closed.server.close(resolve));
  await expect(
    createClient('ghs_x', { baseUrl: closed.url }).rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 }),
  ).rejects.toMatchObject({
    status: 500,
  });
});

describe('behind a proxy', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']) delete process.env[k];
    Object.assign(process.env, saved);
  });

  test('requests to GitHub go through the proxy named by HTTP_PROXY', async () => {
    const github = await open((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ number: 7, title: `via ${req.headers.host}` }));
    });
    const port = new URL(github.url).port;
    // A CONNECT proxy that tunnels every target to the loopback GitHub, and remembers what it was asked for.
    const proxy = await connectProxy(Number(port));
    servers.push(proxy.server);
    process.env.HTTP_PROXY = proxy.url;
    // Not a loopback name: @actions/http-client never proxies loopback addresses.
    const gh = createClient('ghs_x', { baseUrl: `http://github.proxy.test:${port}` });
    const { data } = await gh.rest.issues.get({ owner: 'o', repo: 'r', issue_number: 7 });
    expect(data.title).toBe(`via github.proxy.test:${port}`);
    expect(proxy.tunnels).toEqual([`github.proxy.test:${port}`]);
  });

  test('an address NO_PROXY (or loopback) exempts stays on the direct transport', async () => {
    const github = await open((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"number":1}');
    });
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    process.env.NO_PROXY = '127.0.0.1';
    const { data } = await createClient('ghs_x', { baseUrl: github.url }).rest.issues.get({ owner: 'o', repo: 'r', issue_number: 1 });
    expect(data.number).toBe(1);
  });
});

test('a compressed body that decodes past the limit is refused, not held in memory', async () => {
  const { url } = await open((_req, res) => {
    res.setHeader('content-encoding', 'gzip');
    res.end(gzipSync(Buffer.alloc(MAX_DECODED_BYTES + 1)));
  });
  await expect(transport(`${url}/bomb`)).rejects.toThrow(`decodes to more than 256 MiB; refused`);
});

test('sequential requests reuse one kept-alive connection (no new TCP or TLS handshake per request)', async () => {
  const { url, server } = await open((_req, res) => res.end('ok'));
  let connections = 0;
  server.on('connection', () => connections++);
  for (let k = 0; k < 20; k++) expect(await (await transport(`${url}/n${k}`)).text()).toBe('ok');
  expect(connections).toBe(1);
});
