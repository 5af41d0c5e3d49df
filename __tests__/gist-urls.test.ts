import { gistIdFromUrl, gistUrlsInText } from '../src/common/gist-urls.js';
import { memoryIndexRepo } from '../src/gist-visibility-audit/logic/collect.js';
import { lastPage } from '../src/github/reads.js';

const ID = 'aa5a315d61ae9438b18d';
const LONG = '0123456789abcdef0123456789abcdef';

test.each([
  [`https://gist.github.com/octo/${ID}`, ID],
  [`https://gist.github.com/${ID}`, ID],
  [`https://gist.github.com/octo/${LONG}/`, LONG],
  [`https://gist.github.com/octo/${LONG}#file-notes-md`, LONG],
  [`https://gist.github.com/${LONG}.git`, LONG],
  [`https://gist.github.com/octo/${LONG}/raw/abc123/notes.md`, LONG],
  [`https://gist.githubusercontent.com/octo/${LONG}/raw/abc123/notes.md`, LONG],
  [`https://gist.ghe.example.com/octo/${LONG}`, LONG],
  [`https://ghe.example.com/gist/octo/${LONG}`, LONG],
  ['https://gist.github.com/octo/1234567', '1234567'],
])('%s → %s', (url, id) => {
  expect(gistIdFromUrl(url)).toBe(id);
});

test.each([
  'https://github.com/octo/repo',
  'https://example.com/gist',
  'not a url',
  `ftp://gist.github.com/${LONG}`,
  'https://gist.github.com/octo',
])('%s is not a gist URL', (url) => {
  expect(gistIdFromUrl(url)).toBeNull();
});

test('gist links inside an index file', () => {
  const text = `# Index\n- [one](https://gist.github.com/octo/${LONG}).\n- https://gist.github.com/${ID}, see also https://github.com/octo/repo`;
  expect(gistUrlsInText(text)).toEqual([
    { url: `https://gist.github.com/octo/${LONG}`, id: LONG },
    { url: `https://gist.github.com/${ID}`, id: ID },
  ]);
});

test('the memory index named in a gist description', () => {
  expect(memoryIndexRepo('<!-- FORGE:MEMORY_INDEX: octo/repo -->')).toBe('octo/repo');
  expect(memoryIndexRepo('FORGE memory for octo/repo <!-- FORGE:MEMORY_INDEX: Octo/Repo -->')).toBe('Octo/Repo');
  expect(memoryIndexRepo('just notes')).toBeNull();
  expect(memoryIndexRepo(null)).toBeNull();
});

test('rel="last" from a Link header', () => {
  expect(
    lastPage('<https://api.github.com/x?page=2&per_page=100>; rel="next", <https://api.github.com/x?per_page=100&page=10>; rel="last"'),
  ).toBe(10);
  expect(lastPage(undefined)).toBeNull();
  expect(lastPage('<https://api.github.com/x?page=1>; rel="prev"')).toBeNull();
});

test('the GitHub a gist URL belongs to: github.com for gist.github.com and its raw host, HOST for gist.HOST and HOST/gist', async () => {
  const { gistHostOf, onThisGitHub } = await import('../src/common/gist-urls.js');
  expect(gistHostOf('https://gist.github.com/u/abc')).toBe('github.com');
  expect(gistHostOf('https://gist.githubusercontent.com/u/abc/raw/x/f.md')).toBe('github.com');
  expect(gistHostOf('https://gist.ghes.example/u/abc')).toBe('ghes.example');
  expect(gistHostOf('https://ghes.example/gist/u/abc')).toBe('ghes.example');
  expect(onThisGitHub('https://gist.github.com/u/abc', 'https://github.com')).toBe(true);
  expect(onThisGitHub('https://gist.githubusercontent.com/u/abc/raw/f', 'https://github.com')).toBe(true);
  expect(onThisGitHub('https://gist.github.com/u/abc', 'https://ghes.example')).toBe(false);
  expect(onThisGitHub('https://gist.github.com/u/abc', 'https://octo.ghe.com')).toBe(false);
  expect(onThisGitHub('https://ghes.example/gist/u/abc', 'https://ghes.example')).toBe(true);
});
