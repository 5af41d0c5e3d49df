/** The CLI as users run it: the dist bundle under plain node. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/run-action.js';

const forge = (args: string[], input?: string) => {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), ...args], { input, encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const tmp = mkdtempSync(join(tmpdir(), 'forge-cli-'));

test('emit | parse round trip through stdin', () => {
  const e = forge(['emit', 'BUILDER', '--field', 'Branch=fix/a', '--field', 'Commits=abc', '--field', 'Files changed=2', '--section', 'Approach=Guard it.']);
  expect(e.code).toBe(0);
  const p = forge(['parse', '-'], e.out);
  expect(p.code).toBe(0);
  const [a] = JSON.parse(p.out);
  expect(a).toMatchObject({ type: 'BUILDER', sentinelState: 'complete', inlineValue: null, isReserved: true, isControl: false, valid: true, errors: [], warnings: [] });
  expect(a.fields).toEqual({ Branch: 'fix/a', Commits: 'abc', 'Files changed': '2' });
  expect(a.sections).toEqual({ Approach: 'Guard it.' });
});

test('validate: a readable report, exit 1 when any annotation is invalid', () => {
  const file = join(tmp, 'bad.md');
  writeFileSync(file, '<!-- FORGE:REVIEWER -->\n**Verdict**: LGTM\n');
  const r = forge(['validate', file]);
  expect(r.code).toBe(1);
  expect(r.out).toContain('INVALID  REVIEWER (complete) line 1');
  expect(r.out).toContain('error: REVIEWER: field "Verdict" is "LGTM" — expected one of APPROVED, CHANGES_REQUESTED, COMMENTED (§4.1)');
  expect(forge(['validate', '-'], '<!-- FORGE:GATE_FAILED -->').code).toBe(0);
});

test('emit --partial, --value, --card and a digit type warning', () => {
  expect(forge(['emit', 'CONTEXT', '--partial']).out.trim().endsWith('<!-- FORGE:CONTEXT:PARTIAL -->')).toBe(true);
  expect(forge(['emit', 'PRIOR_GIST', '--value', 'https://gist.github.com/a/b']).out).toBe('<!-- FORGE:PRIOR_GIST: https://gist.github.com/a/b -->\n');
  expect(forge(['emit', 'CARD', '--card', '{"issue":1370,"status":"merged"}']).out).toMatch(/^<!-- FORGE:CARD: v1 sha:[0-9a-f]{8} b64:[A-Za-z0-9_-]+ -->\n$/);
  const d = forge(['emit', 'ACME_V2', '--field', 'a=b']);
  expect(d.code).toBe(0);
  expect(d.err).toContain('warning: type ACME_V2 is outside [A-Z_]+');
});

test('check: the example thread conforms; lifecycle does not; exit codes follow', () => {
  const ok = forge(['check', 'examples/issue-128-thread.json']);
  expect(ok.code).toBe(0);
  expect(ok.out).toContain('ignored REVIEWER by drive-by (NONE)');
  const strict = forge(['check', 'examples/issue-128-thread.json', '--required', 'lifecycle']);
  expect(strict.code).toBe(1);
  expect(strict.out).toContain('issue #128: CONTRACT is missing');
  const json = JSON.parse(forge(['check', 'examples/issue-128-thread.json', '--json']).out);
  expect(json).toMatchObject({ conforming: true, state: 'workflow:merged', terminal: true });
});

test('check reads a plain gh api comments array too', () => {
  const file = join(tmp, 'comments.json');
  writeFileSync(file, JSON.stringify([{ id: 1, html_url: 'u', user: { login: 'm' }, author_association: 'MEMBER', body: '<!-- FORGE:INVESTIGATOR -->\n**Verdict**: CONFIRMED' }]));
  const r = forge(['check', file, '--required', 'INVESTIGATOR', '--validation', 'presence']);
  expect(r.code).toBe(1);
  expect(r.out).toContain('INVESTIGATOR is not complete');
});

test.each([
  [['emit'], 'forge: emit: missing TYPE'],
  [['emit', 'BUILDER', '--field', 'novalue'], 'forge: --field expects KEY=VALUE, got "novalue"'],
  [['emit', 'BUILDER', '--nope'], 'forge: unknown option --nope'],
  [['emit', 'bad type'], 'forge: "bad type" is not a type name'],
  [['emit', 'CARD', '--card', '{nope'], 'forge: --card is not valid JSON'],
  [['parse', '/no/such/file'], 'forge: cannot read /no/such/file: ENOENT'],
  [['check', 'package-lock.json'], 'forge: package-lock.json: expected a JSON array of comments or an object {issue, comments}'],
  [['check', 'jest.config.js'], 'forge: jest.config.js is not valid JSON'],
  [['check', 'examples/issue-128-thread.json', '--validation', 'loose'], 'forge: --validation must be strict or presence'],
  [['frobnicate'], 'forge: unknown command "frobnicate"'],
])('user mistake %j → one line, exit 2', (args, message) => {
  const r = forge(args);
  expect(r.code).toBe(2);
  expect(r.err.split('\n').filter(Boolean)).toHaveLength(1);
  expect(r.err).toContain(message);
  expect(r.out).toBe('');
});

test('conformance: our fixtures all pass and the count line closes the output', () => {
  const r = forge(['conformance', 'fixtures']);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/\n\d+ passed, 0 failed\n$/);
});

test('conformance: a failing fixture fails the run and says why', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-fx-'));
  writeFileSync(join(dir, 'a.json'), JSON.stringify({ description: 'wrong on purpose', input: '<!-- FORGE:GATE_FAILED -->', expect: { type: 'GATE_FAILED', valid: false } }));
  const r = forge(['conformance', dir]);
  expect(r.code).toBe(1);
  expect(r.out).toContain('not ok - ');
  expect(r.out).toContain('wrong on purpose: expected valid=false, got true');
  expect(r.out.trim().split('\n').pop()).toBe('0 passed, 1 failed');
});
