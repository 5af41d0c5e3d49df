/** The same CLI behaviour as cli.test.ts, run from the source through main(): no build needed. */
import { main } from '../src/cli/main.js';
import { defineCliTests } from './support/cli-behaviour.js';

defineCliTests((args, input) => {
  let out = '';
  let err = '';
  const code = main(args, { out: (s) => (out += s), err: (s) => (err += s), readStdin: () => input ?? '' });
  return { code, out, err };
});
