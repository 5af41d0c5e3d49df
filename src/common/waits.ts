/**
 * Waits before asking GitHub again for what it records a little late (a new
 * PR's links, a merge queue's entry). Each has its defaults and an
 * environment variable of comma-separated milliseconds that replaces them in
 * tests (each wait at most 15 s, so a typo cannot hang a job).
 */
export function retryWaits(variable: string, defaults: readonly number[]): number[] {
  const v = process.env[variable];
  if (v === undefined) return [...defaults];
  return v
    .split(',')
    .map((x) => Number(x.trim()))
    .filter((n) => Number.isFinite(n) && n >= 0 && n <= 15_000);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
