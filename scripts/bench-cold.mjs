// One fresh process's first parse (and validate) of a thread: what an action
// step pays, since it parses a few dozen comments once and exits. Reads the
// thread (a JSON array of bodies) from the file named on the command line and
// prints {"importMs", "parseMs", "validateMs"}: loading the codec, then the
// first pass over the thread, then a second pass with validation.
import { readFileSync } from 'node:fs';

const thread = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// The clock's own first calls cost a few hundred microseconds in a fresh
// process (its first use loads code too): take them before measuring.
for (let i = 0; i < 3; i++) performance.now();
const t0 = performance.now();
const { parse, parseAndValidate } = await import('../dist/codec/index.js');
const t1 = performance.now();
for (let i = 0; i < thread.length; i++) parse(thread[i]);
const t2 = performance.now();
for (let i = 0; i < thread.length; i++) parseAndValidate(thread[i]);
const t3 = performance.now();
process.stdout.write(JSON.stringify({ importMs: t1 - t0, parseMs: t2 - t1, validateMs: t3 - t2 }));
