import { capSummary, MAX_SUMMARY_BYTES } from '../src/common/runner.js';
import { closingIssues } from '../src/common/closing.js';
import { counts, parseTrustPolicy, type Author, type TrustPolicy } from '../src/common/trust.js';
import { parseRequired } from '../src/decision/evaluate.js';

const isTrusted = (policy: TrustPolicy, author: Author) => counts('comment', author, policy);

test('closing keywords, any case, with #N, owner/repo#N and URLs of this repository', () => {
  const body =
    'Fixes #12, closes #13.\r\nRESOLVED: #14\nfix octo/repo#15 and fix other/repo#16\nresolves https://github.com/octo/repo/issues/17\nmentions #18\nfixes #12';
  expect(closingIssues(body, 'octo/repo')).toEqual([12, 13, 14, 15, 17]);
  expect(closingIssues('no keywords #3', 'octo/repo')).toEqual([]);
});

test('closing keywords as GitHub reads them: never inside HTML comments, fenced or indented code, or code spans', () => {
  const template = '## What\n\n<!-- e.g. Fixes #7 -->\nThe fix.\n<!--\nCloses #8\n-->\nFixes #20';
  expect(closingIssues(template, 'octo/repo')).toEqual([20]);
  expect(closingIssues('```\nFixes #7\n```\n~~~~\ncloses #8\n~~~\n~~~~\nfixes #21', 'octo/repo')).toEqual([21]);
  // An unclosed fence runs to the end.
  expect(closingIssues('```sh\nfixes #7', 'octo/repo')).toEqual([]);
  expect(closingIssues('text\n\n    Fixes #7\n\tcloses #8\n\nFixes #22', 'octo/repo')).toEqual([22]);
  // An indented line inside a paragraph is the paragraph's, not code.
  expect(closingIssues('The change\n    fixes #23', 'octo/repo')).toEqual([23]);
  expect(closingIssues('Run `fixes #7` or ``closes #8 `x` `` but fixes #24', 'octo/repo')).toEqual([24]);
  // A lone backtick opens nothing.
  expect(closingIssues('a ` b fixes #25', 'octo/repo')).toEqual([25]);
  expect(closingIssues('before <!-- fixes #7 --> fixes #26 <!-- closes #8', 'octo/repo')).toEqual([26]);
});

test('trusted-authors: associations, logins (case-insensitive), * and defaults', () => {
  const d = parseTrustPolicy('');
  expect(isTrusted(d, { login: 'x', association: 'MEMBER' })).toBe(true);
  expect(isTrusted(d, { login: 'github-actions[bot]', association: 'NONE' })).toBe(true);
  expect(isTrusted(d, { login: 'drive-by', association: 'NONE' })).toBe(false);
  expect(isTrusted(d, { login: 'drive-by', association: 'CONTRIBUTOR' })).toBe(false);
  const p = parseTrustPolicy('OWNER\n@Alice, bot-one[bot]');
  expect(isTrusted(p, { login: 'alice', association: 'NONE' })).toBe(true);
  expect(isTrusted(p, { login: 'bot-one[bot]', association: 'NONE' })).toBe(true);
  expect(isTrusted(p, { login: 'bob', association: 'MEMBER' })).toBe(false);
  expect(isTrusted(parseTrustPolicy('*'), { login: null, association: 'NONE' })).toBe(true);
  expect(() => parseTrustPolicy('OWNER, not a login!')).toThrow('neither an author_association');
});

test('required: presets, lists, FORGE: prefixes, and mistakes', () => {
  expect(parseRequired(undefined)).toEqual(['INVESTIGATOR', 'BUILDER']);
  expect(parseRequired('lifecycle')).toEqual(['INVESTIGATOR', 'CONTRACT', 'CONTEXT', 'ARCHITECT', 'BUILDER', 'TRAJECTORY']);
  expect(parseRequired('FORGE:INVESTIGATOR,\nREVIEWER  BUILDER')).toEqual(['INVESTIGATOR', 'REVIEWER', 'BUILDER']);
  expect(() => parseRequired('investigator')).toThrow('is not a FORGE type name');
});

test("capSummary keeps a summary under GitHub's 1 MiB, cutting whole lines after the verdict", () => {
  const verdict = '## FORGE conformance: ✅ conforming\n\n| Type | Status |\n|---|---|\n| `BUILDER` | ✅ ok |';
  const huge = `${verdict}\n${Array.from({ length: 30000 }, (_, i) => `| row ${i} | ${'é'.repeat(40)} |`).join('\n')}`;
  const cut = capSummary(huge);
  expect(Buffer.byteLength(cut, 'utf8')).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
  expect(cut.startsWith(verdict)).toBe(true);
  expect(cut).toContain('the summary was cut here');
  expect(cut.split('\n').every((l) => l === '' || l.startsWith('|') || l.startsWith('#') || l.startsWith('…'))).toBe(true);
  expect(capSummary(verdict)).toBe(verdict);
});

test("the token's own comments: its login as GraphQL's viewer or REST spells it, and nobody else's", async () => {
  const { writtenByToken } = await import('../src/github/reads.js');
  expect(writtenByToken('github-actions[bot]', 'github-actions[bot]')).toBe(true);
  expect(writtenByToken('github-actions', 'github-actions[bot]')).toBe(true);
  expect(writtenByToken('octo-owner', 'octo-owner')).toBe(true);
  expect(writtenByToken('github-actions[bot]', 'github-actions')).toBe(false);
  expect(writtenByToken('github-actions[bot]', 'my-agent[bot]')).toBe(false);
  expect(writtenByToken('octo-owner', 'drive-by')).toBe(false);
  // An App installation token that could not say who it is: a bot's comment only.
  expect(writtenByToken(null, 'github-actions[bot]')).toBe(true);
  expect(writtenByToken(null, 'octo-owner')).toBe(false);
});

describe('capOutput: what one output carries', () => {
  test('a value that fits is left alone; a JSON array keeps the entries that fit; an object its shape; text is cut at a line', async () => {
    const { capOutput, MAX_OUTPUT_BYTES } = await import('../src/common/runner.js');
    expect(capOutput('small')).toBeNull();
    expect(capOutput('x'.repeat(MAX_OUTPUT_BYTES / 2))).toBeNull();
    expect(capOutput('x'.repeat(MAX_OUTPUT_BYTES / 2 + 1))).not.toBeNull();
    const list = Array.from({ length: 5000 }, (_, i) => ({ n: i, text: 'abcdefghij' }));
    const cut = capOutput(JSON.stringify(list));
    const kept = JSON.parse(cut?.value ?? '[]') as unknown[];
    expect(kept.length).toBeGreaterThan(100);
    expect(kept).toEqual(list.slice(0, kept.length));
    expect(Buffer.byteLength(cut?.value ?? '') * 2).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(cut?.left).toBe(`${5000 - kept.length} of 5000 entries`);
    const report = { version: 1, issues: list, counts: { all: 5000 } };
    const r = JSON.parse(capOutput(JSON.stringify(report))?.value ?? '{}');
    expect(r).toMatchObject({ version: 1, counts: { all: 5000 }, omitted: { field: 'issues' } });
    expect(r.issues.length + r.omitted.count).toBe(5000);
    const text = capOutput('line\n'.repeat(20_000));
    expect(text?.value.endsWith('line')).toBe(true);
    expect((text?.value.length ?? 0) * 2).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    // Non-ASCII is counted as UTF-8 bytes too.
    expect(capOutput('é'.repeat(20_000))).toBeNull();
    expect(capOutput('😀'.repeat(20_000))).not.toBeNull();
  });
});
