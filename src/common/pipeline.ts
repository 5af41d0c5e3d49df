/**
 * The pipeline file, `.github/forge.yml`: one place that names the stages, who
 * is trusted, who is exempt, which `workflow:*` label starts each stage and
 * which its completion moves to, and how long a stage may stall. Every action
 * and the CLI read it, so no two of them judge one work item by different
 * settings. Read from the default branch (a PR cannot change the rules it is
 * gated by); an action input overrides it key by key; with no file, the
 * built-in defaults below hold — one set for every action.
 *
 * The schema is a table (`KEYS`): each key's parser and its JSON Schema are
 * written side by side, and `docs/forge-pipeline.schema.json` is generated
 * from it, so the editor's schema and the parser cannot drift apart. An
 * unknown key or a bad value is one error naming the file, the line and the
 * key, raised before any request or write.
 */
import YAML, { isMap, isScalar, isSeq, LineCounter, type Node, type Pair } from 'yaml';
import { isReservedLabel, isTypeName, quote, RESERVED_LABELS } from '../codec/index.js';
import { UsageError } from './errors.js';
import { splitList } from './lists.js';
import { formatPeriod, periodMs } from './periods.js';
import { DEFAULT_TRUSTED, parseTrustPolicy, type TrustPolicy } from './trust.js';

/** Where the repository keeps its pipeline file (release-drafter's and labeler's convention: `.github/<tool>.yml`). */
export const PIPELINE_PATH = '.github/forge.yml';

/** Which thread a stage's annotation is written on: the issue, or the PR that closes it (§4: REVIEWER "on the pull request"). */
export type StageSide = 'issue' | 'pull';

/** A field whose value makes a stage's own verdict block the pipeline (REVIEWER's `Verdict: CHANGES_REQUESTED`). */
export interface BlockingField {
  field: string;
  values: string[];
}

export interface Stage {
  type: string;
  on: StageSide;
  /** The `workflow:*` label that says this stage is to run (null: no label starts it). */
  starts: string | null;
  /** The label the stage's completion moves the item to (null: its completion moves no label). */
  completes: string | null;
  /** The workflow file that runs the stage (forge-dispatch starts it); null when none is named. */
  workflow: string | null;
  /** Field values of the stage's own annotation that block (beside the built-in INVALID and CHANGES_REQUESTED). */
  blocks: BlockingField[];
}

/** What a stage that was written against an older upstream (its Context digest no longer matches) does. */
export type StaleAction = 'rerun' | 'ignore';

export interface Pipeline {
  chain: Stage[];
  /** `trusted-authors`, in the action input's syntax (associations, logins, permission:…). */
  trustedAuthors: string;
  exemptAuthors: string[];
  exemptLabels: string[];
  /** How long a stage may sit unfinished before it counts as stalled, in ms. */
  stallAfterMs: number;
  stale: StaleAction;
  /** How many attempts a stage gets before a person is asked (forge-dispatch). */
  attempts: number;
  /** How many stages may run at once in the repository (live claims): forge-dispatch starts no more. */
  maxRunning: number;
  /** How many stages one run of forge-dispatch may start. */
  maxStarts: number;
  /** How long a claim holds a stage, in ms (forge-dispatch). */
  claimTtlMs: number;
  /** The title of the pipeline board issue (forge-dispatch). */
  boardTitle: string;
  /** What forge-dispatch does besides starting stages: close an INVALID issue, hand one to a person. */
  actOn: ActOn[];
  /** Which work items forge-dispatch may start an agent on: a person decides, never a stranger's text. */
  admit: Admit;
  /** The gate holds a PR until a person other than the BUILDER's author approves its head (a human sign-off). */
  signOff: boolean;
}

/**
 * Who admits a work item to the pipeline (forge-dispatch starts no stage on
 * any other). `authors`: whose own issues are admitted when opened — `trusted`
 * (trusted-authors), `none`, or a list in trusted-authors' syntax. `label`: a
 * label that admits any item when a person with triage rights or more put it
 * there (the label event's actor, checked against their role here); null when
 * no label admits.
 */
export interface Admit {
  authors: string;
  label: string | null;
}

/** The route's answers forge-dispatch acts on when the file lists them (it starts mapped stages in any case). */
export type ActOn = 'close' | 'needs-human';
export const ACT_ON: readonly ActOn[] = ['close', 'needs-human'];

/** Where an effective value came from: `forge pipeline` prints it beside each key. */
export type Origin = 'file' | 'input' | 'default';

export type PipelineKey = keyof Pipeline;

/**
 * Which label each built-in stage starts on and moves to, from the label
 * state machine (NOTES §4): investigating → ready-to-build → building →
 * in-review → merged. A custom stage has none unless the file names them.
 */
const STAGE_LABELS: Readonly<Record<string, { starts: string; completes: string | null }>> = {
  INVESTIGATOR: { starts: 'workflow:investigating', completes: 'workflow:ready-to-build' },
  BUILDER: { starts: 'workflow:ready-to-build', completes: 'workflow:in-review' },
  REVIEWER: { starts: 'workflow:in-review', completes: null },
};

/** Stages written on the PR unless the file says otherwise (§4: REVIEWER is written on the pull request). */
const PULL_STAGES: ReadonlySet<string> = new Set(['REVIEWER']);

/** The stage as the defaults make it, for a type the file names without saying more. */
export function defaultStage(type: string): Stage {
  const labels = STAGE_LABELS[type];
  return {
    type,
    on: PULL_STAGES.has(type) ? 'pull' : 'issue',
    starts: labels?.starts ?? null,
    completes: labels?.completes ?? null,
    workflow: null,
    blocks: [],
  };
}

const HOUR = 3_600_000;

/** The built-in defaults: the same for every action and the CLI, and what the README's first screen shows. */
export const DEFAULT_PIPELINE: Readonly<Pipeline> = Object.freeze({
  chain: ['INVESTIGATOR', 'BUILDER', 'REVIEWER'].map(defaultStage),
  trustedAuthors: DEFAULT_TRUSTED,
  exemptAuthors: ['dependabot[bot]', 'renovate[bot]'],
  exemptLabels: ['forge:exempt'],
  stallAfterMs: 6 * HOUR,
  stale: 'rerun',
  attempts: 3,
  maxRunning: 10,
  maxStarts: 10,
  claimTtlMs: 2 * HOUR,
  boardTitle: 'FORGE pipeline board',
  actOn: [],
  admit: Object.freeze({ authors: 'trusted', label: 'forge:go' }),
  signOff: false,
});

// ---- reading YAML with positions ------------------------------------------

/** The place a value was read from, for error messages: `.github/forge.yml:12`. */
interface Where {
  file: string;
  lines: LineCounter;
}

function lineOf(w: Where, node: Node | Pair | null | undefined): number {
  const range = node && 'range' in node ? node.range : node && 'key' in node ? (node.key as Node | null)?.range : undefined;
  return range ? w.lines.linePos(range[0]).line : 1;
}

function fail(w: Where, node: Node | Pair | null | undefined, key: string, message: string): never {
  throw new UsageError(`${w.file}:${lineOf(w, node)}: ${key}: ${message}`);
}

function scalarText(w: Where, node: Node | null, key: string, what = 'a single value'): string {
  if (!isScalar(node) || node.value === null || typeof node.value === 'object') fail(w, node, key, `must be ${what}`);
  return String(node.value).trim();
}

/** A list written as YAML (`[a, b]`, one per line) or as the action inputs write it (`a, b`). */
function stringList(w: Where, node: Node | null, key: string): string[] {
  if (isSeq(node)) return node.items.map((item, i) => scalarText(w, item as Node, `${key}[${i}]`));
  if (isScalar(node) && node.value === null) return [];
  return splitList(scalarText(w, node, key, 'a list or a comma-separated string'));
}

function duration(w: Where, node: Node | null, key: string): number {
  const v = scalarText(w, node, key);
  const ms = periodMs(v);
  if (ms === null) fail(w, node, key, `must be a period such as 6h, 2d or 30m, got ${quote(v)}`);
  return ms;
}

function label(w: Where, node: Node | null, key: string): string | null {
  if (isScalar(node) && (node.value === null || node.value === false)) return null;
  const v = scalarText(w, node, key);
  if (v === '' || v === 'none') return null;
  if (!isReservedLabel(v)) fail(w, node, key, `${quote(v)} is not a FORGE label; use one of ${RESERVED_LABELS.join(', ')} or none`);
  return v;
}

function typeName(w: Where, node: Node | null, key: string): string {
  const raw = scalarText(w, node, key);
  const type = raw.startsWith('FORGE:') ? raw.slice(6) : raw;
  if (!isTypeName(type)) fail(w, node, key, `${quote(raw)} is not a FORGE type name (upper case, e.g. INVESTIGATOR or ACME_SCAN)`);
  return type;
}

/** Each key of a mapping once, each known; the pairs by key. */
function entries(w: Where, node: Node | null, key: string, known: readonly string[]): Map<string, Pair<Node, Node | null>> {
  if (!isMap(node)) fail(w, node, key, 'must be a mapping (key: value lines)');
  const out = new Map<string, Pair<Node, Node | null>>();
  for (const pair of node.items as Array<Pair<Node, Node | null>>) {
    const name = isScalar(pair.key) ? String(pair.key.value) : '';
    const path = key === '' ? name : `${key}.${name}`;
    if (!known.includes(name)) fail(w, pair.key, path || '(key)', `unknown key; the keys here are ${known.join(', ')}`);
    if (out.has(name)) fail(w, pair.key, path, 'given twice');
    out.set(name, pair);
  }
  return out;
}

const STAGE_KEYS = ['type', 'on', 'starts', 'completes', 'workflow', 'blocks'] as const;
const BLOCK_KEYS = ['field', 'values'] as const;
const WORKFLOW_FILE = /^[A-Za-z0-9._-]+\.ya?ml$/;

function stage(w: Where, node: Node | null, key: string): Stage {
  if (!isMap(node)) return defaultStage(typeName(w, node, key));
  const given = entries(w, node, key, STAGE_KEYS);
  const typeNode = given.get('type');
  if (!typeNode) fail(w, node, `${key}.type`, 'is required: the annotation type of the stage');
  const out = defaultStage(typeName(w, typeNode.value, `${key}.type`));
  for (const [name, pair] of given) {
    const at = `${key}.${name}`;
    const v = pair.value;
    if (name === 'on') {
      const side = scalarText(w, v, at);
      if (side !== 'issue' && side !== 'pull') fail(w, v, at, `must be issue or pull, got ${quote(side)}`);
      out.on = side;
    } else if (name === 'starts') out.starts = label(w, v, at);
    else if (name === 'completes') out.completes = label(w, v, at);
    else if (name === 'workflow') {
      const file = scalarText(w, v, at);
      if (!WORKFLOW_FILE.test(file))
        fail(w, v, at, `must be a workflow file name in .github/workflows (e.g. build.yml), got ${quote(file)}`);
      out.workflow = file;
    } else if (name === 'blocks') {
      const list = isSeq(v) ? (v.items as Node[]) : [v as Node];
      out.blocks = list.map((item, i) => {
        const b = entries(w, item, `${at}[${i}]`, BLOCK_KEYS);
        const field = b.get('field');
        const values = b.get('values');
        if (!field || !values) fail(w, item, `${at}[${i}]`, 'needs field and values (e.g. field: Result, values: [fail])');
        const vs = stringList(w, values.value, `${at}[${i}].values`);
        if (vs.length === 0) fail(w, values.value, `${at}[${i}].values`, 'names no value');
        return { field: scalarText(w, field.value, `${at}[${i}].field`), values: vs };
      });
    }
  }
  return out;
}

function chain(w: Where, node: Node | null, key: string): Stage[] {
  if (!isSeq(node)) fail(w, node, key, 'must be a list of stages (a type, or a mapping with type: and its settings)');
  const out = node.items.map((item, i) => stage(w, item as Node, `${key}[${i}]`));
  if (out.length === 0) fail(w, node, key, 'names no stage');
  const seen = new Set<string>();
  for (const [i, s] of out.entries()) {
    if (seen.has(s.type)) fail(w, node.items[i] as Node, `${key}[${i}]`, `${s.type} is listed twice`);
    seen.add(s.type);
  }
  return out;
}

function trusted(w: Where, node: Node | null, key: string): string {
  const text = stringList(w, node, key).join(', ');
  try {
    parseTrustPolicy(text);
  } catch (err) {
    fail(w, node, key, (err as Error).message.replace(/^trusted-authors: /, ''));
  }
  return text;
}

function positive(w: Where, node: Node | null, key: string): number {
  const v = scalarText(w, node, key);
  if (!/^\d{1,4}$/.test(v) || Number(v) < 1) fail(w, node, key, `must be a whole number of at least 1, got ${quote(v)}`);
  return Number(v);
}

function oneOfValues<T extends string>(values: readonly T[]) {
  return (w: Where, node: Node | null, key: string): T => {
    const v = scalarText(w, node, key);
    if (!(values as readonly string[]).includes(v)) fail(w, node, key, `must be one of ${values.join(', ')}, got ${quote(v)}`);
    return v as T;
  };
}

function actOn(w: Where, node: Node | null, key: string): ActOn[] {
  const list = stringList(w, node, key);
  for (const v of list)
    if (!(ACT_ON as readonly string[]).includes(v)) fail(w, node, key, `each must be one of ${ACT_ON.join(', ')}, got ${quote(v)}`);
  return [...new Set(list)] as ActOn[];
}

const ADMIT_KEYS = ['authors', 'label'] as const;
/** A GitHub label name: 1 to 50 characters, no comma (the REST label lists are comma-separated). */
const LABEL_NAME = /^[^,]{1,50}$/;
function admit(w: Where, node: Node | null, key: string): Admit {
  const given = entries(w, node, key, ADMIT_KEYS);
  const out: Admit = { ...DEFAULT_PIPELINE.admit };
  const authors = given.get('authors');
  if (authors) {
    const list = stringList(w, authors.value, `${key}.authors`);
    const text = list.join(', ');
    if (list.length === 1 && (text === 'trusted' || text === 'none')) out.authors = text;
    else if (list.length === 0) out.authors = 'none';
    else out.authors = trusted(w, authors.value, `${key}.authors`);
  }
  const label = given.get('label');
  if (label) {
    const v =
      isScalar(label.value) && (label.value.value === null || label.value.value === false)
        ? 'none'
        : scalarText(w, label.value, `${key}.label`);
    if (v !== 'none' && !LABEL_NAME.test(v))
      fail(w, label.value, `${key}.label`, `must be a label name (1 to 50 characters, no comma) or none, got ${quote(v)}`);
    out.label = v === 'none' ? null : v;
  }
  return out;
}

const BOARD_KEYS = ['title'] as const;
function board(w: Where, node: Node | null, key: string): string {
  const title = entries(w, node, key, BOARD_KEYS).get('title');
  if (!title) fail(w, node, key, 'needs title');
  const v = scalarText(w, title.value, `${key}.title`);
  if (v === '' || v.length > 256) fail(w, title.value, `${key}.title`, 'must be 1 to 256 characters');
  return v;
}

const STRING_LIST_SCHEMA = {
  oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }],
};
const DURATION_SCHEMA = { type: 'string', pattern: '^[0-9]{1,6}\\s*[mhd]$' };
const LABEL_SCHEMA = { oneOf: [{ enum: [...RESERVED_LABELS, 'none'] }, { type: 'null' }] };
const TYPE_SCHEMA = { type: 'string', pattern: '^(FORGE:)?[A-Z][A-Z0-9_]*$' };

/**
 * The file's keys: the YAML key, the Pipeline field it sets, its parser, and
 * its JSON Schema (generated into docs/forge-pipeline.schema.json).
 */
export const KEYS: ReadonlyArray<{
  key: string;
  field: PipelineKey;
  description: string;
  read: (w: Where, node: Node | null, key: string) => Pipeline[PipelineKey];
  schema: Record<string, unknown>;
}> = [
  {
    key: 'chain',
    field: 'chain',
    description:
      'The stages in order. Each is an annotation type, or a mapping: type, on (issue or pull), starts and completes (workflow labels), workflow (the file that runs it), blocks (field values that block).',
    read: chain,
    schema: {
      type: 'array',
      minItems: 1,
      items: {
        oneOf: [
          TYPE_SCHEMA,
          {
            type: 'object',
            additionalProperties: false,
            required: ['type'],
            properties: {
              type: TYPE_SCHEMA,
              on: { enum: ['issue', 'pull'] },
              starts: LABEL_SCHEMA,
              completes: LABEL_SCHEMA,
              workflow: { type: 'string', pattern: '^[A-Za-z0-9._-]+\\.ya?ml$' },
              blocks: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['field', 'values'],
                  properties: { field: { type: 'string' }, values: STRING_LIST_SCHEMA },
                },
              },
            },
          },
        ],
      },
    },
  },
  {
    key: 'trusted-authors',
    field: 'trustedAuthors',
    description: 'Who may write annotations that count: author_association values, logins, permission:write.',
    read: trusted,
    schema: STRING_LIST_SCHEMA,
  },
  {
    key: 'exempt-authors',
    field: 'exemptAuthors',
    description: 'PR authors the gate passes without annotations (dependency bots).',
    read: stringList,
    schema: STRING_LIST_SCHEMA,
  },
  {
    key: 'exempt-labels',
    field: 'exemptLabels',
    description: 'Labels that exempt a PR from the gate.',
    read: stringList,
    schema: STRING_LIST_SCHEMA,
  },
  {
    key: 'stall-after',
    field: 'stallAfterMs',
    description: 'How long a stage may sit unfinished before it is reported stalled (6h, 2d, 30m).',
    read: duration,
    schema: DURATION_SCHEMA,
  },
  {
    key: 'stale',
    field: 'stale',
    description:
      'What a stage written against an upstream that has changed since does: rerun (next phase re-runs it, the gate fails naming it) or ignore.',
    read: oneOfValues(['rerun', 'ignore'] as const),
    schema: { enum: ['rerun', 'ignore'] },
  },
  {
    key: 'attempts',
    field: 'attempts',
    description: 'How many attempts a stage gets before it is handed to a person.',
    read: positive,
    schema: { type: 'integer', minimum: 1 },
  },
  {
    key: 'max-running',
    field: 'maxRunning',
    description: 'How many stages may run at once in the repository (live claims): forge-dispatch starts no more until one ends.',
    read: positive,
    schema: { type: 'integer', minimum: 1 },
  },
  {
    key: 'max-starts',
    field: 'maxStarts',
    description: 'How many stages one run of forge-dispatch may start; the rest wait for the next run.',
    read: positive,
    schema: { type: 'integer', minimum: 1 },
  },
  {
    key: 'claim-ttl',
    field: 'claimTtlMs',
    description: 'How long a claim on a stage holds (2h, 30m).',
    read: duration,
    schema: DURATION_SCHEMA,
  },
  {
    key: 'act-on',
    field: 'actOn',
    description:
      'What forge-dispatch acts on besides starting stages: close (an INVALID investigation: closed as not planned, labelled workflow:invalid), needs-human (labelled needs-human, with one comment saying why).',
    read: actOn,
    schema: { type: 'array', uniqueItems: true, items: { enum: [...ACT_ON] } },
  },
  {
    key: 'admit',
    field: 'admit',
    description:
      'Which work items forge-dispatch starts agents on. authors: whose own issues are admitted (trusted: trusted-authors; none; or a list in its syntax). label: a label that admits an item when a person with triage rights or more added it (none: no label admits).',
    read: admit,
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        authors: STRING_LIST_SCHEMA,
        label: { oneOf: [{ type: 'string', minLength: 1, maxLength: 50, pattern: '^[^,]+$' }, { type: 'null' }] },
      },
    },
  },
  {
    key: 'sign-off',
    field: 'signOff',
    description:
      'true: the gate holds a PR until a trusted person who did not write its BUILDER approves its head commit (a GitHub approving review).',
    read: (w, node, key) => {
      if (!isScalar(node) || typeof node.value !== 'boolean') fail(w, node, key, 'must be true or false');
      return node.value as boolean;
    },
    schema: { type: 'boolean' },
  },
  {
    key: 'board',
    field: 'boardTitle',
    description: 'The pipeline board issue: its title.',
    read: board,
    schema: { type: 'object', additionalProperties: false, required: ['title'], properties: { title: { type: 'string', minLength: 1 } } },
  },
];

/** What a file sets: only the keys it gives. */
export type PipelineFile = Partial<Pipeline>;

/** The file as a repository holds it: parsed, and where it was read (`.github/forge.yml on main`); null when there is none. */
export type PipelineAnswer = { file: PipelineFile; source: string } | null;

/** Parse and check a pipeline file's text; `file` names it in errors. Throws a UsageError naming the file, line and key. */
export function parsePipelineFile(text: string, file = PIPELINE_PATH): PipelineFile {
  const lines = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false, schema: 'core' });
  const w: Where = { file, lines };
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line ?? lines.linePos(e.pos[0]).line;
    throw new UsageError(`${file}:${line}: not valid YAML: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const root = doc.contents as Node | null;
  if (root === null || (isScalar(root) && root.value === null)) return {};
  const given = entries(
    w,
    root,
    '',
    KEYS.map((k) => k.key),
  );
  const out: Record<string, unknown> = {};
  for (const { key, field, read } of KEYS) {
    const pair = given.get(key);
    if (pair) out[field] = read(w, pair.value, key);
  }
  return out as PipelineFile;
}

/** The effective pipeline and where each key came from. */
export interface Resolved {
  pipeline: Pipeline;
  origins: Record<PipelineKey, Origin>;
  /** Where the file was read from (`.github/forge.yml on main`), or null when there was none. */
  source: string | null;
}

/** Input over file over default, key by key. */
export function resolvePipeline(file: PipelineFile | null, inputs: PipelineFile = {}, source: string | null = null): Resolved {
  const pipeline = { ...DEFAULT_PIPELINE } as Pipeline;
  const origins = {} as Record<PipelineKey, Origin>;
  for (const { field } of KEYS) {
    const fromInput = inputs[field];
    const fromFile = file?.[field];
    origins[field] = fromInput !== undefined ? 'input' : fromFile !== undefined ? 'file' : 'default';
    (pipeline as unknown as Record<string, unknown>)[field] = fromInput ?? fromFile ?? DEFAULT_PIPELINE[field];
  }
  return { pipeline, origins, source: file === null ? null : source };
}

/** The same, from the file as a repository holds it (null: none, the built-in defaults). */
export function resolveAnswer(answer: PipelineAnswer, inputs: PipelineFile = {}): Resolved {
  return resolvePipeline(answer?.file ?? null, inputs, answer?.source ?? null);
}

/** trusted-authors as the file (else the built-in default) has it. */
export function trustOfAnswer(answer: PipelineAnswer): TrustPolicy {
  return parseTrustPolicy(resolveAnswer(answer).pipeline.trustedAuthors);
}

/** What a run logs about where its settings came from. */
export function pipelineLine(source: string | null): string {
  return `pipeline: ${source ?? 'built-in defaults (no .github/forge.yml on the default branch)'}`;
}

/** The stages of the chain written on one side (the issue's, or the PR's). */
/** The route's rules the file adds: per type, the field values of its own annotation that block, and what a stale stage does. */
export function routeRules(p: Pipeline): {
  blocks: Map<string, BlockingField[]>;
  stale: StaleAction;
  reviewerOn: StageSide;
  mapped: Set<string>;
  signOff: boolean;
} {
  const blocks = new Map<string, BlockingField[]>();
  for (const s of p.chain) if (s.blocks.length > 0) blocks.set(s.type, s.blocks);
  return {
    blocks,
    stale: p.stale,
    reviewerOn: p.chain.find((s) => s.type === 'REVIEWER')?.on ?? 'pull',
    // The stages an agent runs (the dispatcher starts their workflows): a gate waits for them, it does not fail.
    mapped: new Set(p.chain.filter((s) => s.workflow !== null).map((s) => s.type)),
    signOff: p.signOff,
  };
}

export function stagesOn(p: Pipeline, side: StageSide): string[] {
  return p.chain.filter((s) => s.on === side).map((s) => s.type);
}

/** The chain as the action inputs write it (`INVESTIGATOR, BUILDER, REVIEWER`). */
export function chainText(p: Pipeline): string {
  return p.chain.map((s) => s.type).join(', ');
}

/** The effective pipeline as YAML a user can copy into the file, each key with where it came from. */
export function describePipeline(r: Resolved): string {
  const p = r.pipeline;
  const o = r.origins;
  const out: string[] = [`# effective FORGE pipeline (${r.source ?? 'no pipeline file: built-in defaults'})`];
  out.push(`chain: # ${o.chain}`);
  for (const s of p.chain) {
    out.push(`  - type: ${s.type}`);
    out.push(`    on: ${s.on}`);
    out.push(`    starts: ${s.starts ?? 'none'}`);
    out.push(`    completes: ${s.completes ?? 'none'}`);
    if (s.workflow) out.push(`    workflow: ${s.workflow}`);
    for (const b of s.blocks) out.push(`    blocks: [{ field: ${JSON.stringify(b.field)}, values: ${JSON.stringify(b.values)} }]`);
  }
  out.push(`trusted-authors: ${JSON.stringify(p.trustedAuthors)} # ${o.trustedAuthors}`);
  out.push(`exempt-authors: ${JSON.stringify(p.exemptAuthors)} # ${o.exemptAuthors}`);
  out.push(`exempt-labels: ${JSON.stringify(p.exemptLabels)} # ${o.exemptLabels}`);
  out.push(`stall-after: ${formatPeriod(p.stallAfterMs)} # ${o.stallAfterMs}`);
  out.push(`stale: ${p.stale} # ${o.stale}`);
  out.push(`attempts: ${p.attempts} # ${o.attempts}`);
  out.push(`max-running: ${p.maxRunning} # ${o.maxRunning}`);
  out.push(`max-starts: ${p.maxStarts} # ${o.maxStarts}`);
  out.push(`claim-ttl: ${formatPeriod(p.claimTtlMs)} # ${o.claimTtlMs}`);
  out.push(`act-on: ${JSON.stringify(p.actOn)} # ${o.actOn}`);
  out.push(`sign-off: ${p.signOff} # ${o.signOff}`);
  out.push(
    `admit: { authors: ${JSON.stringify(p.admit.authors)}, label: ${p.admit.label === null ? 'none' : JSON.stringify(p.admit.label)} } # ${o.admit}`,
  );
  out.push(`board:\n  title: ${JSON.stringify(p.boardTitle)} # ${o.boardTitle}`);
  return `${out.join('\n')}\n`;
}

/** The JSON Schema editors use for `.github/forge.yml` (generated into docs/forge-pipeline.schema.json). */
export function pipelineJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const k of KEYS) properties[k.key] = { description: k.description, ...k.schema };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://github.com/OWNER/forge-actions/blob/main/docs/forge-pipeline.schema.json',
    title: 'FORGE pipeline (.github/forge.yml)',
    type: ['object', 'null'],
    additionalProperties: false,
    properties,
  };
}
