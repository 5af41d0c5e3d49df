/** The CLI as users run it: the dist bundle under plain node. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { defineCliTests } from './support/cli-behaviour.js';
import { ROOT } from './support/run-action.js';

defineCliTests((args, input) => {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), ...args], { input, encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
});
