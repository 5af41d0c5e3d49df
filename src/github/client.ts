/**
 * The Octokit every action uses: @actions/github's client plus retries (5xx)
 * and throttling (secondary limits honour `retry-after`; a primary limit is
 * waited out only when it resets within a minute). Honours GITHUB_API_URL, so
 * it works against GitHub Enterprise Server.
 */
import { getOctokit } from '@actions/github';
import { GitHub as GitHubClass } from '@actions/github/lib/utils';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';

export type GitHub = ReturnType<typeof getOctokit>;

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

export function createClient(token: string, options: ClientOptions = {}): GitHub {
  const log = options.log ?? (() => undefined);
  const baseUrl = options.baseUrl ?? process.env.GITHUB_API_URL ?? 'https://api.github.com';
  const octokitOptions = {
    baseUrl,
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
  // An anonymous client is the same Octokit with no auth at all (no Authorization header).
  if (options.anonymous) return new (GitHubClass.plugin(retry, throttling))(octokitOptions) as unknown as GitHub;
  return getOctokit(token, octokitOptions, retry, throttling);
}
