/** Edges a stranger or an accident can reach: inputs that climb out of a URL, logins GitHub issues, planted files, live links. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inert } from '../src/common/markdown.js';
import { writeWorkspaceFile } from '../src/common/paths.js';
import { parseRepository } from '../src/common/repo.js';
import { counts, parseTrustPolicy } from '../src/common/trust.js';

test('repository: dot segments are refused, as GitHub gives no such names; dotted names are fine', () => {
  for (const bad of ['../..', '../x', 'x/..', './x', 'x/.', '.', '..', '.../x'])
    expect(() => parseRepository(bad)).toThrow(`repository: ${JSON.stringify(bad)} is not of the form owner/name`);
  expect(parseRepository('octo.org/my.repo')).toEqual({ owner: 'octo.org', repo: 'my.repo' });
  expect(parseRepository('octo/.github')).toEqual({ owner: 'octo', repo: '.github' });
});

test("trusted-authors takes every login GitHub issues, Enterprise Managed Users' included", () => {
  const policy = parseTrustPolicy('alice_acme, @bob-smith_corp2, agent[bot]');
  expect(counts('comment', { login: 'Alice_ACME', association: 'NONE' }, policy)).toBe(true);
  expect(counts('comment', { login: 'bob-smith_corp2', association: 'NONE' }, policy)).toBe(true);
  expect(counts('comment', { login: 'alice', association: 'NONE' }, policy)).toBe(false);
  for (const bad of ['alice__acme', '_alice', 'alice_', 'a b']) expect(() => parseTrustPolicy(bad)).toThrow('trusted-authors:');
});

test('a workspace file is written through a temporary file nobody can plant in advance', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-plant-'));
  const target = join(dir, 'report.json');
  const elsewhere = join(dir, 'outside.txt');
  writeFileSync(elsewhere, 'untouched');
  // The name the old scheme used (path.pid.tmp), planted as a link to a file outside.
  symlinkSync(elsewhere, `${target}.${process.pid}.tmp`);
  writeWorkspaceFile(target, '{"ok":true}\n');
  expect(readFileSync(target, 'utf8')).toBe('{"ok":true}\n');
  expect(readFileSync(elsewhere, 'utf8')).toBe('untouched');
  // Nothing left behind but the file, the planted link and the outside file.
  expect(readdirSync(dir).sort()).toEqual(['outside.txt', `report.json`, `report.json.${process.pid}.tmp`].sort());
  expect(existsSync(target)).toBe(true);
});

test('inert text holds no link and no image', () => {
  const text = inert('see [the fix](https://evil.example) and ![x](https://track.example/p.png) <b>@octocat</b>');
  expect(text).not.toMatch(/\[[^\]]*\]\(/);
  expect(text).toBe(
    'see &#91;the fix&#93;(https://evil.example) and !&#91;x&#93;(https://track.example/p.png) &lt;b&gt;@&#8203;octocat&lt;/b&gt;',
  );
});

test("the version checkpoints record is package.json's", async () => {
  const { VERSION } = await import('../src/common/version.js');
  const pkg = JSON.parse(readFileSync(join(new URL('.', import.meta.url).pathname, '..', 'package.json'), 'utf8'));
  expect(VERSION).toBe(pkg.version);
});
