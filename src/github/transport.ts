/**
 * Octokit's transport: the part of fetch() that @octokit/request uses, over
 * node:http and node:https.
 *
 * Why not fetch: an action step makes a handful of requests in a fresh
 * process. There, the first fetch() initialises undici's HTTP stack (about
 * 25 ms on a 2-core machine) and the process then lingers about 50 ms before
 * it exits: over half of a short step (bench:api, "cold start"). node:http,
 * node:https and node:zlib are loaded at startup anyway (@actions/http-client
 * imports them) and cost neither.
 *
 * What it keeps of fetch: redirects are followed (up to 20; 303 — and 301/302
 * after a POST — turn into a GET; the Authorization header never follows a
 * redirect to another origin), compressed bodies are decoded, connections are
 * reused (Node's global agents keep them alive), an AbortSignal aborts, and a
 * network failure rejects with the system error's message.
 *
 * Behind a proxy (HTTPS_PROXY / HTTP_PROXY applying to GitHub's URL) the client
 * keeps @actions/github's own proxy-aware fetch: see client.ts.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** The fetch() options @octokit/request passes. */
export interface TransportInit {
  method?: string;
  body?: string | Uint8Array | null;
  headers?: Record<string, string>;
  redirect?: 'follow' | 'manual' | 'error';
  signal?: AbortSignal | null;
}

/** Response headers with fetch's two readers: `get` and iteration (names lower-cased, repeats joined by `, `). */
export class TransportHeaders {
  readonly #values = new Map<string, string>();

  constructor(raw: IncomingMessage['headers']) {
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined) this.#values.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}

/** The fetch() Response members @octokit/request reads. */
export class TransportResponse {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
    readonly headers: TransportHeaders,
    private readonly bytes: Uint8Array,
  ) {}

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  async text(): Promise<string> {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const out = new ArrayBuffer(this.bytes.length);
    new Uint8Array(out).set(this.bytes);
    return out;
  }
}

const MAX_REDIRECTS = 20;
/** No answer at all for this long ends the request (undici's own header and body timeouts are 300 s). */
const IDLE_TIMEOUT_MS = 300_000;
/** A decoded body larger than this is refused rather than held in memory (GitHub's largest answers are a few MB). */
export const MAX_DECODED_BYTES = 256 * 1024 * 1024;
const LIMIT = { maxOutputLength: MAX_DECODED_BYTES };
const DECODERS: Readonly<Record<string, (b: Buffer) => Buffer>> = {
  gzip: (b) => gunzipSync(b, LIMIT),
  'x-gzip': (b) => gunzipSync(b, LIMIT),
  deflate: (b) => inflateSync(b, LIMIT),
  br: (b) => brotliDecompressSync(b, LIMIT),
  identity: (b) => b,
};

/**
 * The transport's own refusals, each with a stable `code` (the retry rules
 * read it: none of these can succeed by trying again).
 */
export const REFUSALS = {
  decodeLimit: 'FORGE_DECODE_LIMIT',
  decodeFailed: 'FORGE_DECODE_FAILED',
  unknownEncoding: 'FORGE_UNKNOWN_ENCODING',
  redirectLimit: 'FORGE_REDIRECT_LIMIT',
  redirectRefused: 'FORGE_REDIRECT_REFUSED',
  unsupportedScheme: 'FORGE_UNSUPPORTED_SCHEME',
} as const;

/** The idle timeout is the transport's too, but a server that was slow once may answer the next time. */
export const IDLE_TIMEOUT = 'FORGE_IDLE_TIMEOUT';

function refusal(code: string, message: string, cause?: unknown): Error {
  const e = new Error(message) as Error & { code: string; cause?: unknown };
  e.code = code;
  if (cause !== undefined) e.cause = cause;
  return e;
}

/**
 * Decode a `content-encoding` list (`gzip, br` is legal HTTP: codings applied
 * in order, so undone in reverse), under one size cap; `identity` is nothing
 * to undo, and a coding we cannot undo is an error, never raw bytes.
 */
function decodeBody(bytes: Buffer, header: string, host: string): Buffer {
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '');
  let out = bytes;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) throw refusal(REFUSALS.unknownEncoding, `the answer from ${host} is encoded as "${coding}", which cannot be decoded`);
    try {
      out = decode(out);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw refusal(REFUSALS.decodeLimit, `the answer from ${host} decodes to more than ${MAX_DECODED_BYTES / 1024 / 1024} MiB; refused`);
      throw refusal(REFUSALS.decodeFailed, `the answer from ${host} is not valid ${coding} (${(err as Error).message})`, err);
    }
  }
  return out;
}

/** Methods a server may be sent twice without a second effect (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

interface Exchange {
  status: number;
  statusText: string;
  headers: IncomingMessage['headers'];
  bytes: Uint8Array;
}

/**
 * A system error (TLS, socket, DNS) as an Error of this module's own realm,
 * keeping its message and code: Octokit reports anything that is not an Error
 * as "Unknown Error".
 */
function ownError(err: unknown): Error {
  if (err instanceof Error) return err;
  const e = err as { message?: string; code?: string; name?: string };
  return Object.assign(new Error(e.message ?? String(err)), { code: e.code, ...(e.name === 'AbortError' ? { name: 'AbortError' } : {}) });
}

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const e = new Error('This operation was aborted');
  e.name = 'AbortError';
  return e;
}

/** One request on the wire. */
interface Hop {
  url: URL;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | null;
  signal: AbortSignal | null;
}

/**
 * One request and its whole (decoded) response body. Servers and load
 * balancers close idle kept-alive connections; when that close crosses a new
 * request, the request fails on the reused socket before any answer. An
 * idempotent request is then sent once more, at once, on a new connection. A
 * POST or PATCH is never sent twice: it never gets a pooled socket at all.
 */
function exchange(hop: Hop, fresh = false): Promise<Exchange> {
  const { url, method, headers, body, signal } = hop;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : null;
    if (!send) {
      reject(refusal(REFUSALS.unsupportedScheme, `unsupported URL scheme: ${url.protocol}`));
      return;
    }
    const idempotent = IDEMPOTENT.has(method);
    // `agent: false`: a connection of its own, closed after the answer.
    const options = fresh || !idempotent ? { method, headers, agent: false as const } : { method, headers };
    let answered = false;
    const req: ClientRequest = send(url, options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => reject(ownError(err)));
      res.on('aborted', () => reject(Object.assign(new Error(`the answer from ${url.host} was cut off`), { code: 'ECONNRESET' })));
      res.on('end', () => {
        try {
          let bytes: Buffer = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'] ?? '';
          if (encoding !== '' && bytes.length > 0 && method !== 'HEAD') bytes = decodeBody(bytes, encoding, url.host);
          const answer = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, bytes };
          // One turn of the event loop before the caller sends its next request: a close the server sent with this
          // answer is read first, so the pool drops that socket instead of handing it to the next request.
          setImmediate(() => resolve(answer));
        } catch (err) {
          reject(err);
        }
      });
    });
    const onAbort = () => req.destroy(abortError(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    req.on('error', (err) => {
      if (!answered && !fresh && idempotent && req.reusedSocket && !signal?.aborted) {
        exchange(hop, true).then(resolve, reject);
        return;
      }
      reject(ownError(err));
    });
    req.setTimeout(IDLE_TIMEOUT_MS, () =>
      req.destroy(Object.assign(new Error(`no response from ${url.host} in ${IDLE_TIMEOUT_MS / 1000} s`), { code: IDLE_TIMEOUT })),
    );
    req.end(body ?? undefined);
  });
}

/** fetch(url, init) as @octokit/request calls it, over node:http(s). */
export async function transport(input: string | URL, init: TransportInit = {}): Promise<TransportResponse> {
  let url = new URL(String(input));
  let method = (init.method ?? 'GET').toUpperCase();
  let body: Buffer | null = init.body == null ? null : Buffer.from(init.body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  const signal = init.signal ?? null;
  for (let redirects = 0; ; redirects++) {
    const sent: OutgoingHttpHeaders = { ...headers };
    if (body) sent['content-length'] = body.length;
    const res = await exchange({ url, method, headers: sent, body, signal });
    const location = res.headers.location;
    const redirected = res.status === 301 || res.status === 302 || res.status === 303 || res.status === 307 || res.status === 308;
    if (!redirected || !location || init.redirect === 'manual') {
      return new TransportResponse(res.status, res.statusText, url.href, new TransportHeaders(res.headers), res.bytes);
    }
    if (init.redirect === 'error') throw refusal(REFUSALS.redirectRefused, `redirected to ${location}, and redirects are refused`);
    if (redirects >= MAX_REDIRECTS) throw refusal(REFUSALS.redirectLimit, `more than ${MAX_REDIRECTS} redirects from ${String(input)}`);
    const next = new URL(location, url);
    // A credential is for the origin it was given to: never carried to another one.
    if (next.origin !== url.origin) delete headers.authorization;
    // fetch's rule: 303, or 301/302 after a POST, repeats as a GET without a body.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = null;
      delete headers['content-type'];
    }
    url = next;
  }
}
