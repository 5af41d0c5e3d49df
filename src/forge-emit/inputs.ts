/**
 * forge-emit's inputs, parsed and checked into one typed value before any API
 * call. Turning them into the annotation text is compose.ts's; reading a
 * body-file is the wiring's.
 */
import YAML from 'yaml';
import { isReservedLabel, quote, RESERVED_LABELS, type EmitInput, type SectionValue } from '../codec/index.js';
import { UsageError } from '../common/errors.js';
import { bool, COMMON_INPUTS, oneOf, optional, readInputs, required, resolveCommon, verbatim, type Getter } from '../common/inputs.js';
import { workspacePath } from '../common/paths.js';
import { FULL_COMMIT } from '../common/commits.js';
import { CONTEXT_DIGEST, CONTEXT_DIGEST_FIELD } from '../common/context-digest.js';
import type { EventInfo } from '../common/event.js';
import { parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { DEFAULT_PIPELINE, resolveAnswer, type Pipeline, type PipelineAnswer } from '../common/pipeline.js';
import type { Repo } from '../common/repo.js';

/** Where the annotation is written (the `target` input). */
export type Destination = 'comment' | 'issue-body' | 'milestone';
/**
 * What an annotation of the type already there does to this one: `new` (the default) writes a new one unless this
 * run already wrote it; `skip` writes none while a complete one stands; `replace` edits the newest in place;
 * `append` always adds.
 */
export type IfExists = 'new' | 'skip' | 'replace' | 'append';

/** The workflow run writing the annotation (recorded in it as its `Run` field): a re-run of the same run and attempt is a no-op. */
export interface RunRecord {
  id: string;
  attempt: string;
  /** GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/ID/attempts/ATTEMPT. */
  url: string;
}

/** The field a comment annotation records its run in. */
export const RUN_FIELD = 'Run';

/** This job's run, from the runner's environment; null outside a workflow run. */
export function runRecord(env: NodeJS.ProcessEnv = process.env): RunRecord | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: id, GITHUB_RUN_ATTEMPT: attempt } = env;
  if (!server || !repository || !id || !/^\d{1,20}$/.test(id)) return null;
  const n = attempt && /^\d{1,6}$/.test(attempt) ? attempt : '1';
  return { id, attempt: n, url: `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${id}/attempts/${n}` };
}

/** The run an annotation records (its Run field's `…/actions/runs/ID/attempts/N`), as `ID/N`; null when none. */
export function recordedRun(fields: Record<string, string>): string | null {
  const v = Object.entries(fields).find(([k]) => k.toLowerCase() === RUN_FIELD.toLowerCase())?.[1] ?? '';
  const m = /\/actions\/runs\/(\d{1,20})\/attempts\/(\d{1,6})(?![\d/])/.exec(v);
  return m ? `${m[1]}/${m[2]}` : null;
}

/** Where the annotation's Markdown body comes from: the `body` input, a file in the workspace, or nowhere. */
export type BodySource = { kind: 'text'; text: string } | { kind: 'file'; path: string; given: string } | { kind: 'none' };

/** forge-emit's inputs, read and checked. */
export interface EmitStepInputs {
  token: string;
  repo: Repo;
  number: number;
  type: string;
  status: 'complete' | 'partial';
  destination: Destination;
  milestone: string | null;
  ifExists: IfExists;
  /** The run writing it: recorded in a comment annotation, so the same run and attempt writes it once. */
  run: RunRecord | null;
  label: string | null;
  trust: TrustPolicy;
  /** trusted-authors as given; null when empty (the pipeline file decides, then the built-in default). */
  trustInput: TrustPolicy | null;
  /**
   * The label the pipeline moves the item to when this stage completes (its `completes`), applied when the step
   * gives no `label`; null when none. Set from the pipeline file by settleEmit.
   */
  stageLabel: string | null;
  /** The chain's stages: a terminal state refuses them (a BUILDER onto a merged issue); anything else may still follow. */
  chainStages: string[];
  /** Where the settings came from (`.github/forge.yml on the default branch`); null for the built-in defaults. */
  pipelineSource: string | null;
  dryRun: boolean;
  /** What the annotation holds, as the codec's emitter takes it (the body apart). */
  content: EmitInput;
  body: BodySource;
  /** A YAML or JSON file of fields the agent wrote (in the workspace); read by the wiring, merged by fieldsFromFile. */
  fieldsFile: { path: string; given: string } | null;
  /**
   * The commit the run reviewed, for a REVIEWER on a PR: the `reviewed-commit`
   * input, else the head of the PR event this run was started for. Never the
   * head at posting time: a push while the reviewer ran would be approved unseen.
   */
  reviewedCommit: { sha: string; from: 'input' | 'event' } | null;
}

export const SCHEMA = {
  ...COMMON_INPUTS,
  type: { input: 'type', parse: required() },
  fields: { input: 'fields', parse: verbatim() },
  fieldsFile: { input: 'fields-file', parse: optional() },
  sections: { input: 'sections', parse: verbatim() },
  body: { input: 'body', parse: verbatim() },
  bodyFile: { input: 'body-file', parse: optional() },
  value: { input: 'value', parse: optional() },
  card: { input: 'card', parse: verbatim() },
  title: { input: 'title', parse: optional() },
  status: { input: 'status', parse: oneOf(['complete', 'partial'] as const, 'complete') },
  target: { input: 'target', parse: oneOf(['comment', 'issue-body', 'milestone'] as const, 'comment') },
  milestone: { input: 'milestone', parse: optional() },
  ifExists: { input: 'if-exists', parse: oneOf(['new', 'skip', 'replace', 'append'] as const, 'new') },
  label: { input: 'label', parse: optional() },
  dryRun: { input: 'dry-run', parse: bool(false) },
  contextDigest: { input: 'context-digest', parse: optional() },
  reviewedCommit: { input: 'reviewed-commit', parse: optional() },
};

/** Events whose payload carries the PR's head as the run saw it when it started. */
const HEAD_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

/** The head commit of the PR the event is about, when that PR is `number` (the commit the job checked out the code of). */
export function eventHead(event: EventInfo, number: number): string | null {
  if (!HEAD_EVENTS.has(event.name)) return null;
  const pr = (event.payload as { pull_request?: { number?: unknown; head?: { sha?: unknown } } }).pull_request;
  if (pr?.number !== number || typeof pr.head?.sha !== 'string') return null;
  return FULL_COMMIT.test(pr.head.sha) ? pr.head.sha.toLowerCase() : null;
}

function yamlInput(name: string, text: string | null): unknown {
  if (text === null) return undefined;
  // JSON is YAML too: an agent may write either.
  // Scalars are read as the strings written (the failsafe schema): `Branch: 1.10`
  // stays "1.10" and `Commits: 0123456` keeps its zero. The card is data, read as YAML.
  const doc = YAML.parseDocument(text, { prettyErrors: true, ...(name === 'card' ? {} : { schema: 'failsafe' as const }) });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const at = e.linePos?.[0] ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
    throw new UsageError(`${label(name)} is not valid YAML${at}: ${e.message.split(/ at line \d/)[0].split('\n')[0]}`);
  }
  return doc.toJS();
}

/** How an error names where the text came from: an input, or a file (`fields-file "verdict.yml"`). */
function label(name: string): string {
  return name.startsWith('fields-file ') ? name : `input "${name}"`;
}

function mapping(name: string, value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${label(name)} must be a YAML mapping (key: value lines), got ${Array.isArray(value) ? 'a list' : typeof value}`);
  return value as Record<string, unknown>;
}

/**
 * The fields of a file the agent wrote (YAML or JSON, keys as the template's
 * field names), merged into the `fields` input's: a key given in both is a
 * mistake, named. Every error names the file.
 */
export function fieldsFromFile(content: EmitInput, text: string, given: string): EmitInput {
  const name = `fields-file ${JSON.stringify(given)}`;
  const fromFile = mapping(name, yamlInput(name, text)) ?? {};
  for (const [key, value] of Object.entries(fromFile)) {
    if (value !== null && typeof value === 'object')
      throw new UsageError(`${name}: field ${quote(key)} must be a single value, got ${Array.isArray(value) ? 'a list' : 'a mapping'}`);
    if (content.fields && Object.hasOwn(content.fields, key))
      throw new UsageError(`${name}: field ${quote(key)} is also given in the "fields" input; give it once`);
  }
  return { ...content, fields: { ...fromFile, ...(content.fields ?? {}) } };
}

function bodySource(body: string | null, bodyFile: string | null, workspace: string): BodySource {
  if (body !== null && bodyFile !== null) throw new UsageError('give either "body" or "body-file", not both');
  if (bodyFile !== null) return { kind: 'file', path: workspacePath('body-file', bodyFile, workspace), given: bodyFile };
  return body !== null ? { kind: 'text', text: body } : { kind: 'none' };
}

export function readEmitInputs(get: Getter, event: EventInfo): EmitStepInputs {
  const raw = readInputs(SCHEMA, get);
  const common = resolveCommon(raw, event);
  const type = raw.type.startsWith('FORGE:') ? raw.type.slice(6) : raw.type;
  const number = common.issueNumber ?? common.subject.issue ?? common.subject.pull;
  if (number === null) throw new UsageError(`issue-number is not set and the "${event.name}" event carries no issue or pull request`);
  if (raw.label !== null && !isReservedLabel(raw.label))
    throw new UsageError(`label ${quote(raw.label)} is not a FORGE label; use one of ${RESERVED_LABELS.join(', ')}`);
  if (raw.milestone !== null && raw.target !== 'milestone') throw new UsageError('input "milestone" is only used with target: milestone');

  const content: EmitInput = { status: raw.status };
  const fields = mapping('fields', yamlInput('fields', raw.fields));
  if (fields) content.fields = fields;
  const sections = mapping('sections', yamlInput('sections', raw.sections));
  if (sections) content.sections = sections as Record<string, SectionValue>;
  const body = bodySource(raw.body, raw.bodyFile, event.workspace);
  if (raw.value !== null) content.value = raw.value;
  if (raw.title !== null) content.title = raw.title;
  if (raw.contextDigest !== null) {
    if (!CONTEXT_DIGEST.test(raw.contextDigest))
      throw new UsageError(
        `input "context-digest" must be forge-context's digest output (sha256: and 64 hex digits, then +gists: and 64 more when it quoted gists), got ${quote(raw.contextDigest)}`,
      );
    if (content.fields && Object.keys(content.fields).some((k) => k.toLowerCase() === CONTEXT_DIGEST_FIELD.toLowerCase()))
      throw new UsageError(`give the digest once: input "context-digest" or a "${CONTEXT_DIGEST_FIELD}" field, not both`);
    content.fields = { ...(content.fields ?? {}), [CONTEXT_DIGEST_FIELD]: raw.contextDigest };
  }
  const card = yamlInput('card', raw.card);
  if (card !== undefined) content.card = card;
  if (raw.reviewedCommit !== null && !FULL_COMMIT.test(raw.reviewedCommit))
    throw new UsageError(
      `input "reviewed-commit" must be a full commit id (40 hex digits), got ${quote(raw.reviewedCommit)}: a shorter prefix names no one commit`,
    );
  if (raw.reviewedCommit !== null && type !== 'REVIEWER') throw new UsageError('input "reviewed-commit" is only used with type: REVIEWER');
  const fromEvent = eventHead(event, number);

  return {
    token: common.token,
    repo: common.repo,
    number,
    type,
    status: raw.status,
    destination: raw.target,
    milestone: raw.milestone,
    ifExists: raw.ifExists,
    run: raw.target === 'comment' ? runRecord() : null,
    label: raw.label,
    trust: common.trust,
    trustInput: common.trustInput,
    ...stageSettings(type, raw.status, DEFAULT_PIPELINE),
    pipelineSource: null,
    dryRun: raw.dryRun,
    content,
    body,
    fieldsFile:
      raw.fieldsFile === null ? null : { path: workspacePath('fields-file', raw.fieldsFile, event.workspace), given: raw.fieldsFile },
    reviewedCommit:
      raw.reviewedCommit !== null
        ? { sha: raw.reviewedCommit.toLowerCase(), from: 'input' }
        : fromEvent !== null
          ? { sha: fromEvent, from: 'event' }
          : null,
  };
}

/** What the pipeline says of this stage: the label its completion moves to, and which types are stages at all. */
function stageSettings(type: string, status: 'complete' | 'partial', p: Pipeline): { stageLabel: string | null; chainStages: string[] } {
  const stage = p.chain.find((s) => s.type === type);
  return { stageLabel: status === 'complete' ? (stage?.completes ?? null) : null, chainStages: p.chain.map((s) => s.type) };
}

/** Whether the run reads the pipeline file: trusted-authors or the label move is left to it. */
export function emitNeedsPipeline(inputs: EmitStepInputs): boolean {
  return inputs.trustInput === null || inputs.label === null;
}

/** The inputs with the pipeline file's settings where the step left them empty (input over file over default). */
export function settleEmit(inputs: EmitStepInputs, file: PipelineAnswer): EmitStepInputs {
  const resolved = resolveAnswer(file);
  const p = resolved.pipeline;
  return {
    ...inputs,
    trust: inputs.trustInput ?? parseTrustPolicy(p.trustedAuthors),
    ...stageSettings(inputs.type, inputs.status, p),
    pipelineSource: resolved.source,
  };
}
