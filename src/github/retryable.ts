/**
 * Which failures can succeed if tried again. An HTTP answer of 5xx can. A
 * request that got no answer can only when its cause is at the connection and
 * can pass: the socket was reset or refused, timed out, the name lookup
 * hiccuped, the network was briefly unreachable, or the answer was cut off.
 * An untrusted certificate, a body that cannot be decoded, the transport's own
 * refusals (size, redirects, scheme), a proxy that wants credentials, an
 * invalid header or an abort end the same way every time: they fail at once.
 */
import { IDLE_TIMEOUT } from './transport.js';

const TRANSIENT = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  IDLE_TIMEOUT,
  // undici's names for the same, behind a proxy.
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

interface Failure {
  name?: string;
  message?: string;
  code?: string;
  cause?: unknown;
  response?: unknown;
}

/** The innermost cause's code and message (undici and fetch nest them). */
function rootOf(err: unknown): Failure {
  let e = (err ?? {}) as Failure;
  for (let depth = 0; depth < 5 && e.cause && typeof e.cause === 'object'; depth++) {
    if (e.code) break;
    e = e.cause as Failure;
  }
  return e;
}

/** Octokit's report of a request that got no answer: status 500, no response, the transport's error as its cause. */
function unanswered(err: unknown): boolean {
  const e = (err ?? {}) as Failure & { status?: number };
  return e.status === 500 && e.response === undefined && e.cause !== undefined;
}

export function canSucceedLater(err: unknown): boolean {
  if (!unanswered(err)) return true;
  const root = rootOf((err as Failure).cause);
  if (root.name === 'AbortError') return false;
  if (root.code && TRANSIENT.has(root.code)) return true;
  return /socket hang up/i.test(root.message ?? '');
}
