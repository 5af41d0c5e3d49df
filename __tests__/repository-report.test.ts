/** The repository report, its checkpoint and the listing filter, with plain objects: no runner, no server. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkItem } from '../src/common/work-item.js';
import { readCheckpoint, writeCheckpoint, type CheckSettings } from '../src/forge-check/repository/checkpoint.js';
import { evaluate } from '../src/decision/evaluate.js';
import { countStatuses, entryOf, mergeReports, readReport, sortEntries, type IssueEntry } from '../src/decision/report.js';
import { markdownMergedReport, markdownRepositoryReport, MAX_ROWS } from '../src/decision/report-render.js';
import { matchesFilter, perIssuePages } from '../src/github/repo-reads.js';
import { parseTrustPolicy } from '../src/common/trust.js';
import { builder, investigator } from './support/seed.js';

const item = (number: number, over: Partial<WorkItem> = {}): WorkItem => ({
  number,
  kind: 'issue',
  url: `https://github.example/o/r/issues/${number}`,
  title: `Issue ${number}`,
  author: { login: 'maintainer', association: 'MEMBER' },
  body: '',
  labels: [],
  state: 'open',
  milestone: null,
  comments: [],
  ...over,
});

const comment = (id: number, body: string) => ({
  id,
  url: `https://github.example/o/r/issues/1#issuecomment-${id}`,
  author: { login: 'maintainer', association: 'MEMBER' },
  body,
  createdAt: null,
});

const options = { required: ['INVESTIGATOR', 'BUILDER'], validation: 'strict' as const, trust: parseTrustPolicy('') };

function entry(w: WorkItem): IssueEntry {
  const r = evaluate([w], [], options);
  return entryOf(r.items[0], w.title, r.problems);
}

const entries = [
  entry(item(3, { comments: [comment(1, investigator()), comment(2, builder())] })),
  entry(item(2, { comments: [comment(3, investigator())] })),
  entry(item(1, { labels: ['workflow:invalid'] })),
  entry(item(4)),
];

test('an entry per issue: status, each type, and the problems', () => {
  expect(entries.map((e) => [e.number, e.status])).toEqual([
    [3, 'conforming'],
    [2, 'failing'],
    [1, 'exempt'],
    [4, 'failing'],
  ]);
  expect(entries[1]).toMatchObject({ types: { INVESTIGATOR: 'ok', BUILDER: 'missing' }, problems: ['issue #2: BUILDER is missing'] });
  expect(sortEntries([...entries]).map((e) => e.number)).toEqual([2, 4, 3, 1]);
  expect(countStatuses(entries)).toEqual({ failing: 2, conforming: 1, exempt: 1 });
});

test('readReport takes what forge-check wrote and refuses anything else, naming the file', () => {
  const report = {
    version: 1,
    repository: 'o/r',
    generatedAt: 't',
    required: ['BUILDER'],
    validation: 'strict',
    incremental: false,
    counts: {},
    issues: entries,
  };
  const back = readReport(JSON.stringify(report), 'a.json');
  expect(back.counts).toEqual({ failing: 2, conforming: 1, exempt: 1 });
  expect(back.issues.map((e) => e.number)).toEqual([2, 4, 3, 1]);
  expect(() => readReport('{', 'a.json')).toThrow(/^a\.json: not JSON/);
  expect(() => readReport('{"version": 2, "repository": "x", "issues": []}', 'b.json')).toThrow('b.json: not a forge-check report');
  expect(() => readReport(JSON.stringify({ ...report, issues: [{ number: 1, status: 'weird' }] }), 'c.json')).toThrow(
    'c.json: issue entry 1 is malformed',
  );
  // An item-scope report (an array of item reports) is read too.
  const itemScope = evaluate([item(9)], [], options).items;
  expect(readReport(JSON.stringify(itemScope), 'd.json').issues).toEqual([
    expect.objectContaining({
      number: 9,
      status: 'failing',
      problems: ['issue #9: INVESTIGATOR is missing', 'issue #9: BUILDER is missing'],
    }),
  ]);
});

test('merge adds the counts, lists the failing issues and puts the worst repository first', () => {
  const a = readReport(JSON.stringify({ version: 1, repository: 'o/a', issues: entries }), 'a');
  const b = readReport(JSON.stringify({ version: 1, repository: 'o/b', issues: [entries[0]] }), 'b');
  const merged = mergeReports([b, a]);
  expect(merged.counts).toEqual({ failing: 2, conforming: 2, exempt: 1 });
  expect(merged.repositories.map((r) => r.repository)).toEqual(['o/a', 'o/b']);
  expect(merged.failing.map((e) => `${e.repository}#${e.number}`)).toEqual(['o/a#2', 'o/a#4']);
  const md = markdownMergedReport(merged);
  expect(md).toContain('| o/a | 2 | 1 | 1 |');
  expect(md).toContain('[o/a#2](https://github.example/o/r/issues/2) Issue 2 | `none` | BUILDER is missing |');
});

test('the summary caps its tables and says how many more there are', () => {
  const many = Array.from({ length: MAX_ROWS + 5 }, (_, i) => entry(item(i + 1)));
  const report = readReport(JSON.stringify({ version: 1, repository: 'o/big', issues: many }), 'x');
  const md = markdownRepositoryReport(report, many.length, []);
  expect(md.split('\n').filter((l) => l.startsWith('| [#'))).toHaveLength(MAX_ROWS);
  expect(md).toContain(`… and 5 more failing issues (all of them are in the \`report\` JSON).`);
});

describe('checkpoint', () => {
  const settings: CheckSettings = {
    repository: 'o/r',
    required: ['BUILDER'],
    validation: 'strict',
    trustedAuthors: 'OWNER',
    filter: { state: 'all', labels: [], milestone: null },
    titles: true,
  };
  const dir = mkdtempSync(join(tmpdir(), 'forge-checkpoint-'));
  const policy = { rules: 'forge-check 1.0.0', fullEveryMs: null, now: Date.parse('2026-01-02T00:00:00Z') };
  const at = '2026-01-01T00:00:00Z';

  test('written, then read back under the same settings', () => {
    const path = join(dir, 'sub', 'c.json');
    writeCheckpoint(path, { version: 2, rules: policy.rules, settings, lastRun: at, fullAt: at, issues: entries });
    const read = readCheckpoint(path, settings, policy);
    expect(read.checkpoint?.issues).toHaveLength(4);
    expect(readCheckpoint(path, { ...settings, required: ['INVESTIGATOR'] }, policy)).toEqual({
      checkpoint: null,
      why: 'the checkpoint was made with other settings (required)',
    });
    expect(readCheckpoint(path, { ...settings, filter: { ...settings.filter, labels: ['x'] }, validation: 'template' }, policy)).toEqual({
      checkpoint: null,
      why: 'the checkpoint was made with other settings (validation, filter)',
    });
  });

  test('missing, unreadable or foreign checkpoints each say why', () => {
    expect(readCheckpoint(join(dir, 'none.json'), settings, policy)).toEqual({ checkpoint: null, why: 'no checkpoint yet' });
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(readCheckpoint(join(dir, 'bad.json'), settings, policy).checkpoint).toBeNull();
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ version: 1, settings, lastRun: 'yesterday', issues: [] }));
    expect(readCheckpoint(join(dir, 'other.json'), settings, policy)).toEqual({
      checkpoint: null,
      why: 'the checkpoint is not one this version of forge-check wrote',
    });
  });

  test('another version of the rules, or a full read due under full-every, means a full read', () => {
    const path = join(dir, 'rules.json');
    writeCheckpoint(path, { version: 2, rules: 'forge-check 0.9.0', settings, lastRun: at, fullAt: at, issues: entries });
    expect(readCheckpoint(path, settings, policy)).toEqual({
      checkpoint: null,
      why: 'the checkpoint was made by forge-check 0.9.0, and this is forge-check 1.0.0 (its rules may differ)',
    });
    writeCheckpoint(path, { version: 2, rules: policy.rules, settings, lastRun: at, fullAt: at, issues: entries });
    const day = 24 * 3600 * 1000;
    expect(readCheckpoint(path, settings, { ...policy, fullEveryMs: day })).toEqual({
      checkpoint: null,
      why: `the last full read (${at}) is older than full-every`,
    });
    expect(readCheckpoint(path, settings, { ...policy, fullEveryMs: 2 * day }).checkpoint).not.toBeNull();
  });
});

test('the filter an incremental run applies itself matches what GitHub applies', () => {
  const m = { number: 4, title: 'v2' };
  const open = item(1, { labels: ['a', 'b'], milestone: m });
  const closed = item(2, { state: 'closed', labels: ['a'] });
  const f = (state: 'open' | 'closed' | 'all', labels: string[], milestone: string | null) => ({ state, labels, milestone });
  expect(matchesFilter(open, f('all', [], null))).toBe(true);
  expect(matchesFilter(closed, f('open', [], null))).toBe(false);
  expect(matchesFilter(open, f('open', ['a', 'b'], null))).toBe(true);
  expect(matchesFilter(closed, f('all', ['a', 'b'], null))).toBe(false);
  expect(matchesFilter(open, f('all', [], '4'))).toBe(true);
  expect(matchesFilter(open, f('all', [], '5'))).toBe(false);
  expect(matchesFilter(open, f('all', [], '*'))).toBe(true);
  expect(matchesFilter(closed, f('all', [], '*'))).toBe(false);
  expect(matchesFilter(closed, f('all', [], 'none'))).toBe(true);
  expect(matchesFilter(open, f('all', [], 'none'))).toBe(false);
  expect(perIssuePages([0, 1, 100, 101, 250])).toBe(0 + 1 + 1 + 2 + 3);
});
