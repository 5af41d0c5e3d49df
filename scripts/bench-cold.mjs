// One fresh process's first parse (and validate) of a thread: what an action
// step pays, since it parses a few dozen comments once and exits. Reads the
// thread (a JSON array of bodies) from the file named on the command line and
// prints {"parseMs", "validateMs"} for the first pass over it.
import { readFileSync } from 'node:fs';
import { parse, parseAndValidate } from '../dist/codec/index.js';

const thread = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const t0 = process.hrtime.bigint();
for (const body of thread) parse(body);
const t1 = process.hrtime.bigint();
for (const body of thread) parseAndValidate(body);
const t2 = process.hrtime.bigint();
process.stdout.write(JSON.stringify({ parseMs: Number(t1 - t0) / 1e6, validateMs: Number(t2 - t1) / 1e6 }));
