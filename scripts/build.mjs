// Bundles every entry point with @vercel/ncc into <out>/<entry>/index.js.
// The four actions share one runtime bundle (dist/runtime): each action's
// dist/<action>/index.js is a small entry that imports it, so a `uses:`
// download carries the Octokit stack once, not four times.
// Usage: node scripts/build.mjs [outDir]   (default dist)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sourceStamp } from './source-stamp.mjs';

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const out = resolve(root, process.argv[2] ?? 'dist');
const ncc = join(root, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');

export const BUNDLES = [
  // The library is not minified: when it throws at a caller, Node prints the source line of the throw, and a
  // minified bundle's one line is the whole library.
  { name: 'codec', entry: 'src/codec/index.ts', minify: false },
  { name: 'cli', entry: 'src/cli/index.ts' },
  { name: 'runtime', entry: 'src/runtime.ts' },
];
// Every JavaScript action under actions/ has a dist entry of the same name
// (composite actions run those bundles and need none of their own).
export const ACTIONS = readdirSync(join(root, 'actions'))
  .filter((name) => /using:\s*['"]?node/.test(readFileSync(join(root, 'actions', name, 'action.yml'), 'utf8')))
  .sort();

rmSync(out, { recursive: true, force: true });
for (const b of BUNDLES) {
  if (!existsSync(join(root, b.entry))) throw new Error(`build: entry ${b.entry} does not exist`);
  const dir = join(out, b.name);
  // -m minify, no source maps: smaller dist.
  execFileSync(
    process.execPath,
    [ncc, 'build', b.entry, '-o', dir, ...(b.minify === false ? [] : ['-m']), '-q', '--no-cache', '--target', 'es2022'],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) writeFileSync(pkg, '{"type":"module"}\n');
}
// ncc minifies the entry file only: the chunks a dynamic import() splits off
// (each action's code, the write plugins, the proxy stack) are minified here,
// so a step compiles as little source text as the entry it shares.
const { minifySync } = await import('@swc/core');
for (const b of BUNDLES) {
  const dir = join(out, b.name);
  for (const file of readdirSync(dir).filter((f) => /^\d+\.index\.js$/.test(f))) {
    const path = join(dir, file);
    const { code } = minifySync(readFileSync(path, 'utf8'), { module: true, compress: true, mangle: true, ecma: 2022 });
    writeFileSync(path, code);
  }
}
for (const action of ACTIONS) {
  if (!existsSync(join(root, 'src', action))) throw new Error(`build: actions/${action} has no src/${action}`);
  const dir = join(out, action);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'index.js'),
    `// Entry for actions/${action}: the shared runtime bundle holds the code.\nimport { runAction } from '../runtime/index.js';\nawait runAction(${JSON.stringify(action)});\n`,
  );
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
}
// Type declarations for the library entry (import { parse } from 'forge-actions').
execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.types.json', '--outDir', join(out, 'codec', 'types')],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
// The CLI is an executable: keep its shebang line first.
const cli = join(out, 'cli', 'index.js');
if (existsSync(cli)) {
  const text = readFileSync(cli, 'utf8');
  if (!text.startsWith('#!')) writeFileSync(cli, `#!/usr/bin/env node\n${text}`);
}
// What this dist/ was built from (see source-stamp.mjs).
writeFileSync(join(out, 'SOURCE_STAMP'), `${sourceStamp(root)}\n`);
