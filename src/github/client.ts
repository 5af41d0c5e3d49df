/**
 * The Octokit every action uses is @actions/github's `getOctokit` (Octokit
 * core with the REST endpoint methods and pagination, the token as its auth,
 * the run's orchestration id in the user agent), with the retry plugin (5xx)
 * and the throttling plugin (secondary limits honour `retry-after`; a primary
 * limit is waited out only when it resets within a minute) on every write.
 *
 * Two choices are ours, both measured (bench:api):
 * - Requests travel over node:http(s) (transport.ts), given to getOctokit as
 *   its `request.fetch`, Octokit's documented hook for it; behind a proxy they
 *   take @actions/github's own path (undici through @actions/http-client's
 *   proxy agent). The first undici fetch() of a fresh process costs a step
 *   about a third of its wall time.
 * - Reads skip the plugins' Bottleneck queues and retry by the same rules on
 *   their own (readRetryDelay).
 *
 * GitHub's URL is GITHUB_API_URL (GitHub Enterprise Server), read when the
 * client is made.
 */
import { getOctokit } from '@actions/github';
import { GitHub as ActionsGitHub } from '@actions/github/lib/utils';
import { getProxyUrl } from '@actions/http-client/lib/proxy';
import type { OctokitOptions } from '@octokit/core';
import { GraphqlRateLimited } from './errors.js';
import { canSucceedLater } from './retryable.js';
import { transport } from './transport.js';

type Fetch = typeof transport;

/**
 * Runs before the retry plugin sees a failure: one that cannot succeed by
 * trying again (retryable.ts) loses its request, which is how the plugin
 * tells a failure it must not repeat.
 */
const noDeadEndRetries = (octokit: GitHub) => {
  octokit.hook.error('request', (error) => {
    if (!canSucceedLater(error)) delete (error as { request?: unknown }).request;
    throw error;
  });
};

/** Octokit with `.rest` and `.paginate`: what @actions/github's getOctokit returns. */
export type GitHub = InstanceType<typeof ActionsGitHub>;
type Plugin = Parameters<typeof ActionsGitHub.plugin>[0];

/** Longest wait for a primary rate-limit reset before giving up with a clear error. */
export const MAX_RESET_WAIT_SECONDS = 60;
const MAX_RETRIES = 3;

export interface ClientOptions {
  /** Where waits and retries are reported (core.info in actions). */
  log?: (message: string) => void;
  /** Send no Authorization header (anonymous reads, e.g. public gists). */
  anonymous?: boolean;
  baseUrl?: string;
}

/** What a client has done so far: shown in progress lines of long runs. */
export interface RequestStats {
  requests: number;
  retries: number;
  /**
   * GitHub's own clock (the `Date` header, ms) on the first answer this client
   * read: when this run started reading, in the time GitHub stamps its records with.
   */
  firstAnswerAt: number | null;
}

const STATS = new WeakMap<object, RequestStats>();

/** The requests and retries a client from createClient has made (zeros for any other client). */
export function requestStats(gh: GitHub): RequestStats {
  return { ...(STATS.get(gh) ?? { requests: 0, retries: 0, firstAnswerAt: null }) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RetryableError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined> };
}

/**
 * How long to wait before repeating a read that failed, or null to give up:
 * the same rules the retry and throttling plugins apply to writes — a 5xx or
 * a lost connection is retried with backoff, a secondary rate limit after its
 * retry-after, a primary one only when it resets within a minute.
 */
export function readRetryDelay(err: unknown, attempt: number, log: (s: string) => void, what: string): number | null {
  if (attempt >= MAX_RETRIES) return null;
  const e = (err ?? {}) as RetryableError;
  const status = typeof e.status === 'number' ? e.status : null;
  const headers = e.response?.headers ?? {};
  if (status === 403 || status === 429) {
    if (/\bsecondary rate\b/i.test(e.message ?? '')) {
      const after = Number(headers['retry-after']) || 60;
      log(`GitHub secondary rate limit on ${what}; retrying after ${after}s`);
      return after * 1000;
    }
    if (headers['x-ratelimit-remaining'] === '0') {
      const after = Math.max(Math.ceil((Number(headers['x-ratelimit-reset']) * 1000 - Date.now()) / 1000) + 1, 0);
      if (after > MAX_RESET_WAIT_SECONDS) return null;
      log(`GitHub API rate limit reached on ${what}; waiting ${after}s for the reset`);
      return after * 1000;
    }
    return null;
  }
  // A 5xx, or no answer at all (Octokit reports that as a 500 with no response) whose cause can pass.
  if ((status === null || status >= 500) && canSucceedLater(err)) return 250 * (attempt + 1) ** 2;
  return null;
}

/** Whether a request's URL is GitHub's GraphQL endpoint: `/graphql`, or a full URL whose path ends so (GHES). */
export function isGraphqlUrl(url: string): boolean {
  if (url === '/graphql') return true;
  try {
    return /\/graphql$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * GitHub's GraphQL timeout answer, as a body (`{ data, errors }`: HTTP 200,
 * no data, an error saying it timed out) or as the error Octokit throws for it
 * (the same fields), or a 502/504 of the same.
 */
export function isGraphqlTimeout(answer: unknown): boolean {
  const a = (answer ?? {}) as { status?: number; data?: unknown; errors?: Array<{ message?: string }> };
  if (a.status === 502 || a.status === 504) return true;
  if (!Array.isArray(a.errors) || (a.data !== null && a.data !== undefined)) return false;
  return a.errors.some((e) => /timeout|timed out/i.test(e?.message ?? ''));
}

/** A GraphQL answer that is GitHub's rate limit (HTTP 200, an error of type RATE_LIMITED): what it said and how long to wait. */
function rateLimitedAnswer(answer: unknown): { message: string; waitSeconds: number | null; resetAt: string | null } | null {
  const a = answer as { data?: { errors?: Array<{ type?: string; message?: string }> }; headers?: Record<string, unknown> };
  const hit = Array.isArray(a?.data?.errors) ? a.data.errors.find((e) => e?.type === 'RATE_LIMITED') : undefined;
  if (!hit) return null;
  const headers = a.headers ?? {};
  const retryAfter = Number(headers['retry-after']);
  const reset = Number(headers['x-ratelimit-reset']);
  const resetAt = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : null;
  const waitSeconds =
    Number.isFinite(retryAfter) && retryAfter > 0
      ? retryAfter
      : resetAt
        ? Math.max(Math.ceil((reset * 1000 - Date.now()) / 1000) + 1, 0)
        : null;
  return { message: (hit.message ?? 'rate limited').split('\n')[0].slice(0, 300), waitSeconds, resetAt };
}

/**
 * Reads go straight to the network with their own retry loop; the plugins'
 * Bottleneck queues cost every sequential request ~10 ms of idle waiting
 * (measured: 200 GETs on loopback, 17 ms a request with both plugins, 2 ms
 * without). Writes keep the plugins: GitHub asks for writes to be paced.
 */
function readsDirect(client: GitHub, makeWrites: () => Promise<GitHub>, log: (s: string) => void): GitHub {
  let writes: Promise<GitHub> | null = null;
  const stats: RequestStats = { requests: 0, retries: 0, firstAnswerAt: null };
  STATS.set(client, stats);
  client.hook.wrap('request', async (request, options) => {
    stats.requests++;
    // A GraphQL query is a read sent as a POST: it takes the read path (the queries here never mutate). On GitHub
    // Enterprise Server @octokit/graphql sends the full URL (…/api/graphql): classified by its path.
    if (options.method !== 'GET' && options.method !== 'HEAD' && !isGraphqlUrl(String(options.url))) {
      // The options carry this client's own request hook: drop it, or the write
      // would come straight back here.
      const { hook: _ownHook, ...request } = (options.request ?? {}) as Record<string, unknown>;
      writes ??= makeWrites();
      return (await writes).request({ ...options, request });
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await request(options);
        if (stats.firstAnswerAt === null) {
          const at = Date.parse(String((answer as { headers?: Record<string, unknown> }).headers?.date ?? ''));
          if (!Number.isNaN(at)) stats.firstAnswerAt = at;
        }
        // GitHub's timeout answer (HTTP 200, no data, "… timeout …"): it charges each, so it is asked once more, not
        // more; a caller that can ask for less (the dispatcher's sweep) halves its page instead.
        const own = (options.request ?? {}) as { noTimeoutRetry?: boolean };
        if (isGraphqlTimeout((answer as { data?: unknown }).data) && attempt === 0 && !own.noTimeoutRetry) {
          log(`GitHub's GraphQL answer timed out on ${options.url}; asking once more`);
          stats.retries++;
          stats.requests++;
          await sleep(1000);
          continue;
        }
        // GitHub answers a GraphQL rate limit with HTTP 200 and RATE_LIMITED beside no data: waited out like a REST one.
        const limited = rateLimitedAnswer(answer);
        if (limited !== null) {
          const wait = limited.waitSeconds;
          if (wait === null || wait > MAX_RESET_WAIT_SECONDS || attempt + 1 >= MAX_RETRIES)
            throw new GraphqlRateLimited(
              `GitHub's GraphQL rate limit is exhausted (RATE_LIMITED: ${limited.message})${limited.resetAt ? `; it resets at ${limited.resetAt}` : ''}: run the step again after that`,
            );
          log(`GitHub GraphQL rate limit reached (RATE_LIMITED); waiting ${wait}s for the reset`);
          stats.retries++;
          stats.requests++;
          await sleep(wait * 1000);
          continue;
        }
        return answer;
      } catch (err) {
        // GitHub's GraphQL timeout as a 502/504: it charges each, so it is asked once more at most (none when the
        // caller can ask for less), never the three retries of any other 5xx.
        if (isGraphqlUrl(String(options.url)) && isGraphqlTimeout(err)) {
          const own = (options.request ?? {}) as { noTimeoutRetry?: boolean };
          if (attempt > 0 || own.noTimeoutRetry) throw err;
          log(`GitHub's GraphQL answer timed out on ${options.url}; asking once more`);
          stats.retries++;
          stats.requests++;
          await sleep(1000);
          continue;
        }
        const wait = readRetryDelay(err, attempt, log, `${options.method} ${options.url}`);
        if (wait === null) throw err;
        stats.retries++;
        stats.requests++;
        await sleep(wait);
      }
    }
  });
  return client;
}

/**
 * The fetch Octokit sends with: node:http(s) straight to GitHub (transport.ts),
 * or, when HTTPS_PROXY / HTTP_PROXY applies to GitHub's URL (NO_PROXY and
 * loopback addresses excepted), undici through @actions/http-client's proxy
 * agent — the path @actions/github itself takes, chosen here from the
 * environment as it is when the client is made. undici and the proxy agent
 * are loaded only on that path: a step without a proxy never evaluates them.
 */
function fetchFor(baseUrl: string): Fetch {
  if (!getProxyUrl(new URL(baseUrl))?.hostname) return transport;
  let proxied: Promise<Fetch> | null = null;
  const load = async (): Promise<Fetch> => {
    const [{ HttpClient }, { fetch }] = await Promise.all([
      import(/* webpackChunkName: "proxy" */ '@actions/http-client'),
      import(/* webpackChunkName: "proxy" */ 'undici'),
    ]);
    const dispatcher = new HttpClient().getAgentDispatcher(baseUrl);
    return ((url: string, init: object) => fetch(url, { ...init, dispatcher })) as unknown as Fetch;
  };
  return (async (url: string, init: object) => {
    proxied ??= load();
    return (await proxied)(url as never, init as never);
  }) as unknown as Fetch;
}

/**
 * An Octokit for `token` with `plugins` on top, made by getOctokit; an
 * anonymous one (no Authorization header at all) is the same class with no
 * auth, since getOctokit insists on a token.
 */
function octokit(token: string | null, options: OctokitOptions, plugins: readonly Plugin[] = []): GitHub {
  if (token !== null) return getOctokit(token, options, ...plugins) as GitHub;
  const Class = plugins.length > 0 ? ActionsGitHub.plugin(...plugins) : ActionsGitHub;
  return new Class(options) as GitHub;
}

export function createClient(token: string, options: ClientOptions = {}): GitHub {
  const log = options.log ?? (() => undefined);
  // GitHub's URL is read when the client is made, and so is the proxy choice
  // (fetchFor): getOctokit's own defaults were fixed when the package loaded.
  const baseUrl = options.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com';
  const send = fetchFor(baseUrl);
  // GHES: no query asks `rateLimit` (an instance with rate limiting off answers it with an error); points read 0 there.
  const fetch = isEnterpriseServer(baseUrl) ? withoutRateLimitField(send) : send;
  const base: OctokitOptions = { baseUrl, request: { fetch } };
  const octokitOptions = {
    ...base,
    throttle: {
      onRateLimit: (retryAfter: number, req: { method: string; url: string }, _o: unknown, retryCount: number) => {
        if (retryAfter <= MAX_RESET_WAIT_SECONDS && retryCount < MAX_RETRIES) {
          log(`GitHub API rate limit reached on ${req.method} ${req.url}; waiting ${retryAfter}s for the reset`);
          return true;
        }
        return false;
      },
      onSecondaryRateLimit: (retryAfter: number, req: { method: string; url: string }, _o: unknown, retryCount: number) => {
        if (retryCount < MAX_RETRIES) {
          log(`GitHub secondary rate limit on ${req.method} ${req.url}; retrying after ${retryAfter}s`);
          return true;
        }
        return false;
      },
    },
    retry: { retries: MAX_RETRIES },
    log: { debug: () => undefined, info: () => undefined, warn: log, error: log },
  };
  const plain = { ...base, log: octokitOptions.log };
  // The plugins (and Bottleneck under the throttling one) load with the first
  // write: most steps only read, and their cold start should not pay for it.
  const plugins = async () => {
    const [{ retry }, { throttling }] = await Promise.all([
      import(/* webpackChunkName: "writes" */ '@octokit/plugin-retry'),
      import(/* webpackChunkName: "writes" */ '@octokit/plugin-throttling'),
    ]);
    return [noDeadEndRetries, retry, throttling] as unknown as Plugin[];
  };
  // An anonymous client is the same Octokit with no auth at all (no Authorization header).
  const auth = options.anonymous ? null : token;
  const writes = async () => octokit(auth, octokitOptions, await plugins());
  return readsDirect(octokit(auth, plain), writes, log);
}

/**
 * Whether GitHub's URL is a GitHub Enterprise Server's (`https://HOST/api/v3`):
 * its GraphQL has no `rateLimit` when the instance's rate limiting is off, so
 * no query asks it there (github.com and GHE.com's `api.*` hosts always have it).
 */
export function isEnterpriseServer(baseUrl: string): boolean {
  try {
    return /\/api\/v3\/?$/.test(new URL(baseUrl).pathname);
  } catch {
    return false;
  }
}

/** The fetch for a GitHub Enterprise Server: each GraphQL body sent without the `rateLimit` field. */
function withoutRateLimitField(send: Fetch): Fetch {
  return (async (url: string, init: { body?: unknown } & Record<string, unknown>) => {
    if (isGraphqlUrl(String(url)) && typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as { query?: unknown };
      if (typeof body.query === 'string') init = { ...init, body: JSON.stringify({ ...body, query: withoutRateLimit(body.query) }) };
    }
    return send(url as never, init as never);
  }) as unknown as Fetch;
}

/** A query without its `rateLimit { cost remaining }` field: what is sent to a GitHub Enterprise Server. */
export function withoutRateLimit(query: string): string {
  return query.replace(/\s*\brateLimit\s*\{\s*cost\s+remaining\s*\}/g, '');
}
