// Fails when the committed dist/ differs from a fresh build of the committed source.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, existsSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(new URL('.', import.meta.url).pathname, '..');
const fresh = join(root, '.build-check', 'dist');
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), fresh], { cwd: root, stdio: 'inherit' });

function files(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

const want = new Map(files(fresh).map((f) => [relative(fresh, f), f]));
const have = new Map(files(join(root, 'dist')).map((f) => [relative(join(root, 'dist'), f), f]));
const problems = [];
for (const [rel, f] of want) {
  if (!have.has(rel)) problems.push(`missing from dist/: ${rel}`);
  else if (!readFileSync(f).equals(readFileSync(have.get(rel)))) problems.push(`differs from a fresh build: dist/${rel}`);
}
for (const rel of have.keys()) if (!want.has(rel)) problems.push(`not produced by the build: dist/${rel}`);
rmSync(join(root, '.build-check'), { recursive: true, force: true });
if (problems.length > 0) {
  console.error(`dist/ is out of date with the source — run \`npm run build\` and commit dist/:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`dist/ matches a fresh build (${want.size} files)`);
