/**
 * The conformance reports as a reader sees them, held exactly (snapshots):
 * the repository report, the merged report in both formats, the text report,
 * and the reading of report files. A change to what they say shows up in the
 * diff of __snapshots__, and no mutant of a renderer passes unseen.
 */
import { parseTrustPolicy } from '../src/common/trust.js';
import { evaluate } from '../src/decision/evaluate.js';
import { markdownMergedReport, markdownRepositoryReport, textMergedReport } from '../src/decision/report-render.js';
import { countStatuses, entryOf, mergeReports, readReport, sortEntries, type IssueEntry } from '../src/decision/report.js';
import { textReport } from '../src/decision/text-report.js';
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

describe('report files are checked field by field (a merge reads what other jobs wrote)', () => {
  const good = {
    number: 1,
    title: 't',
    url: 'https://github.example/o/r/issues/1',
    state: 'none',
    status: 'failing',
    types: { BUILDER: 'missing' as const },
    problems: ['issue #1: BUILDER is missing'],
  };
  test.each([
    ['not an object', 7],
    ['null', null],
    ['a number that is text', { ...good, number: '1' }],
    ['no url', { ...good, url: 3 }],
    ['a status that is no status', { ...good, status: 'green' }],
    ['a status that is not text', { ...good, status: 1 }],
    ['types that are not an object', { ...good, types: 'x' }],
    ['types null', { ...good, types: null }],
    ['problems not a list', { ...good, problems: 'x' }],
    ['a problem that is not text', { ...good, problems: [1] }],
  ])('%s is refused', (_name, entry) => {
    expect(() => readReport(JSON.stringify(repositoryReport('o/r', [entry])), 'x.json')).toThrow('x.json: issue entry 1 is malformed');
  });

  test.each([
    ['version 2', { version: 2 }],
    ['no repository', { repository: 5 }],
    ['issues not a list', { issues: {} }],
  ])('a report with %s is refused', (_name, extra) => {
    expect(() => readReport(JSON.stringify({ ...repositoryReport('o/r', [good]), ...extra }), 'y.json')).toThrow(
      'y.json: not a forge-check report',
    );
  });

  test('optional header fields are read when well-formed, defaulted when not; filters are kept only when well-formed', () => {
    const full = readReport(
      JSON.stringify(
        repositoryReport('o/r', [good], {
          required: ['BUILDER', 3],
          validation: 'template',
          incremental: true,
          filter: { state: 'open', labels: ['a'], milestone: null },
        }),
      ),
      'z.json',
    );
    expect(full).toMatchObject({
      required: ['BUILDER'],
      validation: 'template',
      incremental: true,
      filter: { state: 'open', labels: ['a'], milestone: null },
    });
    const bare = readReport(
      JSON.stringify({
        version: 1,
        repository: 'o/r',
        issues: [good],
        generatedAt: 5,
        required: 'x',
        validation: 1,
        incremental: 'yes',
        filter: { state: 'open', labels: [1], milestone: null },
      }),
      'z.json',
    );
    expect(bare).toMatchObject({ generatedAt: '', required: [], validation: '', incremental: false });
    expect(bare.filter).toBeUndefined();
    for (const filter of [
      null,
      'x',
      { state: 1, labels: [], milestone: null },
      { state: 'all', labels: 'x', milestone: null },
      { state: 'all', labels: [], milestone: 3 },
    ])
      expect(readReport(JSON.stringify({ ...repositoryReport('o/r', [good]), filter }), 'f.json').filter).toBeUndefined();
    expect(
      readReport(JSON.stringify({ ...repositoryReport('o/r', [good]), filter: { state: 'all', labels: [], milestone: '3' } }), 'f.json')
        .filter,
    ).toEqual({ state: 'all', labels: [], milestone: '3' });
  });

  test('the same repository in any letter case is one; the newer report is kept; filters that differ are refused', () => {
    const older = readReport(JSON.stringify(repositoryReport('octo/A', [good], { generatedAt: '2026-01-01T00:00:00Z' })), 'a.json');
    const newer = readReport(JSON.stringify(repositoryReport('OCTO/a', [], { generatedAt: '2026-02-01T00:00:00Z' })), 'b.json');
    for (const order of [
      [older, newer],
      [newer, older],
    ]) {
      const merged = mergeReports(order);
      expect(merged.repositories).toEqual([
        { repository: 'OCTO/a', generatedAt: '2026-02-01T00:00:00Z', counts: { failing: 0, conforming: 0, exempt: 0 } },
      ]);
      expect(merged.notes).toEqual([
        `${order[1].repository} was given twice: counted once, from the report generated at 2026-02-01T00:00:00Z`,
      ]);
    }
    const filtered = (f: unknown) => readReport(JSON.stringify(repositoryReport('octo/a', [good], { filter: f })), 'c.json');
    expect(() =>
      mergeReports([filtered({ state: 'open', labels: [], milestone: null }), filtered({ state: 'all', labels: [], milestone: '2' })]),
    ).toThrow('octo/a is given twice with different filters (state open; state all, milestone 2)');
    expect(() => mergeReports([filtered({ state: 'open', labels: [], milestone: null }), older])).not.toThrow();
    // Sorted by failing issues, then by name.
    const two = mergeReports([
      readReport(JSON.stringify(repositoryReport('b/b', [good])), 'x'),
      readReport(JSON.stringify(repositoryReport('a/a', [good])), 'y'),
      readReport(JSON.stringify(repositoryReport('c/c', [])), 'z'),
    ]);
    expect(two.repositories.map((r) => r.repository)).toEqual(['a/a', 'b/b', 'c/c']);
  });

  test('entries sort failing first, then by number', () => {
    const e = (number: number, status: 'failing' | 'conforming' | 'exempt') => ({ ...good, number, status });
    expect(sortEntries([e(3, 'conforming'), e(2, 'failing'), e(1, 'exempt'), e(1, 'failing')]).map((x) => [x.number, x.status])).toEqual([
      [1, 'failing'],
      [2, 'failing'],
      [3, 'conforming'],
      [1, 'exempt'],
    ]);
  });
});

test('the text report: notes, a PR, an exempt item, a terminal label and the ignored', () => {
  const pr = item(7, [comment(investigator()), comment(builder(), STRANGER)], { kind: 'pull', labels: ['workflow:done'] });
  const ended = item(8, [], { labels: ['workflow:invalid'] });
  const r = evaluate([pr, ended], [], gate);
  expect(textReport({ ...r, notes: ['a note\nover two lines'] })).toMatchSnapshot();
});
