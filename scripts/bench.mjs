// Parse and emit throughput of the built codec (dist/codec), on a realistic
// thread and on adversarial bodies at 8/16/32/64 KB. Prints figures only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emit, parse } from '../dist/codec/index.js';

/**
 * Milliseconds per call: the median over batches of about 5 ms each, after a
 * warm-up, so a garbage-collection pause or a JIT tier-up moves one batch, not the figure.
 */
function time(fn, minMs = 200) {
  const warm = process.hrtime.bigint();
  let perBatch = 0;
  while (Number(process.hrtime.bigint() - warm) / 1e6 < minMs / 4) {
    fn();
    perBatch++;
  }
  perBatch = Math.max(1, Math.round(perBatch / (minMs / 4 / 5)));
  const samples = [];
  const start = process.hrtime.bigint();
  while (Number(process.hrtime.bigint() - start) / 1e6 < minMs || samples.length < 5) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6 / perBatch);
  }
  samples.sort((x, y) => x - y);
  return samples[Math.floor(samples.length / 2)];
}

const mbps = (bytes, ms) => (bytes / 1e6 / (ms / 1000)).toFixed(0);

const PROSE =
  'The billing-profile lookup does not guard against a null profile for free-tier users; `payments/validator.py:142` raises on every checkout. ';

/** One annotation of each kind in turn, `scale` controls how much prose each carries. */
function annotation(i, scale) {
  const prose = PROSE.repeat(scale);
  switch (i % 8) {
    case 0:
      return emit('INVESTIGATOR', {
        fields: {
          Verdict: 'CONFIRMED',
          Confidence: 'HIGH',
          Severity: 'HIGH',
          'Task Type': 'Bug Fix',
          'Decomposition Assessment': 'NO — one file',
        },
        sections: {
          'What Was Claimed': prose,
          'What We Found': prose.repeat(3),
          'Root Cause': prose,
          Evidence: prose.repeat(2),
          Recommendation: prose,
        },
      });
    case 1:
      return emit('CONTRACT', {
        fields: { 'Task type': 'Bug Fix' },
        sections: {
          'Proposed Approach': prose,
          Deliverables: Array.from({ length: 6 }, (_, j) => ({ File: `src/m${j}.ts`, Change: 'guard', Why: 'null' })),
          'Acceptance Criteria': ['no raise', 'regression test', 'docs'],
        },
      });
    case 2:
      return emit('CONTEXT', {
        sections: {
          'Known Pitfalls for This Area': prose.repeat(2),
          'Past Bugs in This Module': prose,
          'Patterns That Cause Bugs Here': '```py\nif profile is None:\n    raise\n```',
        },
      });
    case 3:
      return emit('ARCHITECT', {
        sections: {
          'Affected Paths (ALL must be updated)': Array.from({ length: 5 }, (_, j) => ({
            '#': j + 1,
            File: `a${j}.py`,
            'Function/Class': 'f',
            'Change Required': 'guard',
            Why: 'x',
          })),
          'Implementation Order': [prose],
          'Consistency Checks': ['all paths guard'],
        },
      });
    case 4:
      return emit('BUILDER', {
        fields: { Branch: '`fix/null-128`', Commits: 'a1b2c3d e4f5a6b', 'Files changed': '3' },
        sections: { Approach: prose, Changes: ['`a.py` — guard', '`b.py` — test'] },
      });
    case 5:
      return emit('REVIEWER', {
        fields: { Verdict: 'CHANGES_REQUESTED' },
        findings: [{ severity: 'MEDIUM', location: '`a.py:3`', issue: prose, suggestedFix: 'guard', prevention: 'lint' }],
      });
    case 6:
      return `Thanks! ${prose}\n\n${emit('KNOWLEDGE_GIST', { value: 'https://gist.github.com/octo/0123456789abcdef' })}`;
    default:
      return emit('TRAJECTORY', {
        table: [
          { Phase: 'Build', Result: 'done', Notes: 'Branch: `fix/x`' },
          { Phase: 'Review + Merge', Result: 'merged', Notes: 'PR #131' },
        ],
        fields: { Decisions: prose, Anomalies: 'None', Completed: '2026-01-15T09:30:00Z' },
      });
  }
}

/** What people write between the agents' annotations: prose, a quoted log, a code block. */
function humanComment(i) {
  const kinds = [
    `I can reproduce this on staging. ${PROSE.repeat(2)}`,
    `> ${PROSE}\n\nAgreed — ${PROSE}`,
    '```\nTraceback (most recent call last):\n  File "payments/validator.py", line 142, in check\n    profile.plan\nAttributeError: NoneType\n```\n' +
      PROSE,
    `LGTM once the test lands. ${PROSE}`,
  ];
  return kinds[i % kinds.length];
}

// The issue's "realistic 60 KB thread of ~40 annotations": agents' annotations
// interleaved with people's comments, as GitHub returns them (CRLF).
function realisticThread() {
  const bodies = [];
  for (let i = 0; bodies.join('\n').length < 60_000; i++) bodies.push(i % 2 === 0 ? annotation(i / 2, 3) : humanComment(i));
  return bodies.map((b) => b.replace(/\n/g, '\r\n'));
}

// The worst case for per-annotation overhead: nothing but small annotations.
function denseThread() {
  const bodies = [];
  for (let i = 0; bodies.join('\n').length < 60_000; i++) bodies.push(annotation(i, 1));
  return bodies.map((b) => b.replace(/\n/g, '\r\n'));
}

/**
 * The first parse in a fresh process (bench-cold.mjs), median of 15 processes:
 * an action parses a thread once and exits, so this is what a user pays.
 */
function coldFigures(thread) {
  const file = join(mkdtempSync(join(tmpdir(), 'forge-cold-')), 'thread.json');
  writeFileSync(file, JSON.stringify(thread));
  const runs = Array.from({ length: 15 }, () =>
    JSON.parse(execFileSync(process.execPath, [fileURLToPath(new URL('./bench-cold.mjs', import.meta.url)), file], { encoding: 'utf8' })),
  );
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const importMs = median(runs.map((r) => r.importMs));
  const parseMs = median(runs.map((r) => r.parseMs));
  const validateMs = median(runs.map((r) => r.validateMs));
  console.log(`Fresh process, first pass over the realistic thread (median of ${runs.length} processes)`);
  console.log(
    `  loading the codec: ${importMs.toFixed(3)} ms    first parse: ${parseMs.toFixed(3)} ms    then parse + validate: ${validateMs.toFixed(3)} ms`,
  );
}

function threadFigures(name, thread) {
  const bytes = thread.reduce((n, b) => n + b.length, 0);
  const count = thread.reduce((n, b) => n + parse(b).length, 0);
  const parseMs = time(() => {
    for (const b of thread) parse(b);
  }, 600);
  const inputs = thread
    .flatMap((b) => parse(b))
    .map((a) => [a.type, { fields: a.fields, sections: a.sections, value: a.inlineValue ?? undefined }]);
  const emitMs = time(() => {
    for (const [t, input] of inputs) emit(t, input);
  });
  console.log(`${name}: ${(bytes / 1024).toFixed(1)} KB in ${thread.length} comments, ${count} annotations`);
  console.log(`  parse: ${parseMs.toFixed(3)} ms per thread  ${mbps(bytes, parseMs)} MB/s`);
  console.log(`  emit:  ${emitMs.toFixed(3)} ms for its annotations (each parsed back as a check)`);
}

threadFigures('Realistic thread', realisticThread());
threadFigures('Annotation-only thread', denseThread());
coldFigures(realisticThread());
console.log('');

const fill = (unit, n) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const ADVERSARIAL = {
  'spaces inside an unclosed tag': (n) => `<!-- FORGE:X:${' '.repeat(n - 13)}`,
  'thousands of <!--': (n) => fill('<!--', n),
  '<!-- opening every line': (n) => fill('<!-- FORGE:X:    \n', n),
  'one line of 64 KB scale': (n) => `<!-- FORGE:BUILDER -->\n**Commits**: ${fill('a<!-- -', n - 36)}`,
  'tag then blank lines': (n) => `<!-- FORGE:BUILDER -->${'\n'.repeat(n - 22)}`,
  'tiny annotations': (n) => fill('<!-- FORGE:GATE_FAILED -->\n', n),
  'unclosed fences and tags': (n) => fill('```\n<!-- FORGE:X -->\n~~~~\n', n),
  'field lines': (n) => `<!-- FORGE:ACME -->\n${fill('**k**: v **x**: y\n', n - 20)}`,
};
const SIZES = [8, 16, 32, 64];
console.log('Adversarial bodies (ms per parse; 64K/8K ratio — linear is about 8)');
console.log(`  ${'body'.padEnd(32)}${SIZES.map((s) => `${s} KB`.padStart(10)).join('')}     ratio   MB/s@64K`);
for (const [name, make] of Object.entries(ADVERSARIAL)) {
  const ms = SIZES.map((kb) => {
    const body = make(kb * 1024);
    return time(() => parse(body), 100);
  });
  console.log(
    `  ${name.padEnd(32)}${ms.map((m) => m.toFixed(3).padStart(10)).join('')}  ${(ms[3] / ms[0]).toFixed(1).padStart(8)}   ${mbps(64 * 1024, ms[3]).padStart(8)}`,
  );
}
/**
 * The worst cases as a step meets them: a fresh process's first parse of one
 * 64 KB adversarial body (bench-cold.mjs, median of 15 processes), and the
 * whole `forge parse -` process reading it from stdin (start-up included).
 */
function coldAdversarial() {
  const dir = mkdtempSync(join(tmpdir(), 'forge-cold-adv-'));
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cli = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
  console.log('Fresh process, one 64 KB adversarial body (median of 15 processes)');
  console.log(`  ${'body'.padEnd(32)}${'first parse'.padStart(14)}${'forge parse -'.padStart(16)}`);
  for (const [name, make] of Object.entries(ADVERSARIAL)) {
    const body = make(64 * 1024);
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify([body]));
    const first = [];
    const whole = [];
    for (let i = 0; i < 15; i++) {
      first.push(
        JSON.parse(
          execFileSync(process.execPath, [fileURLToPath(new URL('./bench-cold.mjs', import.meta.url)), file], { encoding: 'utf8' }),
        ).parseMs,
      );
      const t = performance.now();
      execFileSync(process.execPath, [cli, 'parse', '-'], { input: body, stdio: ['pipe', 'ignore', 'ignore'] });
      whole.push(performance.now() - t);
    }
    console.log(`  ${name.padEnd(32)}${`${median(first).toFixed(2)} ms`.padStart(14)}${`${median(whole).toFixed(1)} ms`.padStart(16)}`);
  }
}
coldAdversarial();

const tenK = fill('<!-- FORGE:GATE_FAILED -->\n', 27 * 10_000);
const tenKMs = time(() => parse(tenK), 200);
console.log(
  `  10,000 tiny annotations (${(tenK.length / 1024).toFixed(0)} KB, past GitHub's limit): ${tenKMs.toFixed(2)} ms, ${parse(tenK).length} annotations`,
);

/**
 * `forge context` over a 1,000-comment thread (a pipeline's annotations among
 * 960 comments of chatter, a stranger's forgeries, and long bodies): the CPU
 * the whole process spends (user + system, bash's `time`), beside `forge
 * --version` (the cold start alone). Median of 7 processes.
 */
function contextThread() {
  const inv = emit('INVESTIGATOR', {
    fields: {
      Verdict: 'CONFIRMED',
      Confidence: 'HIGH',
      Severity: 'MEDIUM',
      'Task Type': 'Bug Fix',
      'Decomposition Assessment': 'NO — one file',
    },
    sections: { 'Root Cause': 'The lookup does not guard null.\n'.repeat(40), Recommendation: 'Guard it.' },
  });
  const types = [inv, emit('CONTRACT', { fields: { 'Task type': 'Bug Fix' }, sections: { 'Proposed Approach': 'Guard.'.repeat(200) } })];
  const comments = [];
  for (let i = 0; i < 1000; i++) {
    const annotation = i % 25 === 0;
    const body = annotation ? types[i % 2] : `Comment ${i}: ${'words and more words '.repeat(i % 7 === 0 ? 200 : 10)}`;
    comments.push({
      id: i + 1,
      html_url: `https://github.com/o/r/issues/1#issuecomment-${i + 1}`,
      issue_url: 'https://api.github.com/repos/o/r/issues/1',
      user: { login: i % 50 === 0 ? 'mallory' : 'agent' },
      author_association: i % 50 === 0 ? 'NONE' : 'MEMBER',
      body,
      created_at: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 60_000).toISOString(),
    });
  }
  return comments;
}

function contextBench() {
  const dir = mkdtempSync(join(tmpdir(), 'forge-bench-context-'));
  const file = join(dir, 'thread.json');
  const comments = contextThread();
  writeFileSync(file, JSON.stringify(comments));
  const cli = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
  const cpu = (args) =>
    Number(
      execFileSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; { time "${process.execPath}" "${cli}" ${args} >/dev/null; } 2>&1`], {
        encoding: 'utf8',
      })
        .trim()
        .split(/\s+/)
        .reduce((a, b) => a + Number(b), 0)
        .toFixed(3),
    );
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(Array.from({ length: 7 }, () => cpu('--version')));
  const whole = median(Array.from({ length: 7 }, () => cpu(`context "${file}" --json`)));
  const size = JSON.stringify(comments).length;
  console.log(`\nforge context, a 1,000-comment thread (${(size / 1024).toFixed(0)} KB, 40 annotations; median of 7 processes)`);
  console.log(
    `  CPU (user + system): ${(whole * 1000).toFixed(0)} ms; the cold start alone (forge --version): ${(base * 1000).toFixed(0)} ms`,
  );
}
contextBench();
