/** The read path's retry rules (writes keep the Octokit plugins): pure, so tested directly. */
import { MAX_RESET_WAIT_SECONDS, readRetryDelay } from '../src/github/client.js';

const said: string[] = [];
const log = (s: string) => said.push(s);
const err = (status: number | undefined, message = '', headers: Record<string, string> = {}) => ({
  status,
  message,
  response: { headers },
});

test('5xx and lost connections back off, then give up after three retries', () => {
  expect([0, 1, 2].map((a) => readRetryDelay(err(502), a, log, 'GET /x'))).toEqual([250, 1000, 2250]);
  expect(readRetryDelay(err(502), 3, log, 'GET /x')).toBeNull();
  expect(readRetryDelay(new Error('fetch failed'), 0, log, 'GET /x')).toBe(250);
});

test('client errors are answers, not retried', () => {
  for (const status of [400, 401, 403, 404, 410, 422]) expect(readRetryDelay(err(status, 'no'), 0, log, 'GET /x')).toBeNull();
});

test('a secondary rate limit waits its retry-after; a primary one only when it resets within the minute', () => {
  expect(readRetryDelay(err(403, 'You have exceeded a secondary rate limit', { 'retry-after': '2' }), 0, log, 'GET /x')).toBe(2000);
  expect(said.pop()).toBe('GitHub secondary rate limit on GET /x; retrying after 2s');
  const soon = String(Math.floor(Date.now() / 1000) + 5);
  expect(
    readRetryDelay(err(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': soon }), 0, log, 'GET /x'),
  ).toBeGreaterThan(0);
  const later = String(Math.floor(Date.now() / 1000) + MAX_RESET_WAIT_SECONDS + 60);
  expect(
    readRetryDelay(err(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': later }), 0, log, 'GET /x'),
  ).toBeNull();
});
