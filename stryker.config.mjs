// Mutation testing of the codec (`npm run mutate`, not part of `npm test`: it
// takes about half an hour on 2 cores). The tests that import src/ run against
// each mutant; the report lands in reports/mutation/mutation.html.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: ['src/codec/**/*.ts'],
  testRunner: 'jest',
  jest: { configFile: 'jest.mutate.config.js', enableFindRelatedTests: false },
  // Jest runs TypeScript ESM through Node's VM modules.
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  // Jest's ESM mode leaks memory across runs: start a fresh runner now and then.
  maxTestRunnerReuse: 20,
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 4000,
  reporters: ['html', 'clear-text', 'progress', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
