/** Jest over TypeScript ESM: swc strips types, Node's VM modules run the ESM. */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  testTimeout: 60000,
  // Most suites wait on the bundles they spawn and the loopback server: two workers keep both cores busy.
  maxWorkers: 3,
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.cjs'],
};
