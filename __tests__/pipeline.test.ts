/**
 * The pipeline file: its schema (one error naming the file, the line and the
 * key), the built-in defaults (one set for every action), input over file over
 * default, and the JSON Schema editors read (generated from the same table).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Ajv as AjvType } from 'ajv';
import YAML from 'yaml';
import {
  DEFAULT_PIPELINE,
  describePipeline,
  parsePipelineFile,
  pipelineJsonSchema,
  resolvePipeline,
  stagesOn,
} from '../src/common/pipeline.js';
import { UsageError } from '../src/common/errors.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv').default as typeof AjvType;
const ROOT = join(new URL('.', import.meta.url).pathname, '..');
const SCHEMA_FILE = join(ROOT, 'docs', 'forge-pipeline.schema.json');

const FULL = `# the team's pipeline
chain:
  - INVESTIGATOR
  - type: ACME_SCAN
    blocks:
      - field: Result
        values: [fail]
  - { type: BUILDER, workflow: build.yml }
  - type: REVIEWER
    starts: workflow:in-review
    completes: workflow:awaiting-merge
trusted-authors: [OWNER, MEMBER, "my-agent[bot]"]
exempt-authors: dependabot[bot]
exempt-labels: [docs-only]
stall-after: 2d
stale: ignore
attempts: 5
claim-ttl: 30m
board:
  title: Where our work stands
`;

describe('reading the file', () => {
  test('every key, in the file order, with the stage settings', () => {
    const p = parsePipelineFile(FULL);
    expect(p.chain?.map((s) => s.type)).toEqual(['INVESTIGATOR', 'ACME_SCAN', 'BUILDER', 'REVIEWER']);
    expect(p.chain?.[0]).toEqual({
      type: 'INVESTIGATOR',
      on: 'issue',
      starts: 'workflow:investigating',
      completes: 'workflow:ready-to-build',
      workflow: null,
      blocks: [],
    });
    expect(p.chain?.[1]).toMatchObject({ type: 'ACME_SCAN', on: 'issue', starts: null, blocks: [{ field: 'Result', values: ['fail'] }] });
    expect(p.chain?.[2]).toMatchObject({ workflow: 'build.yml', completes: 'workflow:in-review' });
    expect(p.chain?.[3]).toMatchObject({ on: 'pull', completes: 'workflow:awaiting-merge' });
    expect(p.trustedAuthors).toBe('OWNER, MEMBER, my-agent[bot]');
    expect(p.exemptAuthors).toEqual(['dependabot[bot]']);
    expect(p.exemptLabels).toEqual(['docs-only']);
    expect(p.stallAfterMs).toBe(2 * 86_400_000);
    expect(p).toMatchObject({ stale: 'ignore', attempts: 5, claimTtlMs: 30 * 60_000, boardTitle: 'Where our work stands' });
  });

  test('an empty file and a file of comments set nothing', () => {
    expect(parsePipelineFile('')).toEqual({});
    expect(parsePipelineFile('# nothing yet\n')).toEqual({});
  });

  test.each([
    ['chain:\n  - INVESTIGATOR\nstal-after: 6h\n', 'forge.yml:3: stal-after: unknown key'],
    ['chain:\n  - INVESTIGATOR\n  - type: BUILDER\n    on: pr\n', 'forge.yml:4: chain[1].on: must be issue or pull, got "pr"'],
    ['chain:\n  - investigator\n', 'forge.yml:2: chain[0]: "investigator" is not a FORGE type name'],
    ['chain:\n  - BUILDER\n  - BUILDER\n', 'forge.yml:3: chain[1]: BUILDER is listed twice'],
    ['chain: []\n', 'forge.yml:1: chain: names no stage'],
    ['chain: BUILDER\n', 'forge.yml:1: chain: must be a list of stages'],
    ['stall-after: soon\n', 'forge.yml:1: stall-after: must be a period such as 6h, 2d or 30m, got "soon"'],
    ['attempts: 0\n', 'forge.yml:1: attempts: must be a whole number of at least 1, got "0"'],
    ['trusted-authors: [OWNER, "not a login!"]\n', 'forge.yml:1: trusted-authors: "not a login!" is neither an author_association'],
    ['chain:\n  - type: BUILDER\n    starts: workflow:done\n', 'forge.yml:3: chain[0].starts: "workflow:done" is not a FORGE label'],
    ['chain:\n  - type: BUILDER\n    workflow: ../evil.sh\n', 'forge.yml:3: chain[0].workflow: must be a workflow file name'],
    ['chain:\n  - on: pull\n', 'forge.yml:2: chain[0].type: is required'],
    ['chain:\n  - type: X_SCAN\n    blocks: [{ field: Result }]\n', 'forge.yml:3: chain[0].blocks[0]: needs field and values'],
    ['board:\n  name: x\n', 'forge.yml:2: board.name: unknown key; the keys here are title'],
    ['stale: rerun\nstale: ignore\n', 'forge.yml:2: stale: given twice'],
    ['act-on: [close, merge]\n', 'forge.yml:1: act-on: each must be one of close, needs-human, got "merge"'],
    ['chain: [INVESTIGATOR\n', 'forge.yml:2: not valid YAML'],
    ['- INVESTIGATOR\n', 'forge.yml:1: : must be a mapping'],
  ])('%j is one error naming the file, the line and the key', (text, message) => {
    let error: unknown;
    try {
      parsePipelineFile(text, 'forge.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('resolving', () => {
  test('no file: the built-in defaults, each marked default', () => {
    const r = resolvePipeline(null);
    expect(r.pipeline).toEqual(DEFAULT_PIPELINE);
    expect(Object.values(r.origins).every((o) => o === 'default')).toBe(true);
    expect(r.source).toBeNull();
    expect(stagesOn(r.pipeline, 'issue')).toEqual(['INVESTIGATOR', 'BUILDER']);
    expect(stagesOn(r.pipeline, 'pull')).toEqual(['REVIEWER']);
  });

  test('an input overrides the file key by key; the file overrides the defaults', () => {
    const file = parsePipelineFile('trusted-authors: OWNER, my-agent[bot]\nstall-after: 1h\n');
    const r = resolvePipeline(file, { stallAfterMs: 60_000 }, '.github/forge.yml on main');
    expect(r.pipeline.trustedAuthors).toBe('OWNER, my-agent[bot]');
    expect(r.pipeline.stallAfterMs).toBe(60_000);
    expect(r.pipeline.chain).toEqual(DEFAULT_PIPELINE.chain);
    expect(r.origins).toMatchObject({ trustedAuthors: 'file', stallAfterMs: 'input', chain: 'default' });
    const text = describePipeline(r);
    expect(text).toContain('# effective FORGE pipeline (.github/forge.yml on main)');
    expect(text).toContain('trusted-authors: "OWNER, my-agent[bot]" # file');
    expect(text).toContain('stall-after: 1m # input');
    expect(text).toContain('chain: # default');
    // What `forge pipeline` prints is a pipeline file itself: it reads back to the same pipeline.
    expect(resolvePipeline(parsePipelineFile(text)).pipeline).toEqual(r.pipeline);
  });
});

describe('the JSON Schema for editors', () => {
  const schema = pipelineJsonSchema();

  test('docs/forge-pipeline.schema.json is generated from the same table', () => {
    const text = `${JSON.stringify(schema, null, 2)}\n`;
    if (process.env.FORGE_WRITE_SCHEMA === '1') writeFileSync(SCHEMA_FILE, text);
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(text);
  });

  test('it accepts what the parser accepts and refuses unknown keys and bad values', () => {
    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile(schema);
    expect(validate(YAML.parse(FULL))).toBe(true);
    expect(validate(YAML.parse(describePipeline(resolvePipeline(null))))).toBe(true);
    expect(validate({ 'stal-after': '6h' })).toBe(false);
    expect(validate({ chain: [{ type: 'BUILDER', on: 'pr' }] })).toBe(false);
    expect(validate({ attempts: 0 })).toBe(false);
  });
});

describe('every rule of the file, one case each', () => {
  const err = (text: string): string => {
    try {
      parsePipelineFile(text, 'f.yml');
    } catch (e) {
      return (e as Error).message;
    }
    return '(no error)';
  };

  test.each([
    [
      'chain:\n  - type: X_SCAN\n    blocks:\n      - field: Result\n        values: []\n',
      'f.yml:5: chain[0].blocks[0].values: names no value',
    ],
    ['board:\n  title: ""\n', 'f.yml:2: board.title: must be 1 to 256 characters'],
    [`board:\n  title: ${'t'.repeat(257)}\n`, 'f.yml:2: board.title: must be 1 to 256 characters'],
    ['board: {}\n', 'f.yml:1: board: needs title'],
    ['stale: maybe\n', 'f.yml:1: stale: must be one of rerun, ignore, got "maybe"'],
    ['attempts: 10000\n', 'f.yml:1: attempts: must be a whole number of at least 1, got "10000"'],
    ['attempts: 1x\n', 'f.yml:1: attempts: must be a whole number of at least 1, got "1x"'],
    ['attempts: x1\n', 'f.yml:1: attempts: must be a whole number of at least 1, got "x1"'],
    ['stall-after: 0h\n', 'f.yml:1: stall-after: must be a period such as 6h, 2d or 30m, got "0h"'],
    ['chain:\n  - type: [a]\n', 'f.yml:2: chain[0].type: must be a single value'],
    ['chain:\n  - type: BUILDER\n    on: {}\n', 'f.yml:3: chain[0].on: must be a single value'],
    [
      'chain:\n  - type: BUILDER\n    starts: workflow:nope\n',
      'f.yml:3: chain[0].starts: "workflow:nope" is not a FORGE label; use one of workflow:investigating',
    ],
    [
      'chain:\n  - type: X_SCAN\n    blocks:\n      - field: [x]\n        values: [y]\n',
      'f.yml:4: chain[0].blocks[0].field: must be a single value',
    ],
    [
      'chain:\n  - type: X_SCAN\n    blocks:\n      - field: x\n        values: [[y]]\n',
      'f.yml:5: chain[0].blocks[0].values[0]: must be a single value',
    ],
    ['exempt-labels: {a: 1}\n', 'f.yml:1: exempt-labels: must be a list or a comma-separated string'],
    ['trusted-authors: [OWNER, "bad login!"]\n', 'f.yml:1: trusted-authors: "bad login!" is neither an author_association'],
    ['? [a]\n: 1\n', 'f.yml:1: (key): unknown key; the keys here are chain, trusted-authors'],
    ['"text"\n', 'f.yml:1: : must be a mapping (key: value lines)'],
  ])('%j', (text, message) => {
    expect(err(text).startsWith(message)).toBe(true);
  });

  test('YAML errors keep the parser reason, without its own position', () => {
    const m = err('chain: [INVESTIGATOR\n');
    expect(m).toMatch(/^f\.yml:2: not valid YAML: \S/);
    expect(m).not.toMatch(/at line \d+, column \d+/);
  });

  test('values that are accepted, at their limits', () => {
    expect(parsePipelineFile('attempts: 1\n').attempts).toBe(1);
    expect(parsePipelineFile('attempts: 9999\n').attempts).toBe(9999);
    expect(parsePipelineFile(`board:\n  title: ${'t'.repeat(256)}\n`).boardTitle).toHaveLength(256);
    expect(parsePipelineFile('stall-after: " 90m "\n').stallAfterMs).toBe(90 * 60_000);
    expect(parsePipelineFile('exempt-authors:\n').exemptAuthors).toEqual([]);
    expect(parsePipelineFile('exempt-labels: " a , b "\n').exemptLabels).toEqual(['a', 'b']);
    expect(parsePipelineFile('~\n')).toEqual({});
    expect(parsePipelineFile('chain: ["FORGE:BUILDER", " REVIEWER "]\n').chain?.map((s) => s.type)).toEqual(['BUILDER', 'REVIEWER']);
    const labels = parsePipelineFile(
      'chain:\n  - {type: INVESTIGATOR, starts: none, completes: false}\n  - {type: BUILDER, starts: "", completes: ~}\n  - {type: REVIEWER, on: issue}\n',
    ).chain;
    expect(labels?.map((s) => [s.starts, s.completes, s.on])).toEqual([
      [null, null, 'issue'],
      [null, null, 'issue'],
      ['workflow:in-review', null, 'issue'],
    ]);
    expect(parsePipelineFile('trusted-authors: "OWNER,  @member"\n').trustedAuthors).toBe('OWNER, @member');
  });

  test('no file has no source, whatever is passed; the helpers read the answer as a repository holds it', async () => {
    const { resolveAnswer, trustOfAnswer, pipelineLine, chainText } = await import('../src/common/pipeline.js');
    expect(resolvePipeline(null, {}, 'somewhere').source).toBeNull();
    const answer = { file: parsePipelineFile('trusted-authors: [OWNER, "my-agent[bot]"]\n'), source: '.github/forge.yml on main' };
    expect(resolveAnswer(answer).source).toBe('.github/forge.yml on main');
    expect(resolveAnswer(answer, { stallAfterMs: 60_000 }).origins).toMatchObject({ trustedAuthors: 'file', stallAfterMs: 'input' });
    expect(resolveAnswer(null).source).toBeNull();
    expect([...trustOfAnswer(answer).logins]).toEqual(['my-agent[bot]']);
    expect([...trustOfAnswer(null).associations].sort()).toEqual(['COLLABORATOR', 'MEMBER', 'OWNER']);
    expect(pipelineLine('.github/forge.yml on main')).toBe('pipeline: .github/forge.yml on main');
    expect(pipelineLine(null)).toBe('pipeline: built-in defaults (no .github/forge.yml on the default branch)');
    expect(chainText(DEFAULT_PIPELINE)).toBe('INVESTIGATOR, BUILDER, REVIEWER');
  });

  test('forge pipeline prints every setting, byte for byte', () => {
    const r = resolvePipeline(parsePipelineFile(FULL), { attempts: 4 }, 'p.yml');
    expect(describePipeline(r)).toBe(
      [
        '# effective FORGE pipeline (p.yml)',
        'chain: # file',
        '  - type: INVESTIGATOR',
        '    on: issue',
        '    starts: workflow:investigating',
        '    completes: workflow:ready-to-build',
        '  - type: ACME_SCAN',
        '    on: issue',
        '    starts: none',
        '    completes: none',
        '    blocks: [{ field: "Result", values: ["fail"] }]',
        '  - type: BUILDER',
        '    on: issue',
        '    starts: workflow:ready-to-build',
        '    completes: workflow:in-review',
        '    workflow: build.yml',
        '  - type: REVIEWER',
        '    on: pull',
        '    starts: workflow:in-review',
        '    completes: workflow:awaiting-merge',
        'trusted-authors: "OWNER, MEMBER, my-agent[bot]" # file',
        'exempt-authors: ["dependabot[bot]"] # file',
        'exempt-labels: ["docs-only"] # file',
        'stall-after: 2d # file',
        'stale: ignore # file',
        'attempts: 4 # input',
        'max-running: 10 # default',
        'max-starts: 10 # default',
        'claim-ttl: 30m # file',
        'act-on: [] # default',
        'sign-off: false # default',
        'admit: { authors: "trusted", label: "forge:go" } # default',
        'board:',
        '  title: "Where our work stands" # file',
        '',
      ].join('\n'),
    );
    expect(describePipeline(resolvePipeline(null)).split('\n')[0]).toBe('# effective FORGE pipeline (no pipeline file: built-in defaults)');
  });
});

describe('periods', () => {
  test('one rule for the inputs, the file and the CLI', async () => {
    const { periodMs, formatPeriod } = await import('../src/common/periods.js');
    expect(periodMs(' 2h ')).toBe(7_200_000);
    expect(periodMs('1m')).toBe(60_000);
    expect(periodMs('3 d')).toBe(3 * 86_400_000);
    expect(periodMs('0m')).toBeNull();
    expect(periodMs('2w')).toBeNull();
    expect(periodMs('1234567h')).toBeNull();
    expect(formatPeriod(90 * 60_000)).toBe('90m');
    expect(formatPeriod(48 * 3_600_000)).toBe('2d');
    expect(formatPeriod(1500)).toBe('1500ms');
  });
});

test('act-on: a list of close and needs-human, read once each; empty by default', () => {
  expect(parsePipelineFile('act-on: [needs-human, close, close]\n').actOn).toEqual(['needs-human', 'close']);
  expect(parsePipelineFile('act-on: close\n').actOn).toEqual(['close']);
  expect(parsePipelineFile('act-on:\n').actOn).toEqual([]);
});
