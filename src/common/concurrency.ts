/**
 * A small worker pool for reads: a few requests in flight at once shorten a
 * long run without tripping GitHub's secondary limits (which ask for no more
 * than a handful of concurrent requests). Results keep the input order.
 */

/** Requests in flight at once when reading many threads or gists. */
export const READ_CONCURRENCY = 4;

export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return out;
}
