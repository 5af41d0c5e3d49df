// Writes action-index.md, and docs/reference.md's inputs and outputs tables, from the
// action.yml files, and the README's CLI block from the committed CLI bundle's
// own --help, so none drifts from what the code declares. `--check` exits 1
// when any is stale.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeOrCheck } from './generated-file.mjs';
import YAML from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const cell = (s) =>
  String(s ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();

const names = readdirSync(join(root, 'actions')).sort();
const docs = names.map((n) => [n, YAML.parse(readFileSync(join(root, 'actions', n, 'action.yml'), 'utf8'))]);

/** How an action runs: a node bundle of its own, or a composite running the committed bundles. */
function runs(n, y) {
  return y.runs.using === 'composite'
    ? "A composite action: its steps run the committed bundles with the runner's `node` and take every input through `env:`."
    : `Runs on \`${y.runs.using}\` from \`dist/${n}/index.js\`.`;
}

/** One action's inputs and outputs as Markdown tables, under headings of the given level. */
function tables(n, y, level) {
  const h = '#'.repeat(level);
  const out = [`${h} ${n}`, '', `${cell(y.description)} ${runs(n, y)}`, '', '| Input | Default | Description |', '|---|---|---|'];
  for (const [k, v] of Object.entries(y.inputs ?? {})) {
    const def = v.required ? '*required*' : v.default === undefined || v.default === '' ? '' : `\`${cell(v.default)}\``;
    out.push(`| \`${k}\` | ${def} | ${cell(v.description)} |`);
  }
  out.push('', '| Output | Description |', '|---|---|');
  for (const [k, v] of Object.entries(y.outputs ?? {})) out.push(`| \`${k}\` | ${cell(v.description)} |`);
  out.push('');
  return out;
}

export function render() {
  const out = [
    '# Action index',
    '',
    'Generated from `actions/*/action.yml` by `node scripts/action-index.mjs` — edit the action.yml files, not this page.',
    '',
    '| Action | `uses:` | What it does |',
    '|---|---|---|',
  ];
  for (const [n, y] of docs) out.push(`| [${y.name}](#${n}) | \`OWNER/forge-actions/actions/${n}@v1\` | ${cell(y.description)} |`);
  out.push('');
  for (const [n, y] of docs) out.push(...tables(n, y, 2));
  return out.join('\n');
}

/** `readme` with the block between `<!-- name -->` and `<!-- /name -->` replaced by `lines`. */
function replaceBlock(readme, name, lines) {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const a = readme.indexOf(open);
  const b = readme.indexOf(close);
  if (a < 0 || b < a) throw new Error(`the file has no ${open} block`);
  return `${readme.slice(0, a + open.length)}\n\n${lines.join('\n')}\n${readme.slice(b)}`;
}

/** Every command and option of the CLI, as the committed bundle prints them. */
function cliUsage() {
  const help = execFileSync(process.execPath, [join(root, 'dist', 'cli', 'index.js'), '--help'], { encoding: 'utf8' });
  return ['```text', help.trimEnd(), '```', ''];
}

/** The README with its generated block (the CLI's usage) made anew. */
export function renderReadme(readme) {
  return replaceBlock(readme, 'cli-usage', cliUsage());
}

/** docs/reference.md with its generated block (every action's inputs and outputs tables) made anew. */
export function renderReference(reference) {
  return replaceBlock(
    reference,
    'action-tables',
    docs.flatMap(([n, y]) => tables(n, y, 3)),
  );
}

writeOrCheck(join(root, 'action-index.md'), render(), 'action-index.md', 'node scripts/action-index.mjs');
writeOrCheck(
  join(root, 'README.md'),
  renderReadme(readFileSync(join(root, 'README.md'), 'utf8')),
  "README.md's CLI usage",
  'node scripts/action-index.mjs',
);
writeOrCheck(
  join(root, 'docs', 'reference.md'),
  renderReference(readFileSync(join(root, 'docs', 'reference.md'), 'utf8')),
  "docs/reference.md's inputs and outputs tables",
  'node scripts/action-index.mjs',
);
