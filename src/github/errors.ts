/** GitHub API failures as one readable line. An API error is never a verdict (implementation-notes.md §5). */
import { canSucceedLater } from './retryable.js';

interface HttpishError {
  status?: number;
  message?: string;
  request?: { method?: string; url?: string };
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    /** False when trying again cannot help (see retryable.ts): an untrusted certificate, a refused body, … */
    readonly transient = true,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** GitHub's GraphQL rate limit, not waited out: reading the same by REST would only spend the other limit for less. */
export class GraphqlRateLimited extends ApiError {
  constructor(message: string) {
    super(message, 429, false);
    this.name = 'GraphqlRateLimited';
  }
}

function route(e: HttpishError): string {
  const method = e.request?.method ?? '';
  let url = e.request?.url ?? '';
  try {
    url = new URL(url).pathname;
  } catch {
    /* keep as is */
  }
  return `${method} ${url}`.trim();
}

export function describeApiError(err: unknown, doing: string): ApiError {
  const e = (err ?? {}) as HttpishError;
  const status = typeof e.status === 'number' ? e.status : null;
  const where = route(e);
  const headers = e.response?.headers ?? {};
  let why: string;
  // Octokit reports a request that never got an answer (refused, reset, DNS) as
  // a 500 with no response: say so, rather than that GitHub answered 500.
  if (status === 500 && e.response === undefined) {
    const transient = canSucceedLater(err);
    const what = transient ? `could not reach GitHub at ${origin(e)}` : `the request to ${origin(e)} cannot succeed`;
    return new ApiError(`${doing} failed: ${what}: ${firstLine(e.message ?? String(err))}`, null, transient);
  }
  if (status === 401) why = 'GitHub rejected the token (401): check the github-token input';
  else if ((status === 403 || status === 429) && headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    const at = Number.isFinite(reset) && reset > 0 ? ` (resets at ${new Date(reset * 1000).toISOString()})` : '';
    why = `GitHub API rate limit exhausted${at}`;
  } else if (status === 403 || status === 429)
    why = `GitHub refused the request (${status}): ${firstLine(e.message)} — check the token's permissions`;
  else if (status === 404) why = 'not found (404): check repository, number, and that the token can see them';
  else if (status === 410) why = 'gone (410): issues may be disabled on this repository';
  else if (status === 422) why = `GitHub rejected the request (422): ${firstLine(e.message)}`;
  else if (status !== null) why = `GitHub answered ${status}: ${firstLine(e.message)}`;
  else why = firstLine(graphqlReason(err) ?? e.message ?? String(err));
  return new ApiError(`${doing} failed${where ? ` (${where})` : ''}: ${why}`, status);
}

/**
 * GitHub's own words in a GraphQL failure answer (HTTP 200, `errors` beside
 * no data): Octokit's message opens with a line of its own, so the reason —
 * a timeout, RATE_LIMITED — would be cut from a one-line error.
 */
function graphqlReason(err: unknown): string | null {
  const errors = (err as { errors?: Array<{ message?: string; type?: string }> })?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return null;
  const first = errors[0];
  const said = firstLine(first.message ?? 'an unknown error');
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `GitHub answered: ${first.type ? `${first.type}: ` : ''}${said}${more}`;
}

function origin(e: HttpishError): string {
  try {
    return new URL(e.request?.url ?? '').origin;
  } catch {
    return process.env.GITHUB_API_URL ?? 'https://api.github.com';
  }
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0].slice(0, 300);
}

/** Run an API call, turning its failure into an ApiError that says what was being done. */
export async function api<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw describeApiError(err, doing);
  }
}
