// Ends a jest run with the plain closing line "N passed, N failed" that CI reads.
// Written at process exit so it comes after jest's own summary.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    // A suite that failed to load counts as a failure even when no test inside it ran.
    const failed =
      results.numFailedTests + (results.numFailedTests === 0 ? results.numFailedTestSuites + results.numRuntimeErrorTestSuites : 0);
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
    process.once('exit', () => process.stderr.write(line));
  }
}
module.exports = SummaryReporter;
