#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { main } from './main.js';

const code = main(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  readStdin: () => readFileSync(0, 'utf8'),
});
process.exitCode = code;
