// Renders forge-check's status comment the way GitHub shows it — Markdown to
// HTML, the Mermaid block drawn by Mermaid's own bundle — in headless Chromium,
// and saves the picture the README shows (docs/status-comment.png).
// The scenario is the one a reviewer meets most: a PR whose issue has its
// INVESTIGATOR, with the BUILDER not yet posted and the review in place.
// Usage: node scripts/status-comment-picture.mjs [out.png]   (needs Debian's chromium)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const out = resolve(process.argv[2] ?? join(root, 'docs', 'status-comment.png'));

// The source, compiled as it is (swc strips the types), so the picture shows this checkout's renderer.
const { transformFileSync } = await import('@swc/core');
const build = mkdtempSync(join(tmpdir(), 'forge-picture-'));
const walk = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
for (const file of walk(join(root, 'src')).filter((f) => f.endsWith('.ts'))) {
  const target = join(build, relative(join(root, 'src'), file)).replace(/\.ts$/, '.js');
  mkdirSync(dirname(target), { recursive: true });
  const { code } = transformFileSync(file, { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } });
  writeFileSync(target, code);
}
writeFileSync(join(build, 'package.json'), '{"type":"module"}');
const load = (path) => import(pathToFileURL(join(build, path)).href);
const { emit } = await load('codec/index.js');
const { parseTrustPolicy } = await load('common/trust.js');
const { evaluate } = await load('decision/evaluate.js');
const { statusCommentBody } = await load('forge-check/status-comment/body.js');

const owner = { login: 'octo-owner', association: 'OWNER' };
const agent = { login: 'forge-agent[bot]', association: 'NONE' };
const comment = (id, body, author = owner) => ({
  id,
  url: `https://github.com/octo/shop/issues/12#issuecomment-${id}`,
  author,
  body,
  createdAt: null,
});
const investigator = emit('INVESTIGATOR', {
  fields: {
    Verdict: 'CONFIRMED',
    Confidence: 'HIGH',
    Severity: 'MEDIUM',
    'Task Type': 'Bug Fix',
    'Decomposition Assessment': 'NO — single fix',
  },
  sections: { 'Root Cause': 'The lookup does not guard a missing billing profile.', Recommendation: 'Guard it.' },
});
const reviewer = emit('REVIEWER', { fields: { Verdict: 'APPROVED', 'Review Type': 'code' }, sections: { Findings: 'Looks right.' } });
const issue = {
  number: 12,
  kind: 'issue',
  url: 'https://github.com/octo/shop/issues/12',
  title: 'Checkout fails without a billing profile',
  author: owner,
  body: '',
  labels: ['workflow:building'],
  state: 'open',
  milestone: null,
  comments: [comment(1, investigator, agent)],
};
const pr = {
  ...issue,
  number: 31,
  kind: 'pull',
  url: 'https://github.com/octo/shop/pull/31',
  labels: [],
  comments: [comment(2, reviewer, agent)],
};
const trust = parseTrustPolicy('OWNER, MEMBER, COLLABORATOR, forge-agent[bot]');
const result = evaluate([issue], [pr], {
  required: ['INVESTIGATOR', 'BUILDER', 'REVIEWER'],
  validation: 'strict',
  trust,
  pull: { number: 31, head: 'fix/billing' },
});
const body = statusCommentBody(result, 'Kept up to date by forge-check.', {
  pull: 31,
  runUrl: 'https://github.com/octo/shop/actions/runs/4242',
});

const { marked } = await import('marked');
const mermaidJs = readFileSync(join(root, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js'), 'utf8');
// GitHub turns a ```mermaid fence into a drawing; everything else is ordinary GitHub-flavoured Markdown.
const html = marked
  .parse(body, { gfm: true })
  .replace(/<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g, '<pre class="mermaid">$1</pre>');
const page = join(build, 'comment.html');
writeFileSync(
  page,
  `<!doctype html><meta charset="utf-8"><style>
  body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; margin: 0; background: #fff; }
  .comment { width: 860px; margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
  .head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; color: #59636e; }
  .head b { color: #1f2328; }
  .body { padding: 16px; }
  h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; margin-top: 0; }
  h3 { font-size: 1.25em; }
  table { border-collapse: collapse; margin: 8px 0 16px; }
  th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
  tr:nth-child(2n) { background: #f6f8fa; }
  code { background: #eff1f3; padding: .2em .4em; border-radius: 6px; font-size: 85%; }
  pre.mermaid { background: none; text-align: center; }
  sub { color: #59636e; }
</style>
<div class="comment"><div class="head"><b>github-actions</b> <span>bot</span> commented</div><div class="body">${html}</div></div>
<script>${mermaidJs}</script>
<script>mermaid.initialize({ startOnLoad: true, theme: 'default', securityLevel: 'strict' });</script>`,
);
mkdirSync(dirname(out), { recursive: true });
execFileSync(
  process.env.CHROMIUM ?? '/usr/bin/chromium',
  [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${join(build, 'profile')}`,
    '--hide-scrollbars',
    '--virtual-time-budget=5000',
    '--window-size=900,620',
    `--screenshot=${out}`,
    pathToFileURL(page).href,
  ],
  { stdio: 'ignore' },
);
process.stdout.write(`${out}\n`);
