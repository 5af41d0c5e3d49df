/**
 * The tests mutation testing runs against each mutant: those that exercise
 * the codec and the gate's decisions directly (the codec's own tests, labels,
 * the CLI through main(), trust, closing references, the verdict, the reader's rules, and the pipeline file).
 */
import unit from './jest.unit.config.js';

// Property tests take fewer runs per mutant (400 in the normal suite): a mutant they catch, they catch early.
process.env.FORGE_PROPERTY_RUNS ??= '60';

export default {
  ...unit,
  testMatch: [
    '**/codec-*.test.ts',
    '**/labels.test.ts',
    '**/cli-source.test.ts',
    '**/common.test.ts',
    '**/trust-sources.test.ts',
    '**/forge-check-evaluate.test.ts',
    '**/conformance-rules.test.ts',
    '**/evidence-rules.test.ts',
    '**/required-gate-rules.test.ts',
    '**/repository-report.test.ts',
    '**/report-render-golden.test.ts',
    '**/context-rules.test.ts',
    '**/decision-property.test.ts',
    '**/decision-rules.test.ts',
    '**/decision-exact.test.ts',
    '**/pipeline.test.ts',
    '**/admission.test.ts',
    '**/decision-round7.test.ts',
    '**/dispatch-board.test.ts',
  ],
  reporters: ['default'],
};
