/** Edges a stranger or an accident can reach: inputs that climb out of a URL, logins GitHub issues, planted files, live links. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main.js';
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

describe('forge report merge reads artifacts other jobs wrote', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-merge-'));
  const report = (repository: string, extra: Record<string, unknown> = {}) => ({
    version: 1,
    repository,
    generatedAt: '2026-01-01T00:00:00Z',
    required: ['BUILDER'],
    validation: 'strict',
    incremental: false,
    filter: { state: 'all', labels: [], milestone: null },
    issues: [
      {
        number: 7,
        title: 'Fix ![pixel](https://track.example/p.png) [click](https://evil.example)',
        url: 'javascript:alert(1)',
        state: 'workflow:`x` | y\n::warning::state',
        status: 'failing',
        types: { BUILDER: 'missing' },
        problems: ['issue #7: BUILDER is missing\n::add-mask::secret\n  ::warning::indented'],
      },
    ],
    ...extra,
  });
  const file = (name: string, data: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(data));
    return path;
  };
  const merge = (...args: string[]) => {
    let out = '';
    let err = '';
    const code = main(['report', 'merge', ...args], { out: (s) => (out += s), err: (s) => (err += s), readStdin: () => '' });
    return { code, out, err };
  };

  test('no line of any format begins with a workflow command, and nothing renders as a link, image or HTML', () => {
    const path = file('evil.json', report('octo/a\n::warning::repo'));
    for (const format of ['text', 'markdown']) {
      const { out } = merge(path, '--format', format);
      for (const line of out.split('\n')) expect(line.trimStart().startsWith('::')).toBe(false);
    }
    const md = merge(path, '--format', 'markdown').out;
    expect(md).not.toContain('javascript:');
    expect(md).not.toMatch(/\]\(https:\/\/(evil|track)\.example/);
  });

  test('the same repository given twice is counted once; two different audits of it are refused', () => {
    const a = file('a.json', report('octo/a'));
    const again = merge(a, a, '--format', 'json');
    const merged = JSON.parse(again.out) as { counts: { failing: number }; repositories: unknown[]; notes: string[] };
    expect(merged.counts.failing).toBe(1);
    expect(merged.repositories).toHaveLength(1);
    expect(merged.notes).toEqual(['octo/a was given twice: counted once, from the report generated at 2026-01-01T00:00:00Z']);
    const other = file('b.json', report('OCTO/a', { filter: { state: 'open', labels: ['x'], milestone: null } }));
    const refused = merge(a, other);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      'forge: report merge: OCTO/a is given twice with different filters (state all; state open, labels x): merge one audit per repository\n',
    );
  });
});

test('validation messages carry annotation text on one line: forge validate and forge check print no workflow command', () => {
  const body =
    '<!-- FORGE:INVESTIGATOR -->\n**Verdict**:\n- CONFIRMED\n- ::add-mask::secret\n  ::warning::x\n<!-- INVESTIGATION:COMPLETE -->';
  const run = (args: string[], input: string) => {
    let out = '';
    main(args, { out: (s) => (out += s), err: (s) => (out += s), readStdin: () => input });
    return out;
  };
  const printed = [
    run(['validate', '-'], body),
    run(['check', '-'], JSON.stringify([{ id: 1, body, user: { login: 'o' }, author_association: 'OWNER', html_url: 'h' }])),
  ].join('\n');
  expect(printed).toContain('::add-mask::');
  for (const line of printed.split('\n')) expect(line.trimStart().startsWith('::')).toBe(false);
});
