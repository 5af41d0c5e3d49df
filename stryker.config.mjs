// Mutation testing (`npm run mutate`, not part of `npm test`): the codec and
// the gate's decisions — who is trusted, which annotations count, which issues
// a PR closes, the conformance verdict. The unit tests run against each
// mutant; the report lands in reports/mutation/mutation.html. CI runs the
// dry run on codec and decision changes (.github/workflows/mutation.yml) so
// the setup cannot rot; a full run takes 30–60 minutes on 2 cores.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/codec/**/*.ts',
    'src/common/trust.ts',
    'src/common/trusted-annotations.ts',
    'src/common/closing.ts',
    'src/common/pipeline.ts',
    'src/common/periods.ts',
    'src/common/context-digest.ts',
    'src/decision/**/*.ts',
  ],
  // actions/<name>/src are links to src/ for local-action: a sandbox copy would
  // copy them as folders and fail (EISDIR); the tests never read them.
  ignorePatterns: ['actions/*/src', 'reports', 'dist/*/types'],
  testRunner: 'jest',
  jest: { configFile: 'jest.mutate.config.js', enableFindRelatedTests: false },
  // Jest runs TypeScript ESM through Node's VM modules.
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  // Jest's ESM mode leaks memory across runs: start a fresh runner now and then.
  maxTestRunnerReuse: 20,
  coverageAnalysis: 'perTest',
  // Static mutants (module-level tables such as PRESETS) re-run every test file for
  // each mutant: 13% of the mutants, 89% of the time. Their rules are defended by
  // the same tests; they are left out of the score.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 4000,
  reporters: ['html', 'clear-text', 'progress', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
