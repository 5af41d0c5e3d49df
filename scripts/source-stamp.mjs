// A fingerprint of everything a build reads: the sources, the build script,
// the TypeScript settings and the locked dependencies. The build writes it to
// dist/SOURCE_STAMP; the tests that run dist/ compare it first, so a bundle
// older than the source fails at once instead of testing the old code.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const INPUTS = ['src', 'scripts/build.mjs', 'tsconfig.json', 'tsconfig.types.json', 'package-lock.json'];

function walk(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => walk(join(path, name)));
}

export function sourceStamp(root) {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of walk(join(root, input))) {
      hash.update(relative(root, file).split('\\').join('/'));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}
