/** Edges a stranger or an accident can reach: inputs that climb out of a URL, logins GitHub issues, planted files, live links. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inert, linkTarget } from '../src/common/markdown.js';
import { bool } from '../src/common/inputs.js';
import { fold, setOutput, notice, info } from '../src/common/workflow-commands.js';
import { statusMarker, isStatusComment } from '../src/forge-check/status-comment/body.js';
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
    'see &#91;the fix&#93;(https&#8203;://evil.example) and !&#91;x&#93;(https&#8203;://track.example/p.png) &lt;b&gt;@&#8203;octocat&lt;/b&gt;',
  );
});

test('inert text holds no autolink: bare https://, http://, www. and mailto: are broken where GitHub looks for them', () => {
  const text = inert('Fix for https://evil.example/x, http://a.example, WWW.phish.example and mailto:x@y.example');
  expect(text).toBe(
    'Fix for https&#8203;://evil.example/x, http&#8203;://a.example, WWW&#8203;.phish.example and mailto&#8203;:x@&#8203;y.example',
  );
  // What GitHub's autolinker looks for is gone once the entity is read back.
  const shown = text.replace(/&#8203;/g, '\u200b');
  expect(shown).not.toMatch(/https?:\/\/|\bwww\.|mailto:/i);
});

test("the version checkpoints record is package.json's", async () => {
  const { VERSION } = await import('../src/common/version.js');
  const pkg = JSON.parse(readFileSync(join(new URL('.', import.meta.url).pathname, '..', 'package.json'), 'utf8'));
  expect(VERSION).toBe(pkg.version);
});

describe('hardening round 4', () => {
  function captured(f: () => void): string {
    const write = process.stdout.write.bind(process.stdout);
    let out = '';
    process.stdout.write = ((chunk: string) => {
      out += chunk;
      return true;
    }) as typeof process.stdout.write;
    try {
      f();
    } finally {
      process.stdout.write = write;
    }
    return out;
  }

  test('nothing read from GitHub becomes a runner command: a plain line is folded (##[ anywhere, :: at a line start); an annotation is one line that @actions/core writes as it always does', () => {
    expect(fold('milestone ##[error]boom')).not.toContain('##[');
    expect(fold('a\n::error::x\n  ::warning::y')).not.toMatch(/^\s*::/m);
    const out = captured(() => {
      info('title: ##[error]forged\n::error::forged too');
      notice('gist file ##[warning]x.md\n::error::a second line');
    });
    const lines = out.split('\n').filter((l) => l !== '');
    // The plain lines carry no command at all.
    const plain = lines.filter((l) => !l.startsWith('::notice::'));
    expect(plain.join('\n')).not.toContain('##[');
    expect(plain.filter((l) => /^\s*::/.test(l))).toEqual([]);
    // The annotation is exactly what @actions/core writes: one `::notice::` line, its line break escaped, no folding.
    expect(lines.filter((l) => l.startsWith('::notice::'))).toEqual(['::notice::gist file ##[warning]x.md%0A::error::a second line']);
  });

  test('boolean inputs take only the YAML 1.2 core spellings; empty is the default', () => {
    const p = bool(false);
    for (const v of ['true', 'True', 'TRUE']) expect(p(v, 'x')).toBe(true);
    for (const v of ['false', 'False', 'FALSE']) expect(p(v, 'x')).toBe(false);
    expect(p('  ', 'x')).toBe(false);
    expect(bool(true)('', 'x')).toBe(true);
    for (const v of ['yes', 'on', '1', 'tRuE', 'toString', 'constructor'])
      expect(() => p(v, 'comment')).toThrow(`input "comment" must be true or false`);
  });

  test('an output keeps a trailing CR, and a bad output name is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'forge-out-'));
    const file = join(dir, 'output');
    writeFileSync(file, '');
    const before = process.env.GITHUB_OUTPUT;
    process.env.GITHUB_OUTPUT = file;
    try {
      setOutput('value', 'line\r');
      expect(() => setOutput('bad name', 'x')).toThrow('is not an output name');
      expect(() => setOutput('a<<b', 'x')).toThrow('is not an output name');
    } finally {
      process.env.GITHUB_OUTPUT = before;
    }
    // The runner splits on the platform's line end (LF here): the value's own CR stays in it.
    const [head, value, end] = readFileSync(file, 'utf8').split('\n');
    expect(head).toMatch(/^value<<ghadelimiter_/);
    expect(value).toBe('line\r');
    expect(end).toBe(head.slice('value<<'.length));
  });

  test('link targets cannot close the link: ( ) blanks < > | \\ are percent-encoded', () => {
    const evil = 'https://gist.github.com/u/abc)![x](https://evil.example/i.png) |<b>\\';
    const t = linkTarget(evil);
    expect(t).not.toMatch(/[()\s<>|\\]/);
    expect(decodeURIComponent(t)).toBe(evil);
    expect(`[gist](${t})`.match(/\]\(/g)).toHaveLength(1);
  });

  test("the status comment's marker keeps the gate's name losslessly, and nothing can end the HTML comment", () => {
    expect(statusMarker('FORGE 設計')).not.toBe(statusMarker('FORGE 実装'));
    expect(statusMarker('a_b')).not.toBe(statusMarker('a?b'));
    expect(statusMarker('x-->y').match(/-->/g)).toHaveLength(1);
    expect(statusMarker('x-->y')).toContain('(x-%2D%3Ey)');
    expect(statusMarker('x--y').slice(4, -3)).not.toContain('--');
    expect(statusMarker('FORGE gate-2')).toContain('(FORGE gate-2)');
    expect(isStatusComment(`${statusMarker('FORGE 設計')}\nbody`, 'FORGE 実装')).toBe(false);
  });
});
