import { closingIssues } from '../src/common/closing.js';
import { parseTrustPolicy, isTrusted } from '../src/common/trust.js';
import { parseRequired } from '../src/forge-check/evaluate.js';

test('closing keywords, any case, with #N, owner/repo#N and URLs of this repository', () => {
  const body = 'Fixes #12, closes #13.\r\nRESOLVED: #14\nfix octo/repo#15 and fix other/repo#16\nresolves https://github.com/octo/repo/issues/17\nmentions #18\nfixes #12';
  expect(closingIssues(body, 'octo/repo')).toEqual([12, 13, 14, 15, 17]);
  expect(closingIssues('no keywords #3', 'octo/repo')).toEqual([]);
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
