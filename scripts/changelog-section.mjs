#!/usr/bin/env node
/**
 * The release notes of one version, from CHANGELOG.md: the lines under its
 * `## <version>` heading up to the next `## ` heading. The release workflow
 * publishes them; a version CHANGELOG.md has no section for is an error, so a
 * release never goes out with empty notes.
 *
 *   node scripts/changelog-section.mjs 1.0.0 [CHANGELOG.md]
 */
import { readFileSync } from 'node:fs';

const [version, file = 'CHANGELOG.md'] = process.argv.slice(2);
if (!version) {
  process.stderr.write('usage: node scripts/changelog-section.mjs VERSION [CHANGELOG.md]\n');
  process.exit(2);
}
const lines = readFileSync(file, 'utf8').split('\n');
// `## 1.0.0`, `## 1.0.0 — a date`, `## [1.0.0]`: the heading names the version and nothing longer (1.0.0 is not 1.0.01).
const heading = (line) => {
  const m = /^## \[?v?([0-9A-Za-z.+-]+)\]?(?:\s|$)/.exec(line);
  return m ? m[1] : null;
};
const start = lines.findIndex((l) => heading(l) === version.replace(/^v/, ''));
if (start < 0) {
  process.stderr.write(`${file} has no "## ${version}" section: write what this release changes there first\n`);
  process.exit(1);
}
const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
const body = lines
  .slice(start + 1, end < 0 ? undefined : end)
  .join('\n')
  .trim();
if (body === '') {
  process.stderr.write(`${file}'s "## ${version}" section is empty\n`);
  process.exit(1);
}
process.stdout.write(`${body}\n`);
