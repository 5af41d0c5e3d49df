/**
 * Every in-page link of the README and the docs lands on a heading, as GitHub
 * makes its anchors: lower case, punctuation dropped, blanks to hyphens, a
 * repeated heading numbered (-1, -2, …). A renamed heading breaks `npm test`,
 * not a reader's click.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(new URL('.', import.meta.url).pathname, '..');

/** GitHub's anchor for a heading's text. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^#{1,6} (.+?)\s*#*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'docs/internals.md',
  'docs/implementation-notes.md',
  'docs/trust.md',
  'docs/codec.md',
  'docs/reference.md',
  'docs/workflows.md',
];

test.each(PAGES)('%s: every #anchor link has its heading', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const known = anchors(text);
  const links = [...text.matchAll(/\]\(#([^)\s]+)\)/g)].map((m) => m[1]);
  // The README's first screen links within itself: the test holds it to something.
  expect(links.length).toBeGreaterThan({ 'README.md': 3 }[file] ?? -1);
  expect(links.filter((l) => !known.has(l))).toEqual([]);
});

test('the slug is the one GitHub makes', () => {
  expect(slug('The `forge` CLI')).toBe('the-forge-cli');
  expect(slug('forge-check — the conformance gate')).toBe('forge-check--the-conformance-gate');
  expect(slug('Trust: who may pass a gate')).toBe('trust-who-may-pass-a-gate');
});

test('the Tokens and permissions table has a row for every action, and names the writes each mode needs', async () => {
  const { readdirSync } = await import('node:fs');
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Tokens and permissions'),
    readme.indexOf('\n## ', readme.indexOf('## Tokens and permissions') + 5),
  );
  const rows = new Map(
    section
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| Action') && !l.startsWith('|---'))
      .map((l) => [l.split('|')[1].trim(), l] as const),
  );
  for (const action of readdirSync(join(ROOT, 'actions'))) expect(rows.has(action)).toBe(true);
  expect(rows.get('forge-trajectory-report')).toContain('`release: draft` needs `contents: write`');
  expect(rows.get('forge-check')).toContain('`statuses: write` with `status: true`');
});

test.each(PAGES)('%s: every link to another page lands on a file, and its #anchor on a heading there', async (file) => {
  const { existsSync } = await import('node:fs');
  const { dirname, normalize } = await import('node:path');
  const text = readFileSync(join(ROOT, file), 'utf8');
  const broken: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s#:]+\.md)(?:#([^)\s]+))?\)/g)) {
    const target = normalize(join(dirname(file), m[1]));
    if (!existsSync(join(ROOT, target))) {
      broken.push(`${m[1]} (no such file)`);
      continue;
    }
    if (m[2] && !anchors(readFileSync(join(ROOT, target), 'utf8')).has(m[2])) broken.push(`${m[1]}#${m[2]}`);
  }
  expect(broken).toEqual([]);
});

test('the README is a first screen and a guide: the reference, the long workflows, the codec and the trust rules live in docs/', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  // About release-drafter's README (27 KB) and the comment actions': a page a user reads, not a manual.
  expect(Buffer.byteLength(readme)).toBeLessThan(32_000);
  expect(readme).not.toContain('<!-- action-tables -->');
  expect(readFileSync(join(ROOT, 'docs/reference.md'), 'utf8')).toContain('<!-- action-tables -->');
  for (const page of ['docs/trust.md', 'docs/codec.md', 'docs/reference.md', 'docs/workflows.md', 'docs/internals.md'])
    expect(readme).toContain(`](${page}`);
  // Each action's own section and each long workflow is on one page only.
  for (const heading of ['## forge-check — the conformance gate', '## The gate that follows the work', '## Release notes on close']) {
    const pages = ['README.md', 'docs/reference.md', 'docs/workflows.md'].filter((p) =>
      readFileSync(join(ROOT, p), 'utf8')
        .split('\n')
        .some((l) => l.replace(/^#+/, '#') === heading.replace(/^#+/, '#')),
    );
    expect([heading, pages.length]).toEqual([heading, 1]);
  }
});

test('the README says what the gate cannot change, in one section the docs link to', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('## What the gate cannot change');
  expect(at).toBeGreaterThan(0);
  const section = readme.slice(at, readme.indexOf('\n## ', at + 5));
  for (const topic of [
    'Workflow-token events start nothing',
    'Closing keywords link only',
    '1,000 statuses per commit',
    "refuse the workflow's `GITHUB_TOKEN`",
    "a gist revised in\n  place moves forge-context's digest",
  ])
    expect(section).toContain(topic);
  for (const page of ['docs/workflows.md', 'docs/internals.md'])
    expect(readFileSync(join(ROOT, page), 'utf8')).toContain('](../README.md#what-the-gate-cannot-change)');
});

test.each(PAGES)('%s: every relative link to a file or folder (examples, pictures, scripts) lands on one', async (file) => {
  const { existsSync } = await import('node:fs');
  const { dirname, normalize } = await import('node:path');
  const text = readFileSync(join(ROOT, file), 'utf8');
  const targets = [...text.matchAll(/\]\(([^)\s#:]+)(?:#[^)\s]*)?\)/g)].map((m) => m[1]);
  expect(targets.filter((t) => !existsSync(join(ROOT, normalize(join(dirname(file), t)))))).toEqual([]);
});

test("docs/workflows.md's legend of the status comment's picture has a row for every state the picture draws", async () => {
  const { CLASSES } = await import('../src/forge-check/status-comment/body.js');
  const page = readFileSync(join(ROOT, 'docs', 'workflows.md'), 'utf8');
  const at = page.indexOf("How to read the chain's boxes");
  const rows = page
    .slice(at, page.indexOf('\n\n', page.indexOf('| Box |', at)))
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Box') && !l.startsWith('|---'))
    .map((l) => l.split('|')[2].trim().replace(/`/g, ''));
  const drawn = Object.keys(CLASSES).map((k) => (k === 'extra' ? '· not required' : k));
  expect(rows.sort()).toEqual(drawn.sort());
});
