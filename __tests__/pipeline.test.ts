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
