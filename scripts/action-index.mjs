// Writes action-index.md from the action.yml files, so the index never drifts
// from what the actions declare. `--check` exits 1 when the file is stale.
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

export function render() {
  const out = [
    '# Action index',
    '',
    'Generated from `actions/*/action.yml` by `node scripts/action-index.mjs` — edit the action.yml files, not this page.',
    '',
    '| Action | `uses:` | What it does |',
    '|---|---|---|',
  ];
  const names = readdirSync(join(root, 'actions')).sort();
  const docs = names.map((n) => [n, YAML.parse(readFileSync(join(root, 'actions', n, 'action.yml'), 'utf8'))]);
  for (const [n, y] of docs) out.push(`| [${y.name}](#${n}) | \`OWNER/forge-actions/actions/${n}@v1\` | ${cell(y.description)} |`);
  out.push('');
  for (const [n, y] of docs) {
    out.push(
      `## ${n}`,
      '',
      cell(y.description),
      '',
      `Runs on \`${y.runs.using}\` from \`dist/${n}/index.js\`.`,
      '',
      '### Inputs',
      '',
      '| Input | Default | Description |',
      '|---|---|---|',
    );
    for (const [k, v] of Object.entries(y.inputs ?? {})) {
      const def = v.required ? '*required*' : v.default === undefined || v.default === '' ? '' : `\`${cell(v.default)}\``;
      out.push(`| \`${k}\` | ${def} | ${cell(v.description)} |`);
    }
    out.push('', '### Outputs', '', '| Output | Description |', '|---|---|');
    for (const [k, v] of Object.entries(y.outputs ?? {})) out.push(`| \`${k}\` | ${cell(v.description)} |`);
    out.push('');
  }
  return out.join('\n');
}

writeOrCheck(join(root, 'action-index.md'), render(), 'action-index.md', 'node scripts/action-index.mjs');
