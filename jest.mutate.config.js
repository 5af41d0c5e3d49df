/**
 * The tests mutation testing runs against each codec mutant: those that
 * exercise src/codec directly (the codec's own tests, labels, and the CLI's
 * conformance run through main()).
 */
import unit from './jest.unit.config.js';

// Property tests take fewer runs per mutant (400 in the normal suite): a mutant they catch, they catch early.
process.env.FORGE_PROPERTY_RUNS ??= '60';

export default {
  ...unit,
  testMatch: ['**/codec-*.test.ts', '**/labels.test.ts', '**/cli-source.test.ts'],
  reporters: ['default'],
};
