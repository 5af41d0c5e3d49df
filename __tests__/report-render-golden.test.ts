/**
 * The conformance reports as a reader sees them, held exactly (snapshots):
 * the repository report, the merged report in both formats, the text report,
 * and the reading of report files. A change to what they say shows up in the
 * diff of __snapshots__, and no mutant of a renderer passes unseen.
 */
import { parseTrustPolicy } from '../src/common/trust.js';
import { evaluate } from '../src/conformance/evaluate.js';
import { markdownMergedReport, markdownRepositoryReport, textMergedReport } from '../src/conformance/report-render.js';
import { countStatuses, entryOf, mergeReports, readReport, sortEntries, type IssueEntry } from '../src/conformance/report.js';
import { textReport } from '../src/conformance/text-report.js';
import { builder, investigator } from './support/seed.js';
import { repositoryReport } from './support/reports.js';
import { comment, item, STRANGER } from './support/work-items.js';

const trust = parseTrustPolicy(undefined);
const gate = { required: ['INVESTIGATOR', 'BUILDER'], validation: 'strict' as const, trust };

function entries(): IssueEntry[] {
  const results = [
    item(1, [comment(investigator()), comment(builder())], { title: 'Conforming issue' }),
    item(2, [comment(investigator())], { title: 'Missing | its <b>BUILDER</b> [x](https://evil.example)', labels: ['workflow:building'] }),
    item(3, [comment(investigator('MAYBE')), comment(builder(), STRANGER)], { title: 'Invalid and untrusted' }),
    item(4, [], { title: 'Ended', labels: ['workflow:invalid'] }),
  ];
  return sortEntries(
    results.map((i) => {
      const r = evaluate([i], [], gate);
      return { ...entryOf(r.items[0], i.title, r.problems), updatedAt: '2026-01-02T00:00:00Z', comments: i.comments.length };
    }),
  );
}

function report(repository: string, list = entries()) {
  return readReport(
    JSON.stringify(repositoryReport(repository, list, { counts: countStatuses(list), generatedAt: '2026-01-03T00:00:00Z' })),
    `${repository}.json`,
  );
}

test('the repository report, with notes and a recheck count', () => {
  expect(markdownRepositoryReport(report('octo/a'), 2, ['a note', 'two | notes'])).toMatchSnapshot();
  expect(markdownRepositoryReport(report('octo/empty', []), 0, [])).toMatchSnapshot();
});

test('the merged report in markdown and text, with a repository given twice and one missing', () => {
  const a = report('octo/a');
  const merged = mergeReports([a, report('octo/b', entries().slice(0, 1)), a], ['octo/a', 'octo/b', 'octo/gone']);
  expect(merged.missing).toEqual(['octo/gone']);
  expect(markdownMergedReport(merged)).toMatchSnapshot();
  expect(textMergedReport(merged)).toMatchSnapshot();
  const clean = mergeReports([report('octo/c', entries().slice(-1))]);
  expect(markdownMergedReport(clean)).toMatchSnapshot();
  expect(textMergedReport(clean)).toMatchSnapshot();
});

test('the text report of one check', () => {
  const ok = evaluate([item(1, [comment(investigator()), comment(builder())])], [], gate);
  const bad = evaluate(
    [item(2, [comment(investigator('MAYBE')), comment(builder(), STRANGER)], { labels: ['workflow:in-review'] })],
    [],
    gate,
  );
  expect(textReport(ok)).toMatchSnapshot();
  expect(textReport(bad)).toMatchSnapshot();
});

test('report files: an item-scope array is read as entries; malformed files are refused with their name', () => {
  const items = evaluate([item(5, [comment(investigator())], { kind: 'pull' })], [], gate).items;
  expect(readReport(JSON.stringify(items), 'items.json')).toMatchSnapshot();
  for (const [text, message] of [
    ['not json', 'x.json: not JSON'],
    ['{"version": 2}', 'x.json: not a forge-check report'],
    [JSON.stringify(repositoryReport('o/r', [{ number: 1 }])), 'x.json: issue entry 1 is malformed'],
    ['[{"nope": 1}]', 'x.json: entry 1 is not a forge-check item report'],
  ] as const)
    expect(() => readReport(text, 'x.json')).toThrow(message);
});
