/**
 * Tests that run dist/ check it first: a bundle built from older source would
 * otherwise pass or fail for the old code. Cheap — one hash over the sources.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error -- a plain ES module shared with scripts/build.mjs; no types.
import { sourceStamp } from '../../scripts/source-stamp.mjs';

let checked: string | null = null;

export function assertFreshDist(root: string): void {
  if (checked === root) return;
  let built = '';
  try {
    built = readFileSync(join(root, 'dist', 'SOURCE_STAMP'), 'utf8').trim();
  } catch {
    /* no stamp: treated as stale */
  }
  if (built !== (sourceStamp(root) as string))
    throw new Error('dist/ is stale: run npm run build (the tests here run the bundles in dist/, not src/)');
  checked = root;
}
