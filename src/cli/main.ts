/**
 * The `forge` command line: parse, validate, emit, check, conformance, report merge.
 * Exit codes: 0 ok, 1 a finding (invalid annotation, not conforming, failed
 * fixture), 2 a usage mistake (one line on stderr, no stack trace).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  cardValue,
  EmitError,
  getField,
  isReserved,
  nearMisses,
  oneLine,
  parse,
  parseAndValidate,
  type EmitInput,
  type SectionValue,
} from '../codec/index.js';
import { fileErrorText, UsageError } from '../common/errors.js';
import { composeAnnotation, InvalidAnnotation } from '../common/compose-annotation.js';
import { parseTrustPolicy } from '../common/trust.js';
import { periodMs } from '../common/periods.js';
import {
  chainText,
  describePipeline,
  parsePipelineFile,
  PIPELINE_PATH,
  resolvePipeline,
  routeRules,
  stagesOn,
  type Resolved,
} from '../common/pipeline.js';
import { VERSION } from '../common/version.js';
import { parseRepository } from '../common/repo.js';
import { evaluate, parseRequired, requiredWarnings, VALIDATIONS, type Validation } from '../decision/evaluate.js';
import { markdownMergedReport, textMergedReport } from '../decision/report-render.js';
import { mergeReports, readReport } from '../decision/report.js';
import { textReport } from '../decision/text-report.js';
import { readThreadExport, readThreadExportWithParent, splitJsonStream } from '../github/thread-export.js';
import { buildContext, parseChain, parseStage, stalled } from '../decision/context.js';
import { runFixtures } from './fixtures.js';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  readStdin: () => string;
}

const USAGE = `usage: forge <command> [options]
  parse [FILE|-] [--strict]          annotations as JSON
  parse [FILE|-] --type T [--field K]
                                     the first T annotation (or its field K: a field, value
                                     for an inline value, a CARD payload key); exit 1 and
                                     nothing on stdout when it is not there; -t, -f
  validate [FILE|-] [--strict] [--pipeline FILE]
                                     a comment body, or every body of a thread export (the
                                     JSON check takes); exit 1 when any is invalid
  emit TYPE [--field K=V]... [--section Heading=Markdown]... [--value V]
            [--card JSON] [--title T] [--body MARKDOWN] [--partial] [--no-validate]
                                     refused (exit 1) when the annotation would be invalid,
                                     as forge-emit refuses it; --no-validate writes a draft
  emit CARD --field K=V... --b64     the CARD machine surface: <!-- FORGE:CARD: v1 sha:… b64:… -->
  check FILE [--required TYPES|minimal|lifecycle] [--trusted-authors LIST]
            [--validation strict|template|presence] [--number N] [--json] [--strict]
            [--pipeline FILE]
                                     parse, validate and check warn on near misses (an
                                     unclosed tag, a tag in the wrong case, a sentinel
                                     without its opener, a typo of a reserved type);
                                     --strict makes them exit 1
  context FILE [--stage TYPE] [--chain minimal|lifecycle|TYPES] [--budget N]
            [--trusted-authors LIST] [--stall-after 6h] [--number N] [--json]
            [--pipeline FILE]
                                     the context pack a stage reads (the newest complete
                                     trusted annotation of each earlier stage, fenced as
                                     data) and what runs next; --json adds digest,
                                     nextPhase, state and stages
  pipeline [FILE]                    the effective pipeline (FILE, else .github/forge.yml
                                     here, else the built-in defaults) and where each value
                                     came from; check and context read the same file, and
                                     their options override it key by key
  --version                          the version
  conformance DIR                    run fixture files; ends with "N passed, N failed"
  DIR                                the same: the spec's legacy form (forge fixtures/)
  report merge FILE... [--format markdown|text|json] [--fail-on-violation]
            [--expect REPOS]         combine forge-check report JSON files (one per
                                     repository) into one summary; --expect names the
                                     repositories: one with no report is named missing
  <command> --help                   that command's lines of this usage`;

/**
 * `forge <command> --help`: the lines of the usage about that command (its
 * own lines and their continuations), or null when the usage has none.
 */
export function usageOf(command: string): string | null {
  const out: string[] = [];
  let mine = false;
  for (const line of USAGE.split('\n').slice(1)) {
    const head = /^ {2}(\S+)/.exec(line);
    if (head) mine = head[1] === command;
    if (mine) out.push(line);
  }
  return out.length > 0 ? `usage: forge\n${out.join('\n')}` : null;
}

interface Parsed {
  positional: string[];
  flags: Map<string, string[]>;
}

/** The spec's short flags (§13.3): `-t` for --type, `-f` for --field. */
const SHORT: Readonly<Record<string, string>> = { '-t': '--type', '-f': '--field' };

function parseArgs(args: string[], valued: string[], booleans: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const short = SHORT[args[i]];
    const a = short && valued.includes(short.slice(2)) ? short : args[i];
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (booleans.includes(name)) {
        if (eq > 0) throw new UsageError(`--${name} takes no value`);
        flags.set(name, ['true']);
      } else if (valued.includes(name)) {
        const value = eq > 0 ? a.slice(eq + 1) : args[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, [...(flags.get(name) ?? []), value]);
      } else {
        throw new UsageError(`unknown option ${a}`);
      }
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
}

function readInput(file: string | undefined, io: Io): string {
  if (file === undefined || file === '-') return io.readStdin();
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${fileErrorText(e)}`);
  }
}

function keyValue(flag: string, text: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} expects KEY=VALUE, got "${text}"`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

function one(p: Parsed, name: string): string | undefined {
  const v = p.flags.get(name);
  if (v && v.length > 1) throw new UsageError(`--${name} given more than once`);
  return v?.[0];
}

function noExtra(p: Parsed, max: number, command: string): void {
  if (p.positional.length > max) throw new UsageError(`${command}: unexpected argument "${p.positional[max]}"`);
}

/**
 * Near misses in `bodies` as warning lines on stderr (what a pipeline would
 * miss: an unclosed tag, a tag in the wrong case, a lone sentinel, a typo of a
 * reserved type). Returns how many there were.
 */
function warnNearMisses(bodies: ReadonlyArray<{ label: string; body: string }>, io: Io): number {
  let n = 0;
  for (const { label, body } of bodies)
    for (const m of nearMisses(body, parse(body))) {
      n++;
      io.err(`warning: ${label}line ${m.line}: ${oneLine(m.message)}\n`);
    }
  return n;
}

/** --strict: near misses fail the command (exit 1) instead of only warning. */
function nearMissExit(count: number, strict: boolean, io: Io): number {
  if (count > 0 && strict) io.err(`${count} near miss(es) — --strict makes them fail\n`);
  return count > 0 && strict ? 1 : 0;
}

/**
 * One value of an annotation, as §13.3's `parse --type T --field K` prints it:
 * a field (case-insensitive), `value` for an inline value (§3.4), or a key of
 * a CARD's decoded payload. Null when it is not there.
 */
function fieldValue(a: ReturnType<typeof parseAndValidate>[number], key: string): string | null {
  const field = getField(a.fields, key);
  if (field !== undefined) return field;
  if (key.toLowerCase() === 'value' && a.inlineValue !== null) return a.inlineValue;
  const payload = a.card?.payload;
  if (payload && typeof payload === 'object' && !Array.isArray(payload) && Object.hasOwn(payload, key)) {
    const v = (payload as Record<string, unknown>)[key];
    return typeof v === 'string' ? v : JSON.stringify(v);
  }
  return null;
}

function cmdParse(args: string[], io: Io): number {
  const p = parseArgs(args, ['type', 'field'], ['strict']);
  noExtra(p, 1, 'parse');
  const body = readInput(p.positional[0], io);
  const all = parseAndValidate(body);
  const typeFlag = one(p, 'type');
  const fieldFlag = one(p, 'field');
  const misses = warnNearMisses([{ label: '', body }], io);
  if (typeFlag === undefined && fieldFlag === undefined) {
    const out = all.map(({ raw: _raw, start: _s, end: _e, ...rest }) => rest);
    io.out(`${JSON.stringify(out, null, 2)}\n`);
    return nearMissExit(misses, p.flags.has('strict'), io);
  }
  // §13.3: the first annotation (of the type, in any case); exit 1 and nothing on stdout when it or the field is not there.
  const type = typeFlag?.replace(/^FORGE:/i, '').toUpperCase();
  const a = type === undefined ? all[0] : all.find((x) => x.type === type);
  if (!a) {
    io.err(`forge: no ${type ?? ''}${type ? ' ' : ''}annotation found\n`);
    return 1;
  }
  if (fieldFlag === undefined) {
    const { raw: _raw, start: _s, end: _e, ...rest } = a;
    io.out(`${JSON.stringify(rest, null, 2)}\n`);
    return 0;
  }
  const value = fieldValue(a, fieldFlag);
  if (value === null) {
    io.err(`forge: ${a.type} has no field ${JSON.stringify(fieldFlag)}\n`);
    return 1;
  }
  io.out(`${value}\n`);
  return 0;
}

/** Is `text` JSON, or a stream of JSON pages (gh api --paginate)? */
function isJsonLike(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return (splitJsonStream(text)?.length ?? 0) > 1;
  }
}

/** The texts `forge validate` reads: a comment body, or each body of a thread export (the JSON `forge check` takes). */
function bodiesOf(text: string, file: string): Array<{ label: string; body: string }> {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return [{ label: '', body: text }];
  // JSON, or gh's --paginate pages one after another; else a body that happens to start with a bracket.
  if (!isJsonLike(text)) return [{ label: '', body: text }];
  const item = readThreadExport(text, file, 0);
  return [
    ...(item.body ? [{ label: `#${item.number || '?'} body: `, body: item.body }] : []),
    ...item.comments.map((c) => ({ label: `comment ${c.id}: `, body: c.body })),
  ];
}

function cmdValidate(args: string[], io: Io): number {
  const p = parseArgs(args, ['pipeline'], ['strict']);
  noExtra(p, 1, 'validate');
  // The pipeline file is checked too when given: a bad one is the same one error the actions give.
  if (p.flags.has('pipeline')) pipelineOf(p, io);
  const file = p.positional[0] ?? '-';
  const lines: string[] = [];
  let count = 0;
  let bad = 0;
  const bodies = bodiesOf(readInput(p.positional[0], io), file);
  const misses = warnNearMisses(bodies, io);
  const strictExit = nearMissExit(misses, p.flags.has('strict'), io);
  for (const { label, body } of bodies) {
    for (const a of parseAndValidate(body)) {
      count++;
      if (!a.valid) bad++;
      lines.push(`${a.valid ? 'valid  ' : 'INVALID'}  ${label}${a.type} (${a.sentinelState}) line ${a.startLine + 1}`);
      for (const e of a.errors) lines.push(`    error: ${oneLine(e)}`);
      for (const w of a.warnings) lines.push(`    warning: ${oneLine(w)}`);
    }
  }
  if (count === 0) {
    io.out(`no FORGE annotations found${misses > 0 ? ` (${misses} near miss(es): see the warnings)` : ''}\n`);
    return strictExit;
  }
  lines.push(`${count} annotation(s), ${bad} invalid${misses > 0 ? `, ${misses} near miss(es)` : ''}`);
  io.out(`${lines.join('\n')}\n`);
  return bad > 0 ? 1 : strictExit;
}

function cmdEmit(args: string[], io: Io): number {
  const p = parseArgs(args, ['field', 'section', 'value', 'card', 'title', 'body'], ['partial', 'no-validate', 'b64']);
  if (p.positional.length === 0) throw new UsageError('emit: missing TYPE');
  noExtra(p, 1, 'emit');
  if (p.flags.has('b64')) return emitB64(p, io);
  const input: EmitInput = {};
  const fields = (p.flags.get('field') ?? []).map((f) => keyValue('--field', f));
  if (fields.length > 0) input.fields = fields;
  const sections = (p.flags.get('section') ?? []).map((s) => keyValue('--section', s));
  if (sections.length > 0) input.sections = Object.fromEntries(sections) as Record<string, SectionValue>;
  const value = one(p, 'value');
  if (value !== undefined) input.value = value;
  const title = one(p, 'title');
  if (title !== undefined) input.title = title;
  const card = one(p, 'card');
  if (card !== undefined) {
    try {
      input.card = JSON.parse(card);
    } catch {
      throw new UsageError('--card is not valid JSON');
    }
  }
  input.status = p.flags.has('partial') ? 'partial' : 'complete';
  const type = p.positional[0].startsWith('FORGE:') ? p.positional[0].slice(6) : p.positional[0];
  // Validated as forge-emit validates: an invalid complete annotation is refused (exit 1) unless it is a deliberate draft.
  let composed: ReturnType<typeof composeAnnotation>;
  try {
    composed = composeAnnotation(type, input, one(p, 'body'), !p.flags.has('no-validate'));
  } catch (e) {
    if (!(e instanceof InvalidAnnotation)) throw e;
    io.err(`forge: ${oneLine(e.message)}\n`);
    return 1;
  }
  for (const w of composed.warnings) io.err(`warning: ${oneLine(w)}\n`);
  io.out(`${composed.text}\n`);
  return 0;
}

/**
 * §13.3's machine surface: `emit CARD --field k=v … --b64` writes the fields
 * as the CARD's payload (canonical JSON, base64url), one line
 * `<!-- FORGE:CARD: v1 sha:… b64:… -->`, byte for byte as the spec prints it:
 * every value a string as typed (`issue=1370` is "1370"), and `type: "CARD"`
 * in the payload unless a `type` field is given. A reader takes either form.
 */
function emitB64(p: Parsed, io: Io): number {
  const type = p.positional[0].replace(/^FORGE:/, '');
  if (type !== 'CARD') throw new UsageError(`--b64 writes a CARD's machine surface; ${type} has none`);
  for (const other of ['section', 'value', 'card', 'title', 'body', 'partial'])
    if (p.flags.has(other)) throw new UsageError(`--b64 takes the payload from --field only, not --${other}`);
  const payload: Record<string, unknown> = {};
  for (const f of p.flags.get('field') ?? []) {
    const [k, v] = keyValue('--field', f);
    payload[k] = v;
  }
  if (Object.keys(payload).length === 0) throw new UsageError('--b64 needs the payload as --field key=value');
  payload.type ??= 'CARD';
  io.out(`<!-- FORGE:CARD: ${cardValue(payload)} -->\n`);
  return 0;
}

function cmdCheck(args: string[], io: Io): number {
  const p = parseArgs(args, ['required', 'trusted-authors', 'validation', 'number', 'pipeline'], ['json', 'strict']);
  if (p.positional.length === 0) throw new UsageError('check: missing FILE (a JSON export of the thread)');
  noExtra(p, 1, 'check');
  const file = p.positional[0];
  const validation = (one(p, 'validation') ?? 'strict') as Validation;
  if (!VALIDATIONS.includes(validation)) throw new UsageError(`--validation must be one of ${VALIDATIONS.join(', ')}`);
  const pipeline = pipelineOf(p, io).pipeline;
  const item = readThreadExport(readInput(file, io), file, numberOption(p));
  // An export is one thread: the stages the pipeline writes on that side (an issue's, or a PR's own and the issue's).
  const side = item.kind === 'pull' ? chainText(pipeline) : stagesOn(pipeline, 'issue').join(', ');
  const required = parseRequired(one(p, 'required') ?? side);
  for (const w of cliRequiredWarnings(required)) io.err(`warning: ${w}\n`);
  const misses = warnNearMisses(
    [
      ...(item.body ? [{ label: `#${item.number} body: `, body: item.body }] : []),
      ...item.comments.map((c) => ({ label: `comment ${c.id}: `, body: c.body })),
    ],
    io,
  );
  const trust = parseTrustPolicy(one(p, 'trusted-authors') ?? pipeline.trustedAuthors);
  // A role is read from GitHub; an export holds none, so such an entry trusts nobody here.
  if (trust.minPermission !== null)
    io.err(`warning: --trusted-authors permission:${trust.minPermission} needs GitHub to read roles; offline it trusts nobody\n`);
  // The route decides with the gate, as in forge-check: the pipeline's chain (or --required), its blocks and stale rule.
  // The export's own URLs name its repository: the annotations' ids in a Context digest name it, so a stale stage is
  // judged here as `forge context` and the gate judge it (without one, no digest can be recomputed).
  const repository = repositoryOf([item.url, ...item.comments.map((c) => c.url)]);
  const result = evaluate([item], [], {
    required,
    validation,
    trust,
    chain: one(p, 'required') !== undefined ? required : pipeline.chain.map((s) => s.type),
    rules: routeRules(pipeline),
    ...(repository ? { repository } : {}),
  });
  io.out(`${p.flags.has('json') ? JSON.stringify(result, null, 2) : textReport(result)}\n`);
  return result.conforming ? nearMissExit(misses, p.flags.has('strict'), io) : 1;
}

/**
 * The pipeline a command works under: --pipeline FILE, else the working
 * directory's .github/forge.yml when there is one, else the built-in defaults.
 * The command's own options override it key by key.
 */
function pipelineAt(given: string | undefined, io: Io): Resolved {
  const file = given ?? (existsSync(PIPELINE_PATH) ? PIPELINE_PATH : null);
  return file === null ? resolvePipeline(null) : resolvePipeline(parsePipelineFile(readInput(file, io), file), {}, file);
}

function pipelineOf(p: Parsed, io: Io): Resolved {
  return pipelineAt(one(p, 'pipeline'), io);
}

function cmdPipeline(args: string[], io: Io): number {
  const p = parseArgs(args, [], []);
  noExtra(p, 1, 'pipeline');
  io.out(describePipeline(pipelineAt(p.positional[0], io)));
  return 0;
}

const DEFAULT_BUDGET = 60_000;

/** `--number`, shared by check and context: an issue number, `#` allowed. */
function numberOption(p: Parsed): number | null {
  const v = one(p, 'number');
  if (v === undefined) return null;
  if (!/^[1-9]\d{0,9}$/.test(v.replace(/^#/, ''))) throw new UsageError(`--number must be an issue number, got ${JSON.stringify(v)}`);
  return Number(v.replace(/^#/, ''));
}

/** owner/name from the first of `urls` that names one (`https://github.com/o/r/issues/1#…`, `…/repos/o/r/issues/…`). */
function repositoryOf(urls: readonly string[]): string | null {
  for (const url of urls) {
    const m = /^https?:\/\/[^/]+\/(?:repos\/)?([^/\s]+\/[^/\s]+)\/(?:issues|pull)\//.exec(url);
    if (m) return m[1];
  }
  return null;
}

/**
 * `forge context FILE`: the pack forge-context writes, offline, from the
 * thread export `forge check` reads (or gh's --paginate / --slurp pages). The
 * export's own author_associations decide trust; an export holds no roles.
 */
function cmdContext(args: string[], io: Io): number {
  const p = parseArgs(args, ['stage', 'chain', 'budget', 'trusted-authors', 'number', 'stall-after', 'now', 'pipeline'], ['json']);
  if (p.positional.length === 0) throw new UsageError('context: missing FILE (a JSON export of the thread)');
  noExtra(p, 1, 'context');
  const file = p.positional[0];
  const pipeline = pipelineOf(p, io).pipeline;
  // The file's chain in the file's order (§8: a custom stage runs where it is placed); --chain as typed, in §5 order.
  const chainFlag = one(p, 'chain');
  const chain = chainFlag !== undefined ? parseChain(chainFlag) : pipeline.chain.map((s) => s.type);
  const stage = parseStage(one(p, 'stage'));
  const budgetText = (one(p, 'budget') ?? String(DEFAULT_BUDGET)).replace(/[_,]/g, '');
  if (!/^\d{1,9}$/.test(budgetText) || Number(budgetText) < 2000)
    throw new UsageError(`--budget must be a number of characters, 2000 or more, got ${JSON.stringify(one(p, 'budget'))}`);
  const stallText = one(p, 'stall-after');
  const stallGiven = stallText === undefined ? null : periodMs(stallText);
  if (stallText !== undefined && stallGiven === null)
    throw new UsageError(`--stall-after must be a period such as 30m, 6h or 2d, got ${JSON.stringify(stallText)}`);
  const stallMs = stallGiven ?? pipeline.stallAfterMs;
  const nowText = one(p, 'now');
  const now = nowText === undefined ? Date.now() : Date.parse(nowText);
  if (Number.isNaN(now)) throw new UsageError(`--now must be an ISO 8601 time, got ${JSON.stringify(nowText)}`);
  const trust = parseTrustPolicy(one(p, 'trusted-authors') ?? pipeline.trustedAuthors);
  if (trust.minPermission !== null)
    io.err(`warning: --trusted-authors permission:${trust.minPermission} needs GitHub to read roles; offline it trusts nobody\n`);
  const { item, parent } = readThreadExportWithParent(readInput(file, io), file, numberOption(p));
  const repository = repositoryOf([item.url, ...item.comments.map((c) => c.url)]) ?? 'this repository';
  if (!item.url) item.url = repository === 'this repository' ? '' : `https://github.com/${repository}/issues/${item.number}`;
  const result = buildContext({
    repository,
    subject: item,
    issues: [item],
    pull: null,
    parent: parent ? { item: parent, repository: repositoryOf([parent.url, ...parent.comments.map((c) => c.url)]) ?? repository } : null,
    chain,
    stage,
    budget: Number(budgetText),
    trust,
    unreadable: [],
    rules: routeRules(pipeline),
  });
  if (result.overBudget) io.err(`warning: --budget ${budgetText} is smaller than the pack's headings and links alone\n`);
  if (!p.flags.has('json')) {
    io.out(result.markdown);
    return 0;
  }
  const json = {
    digest: result.digest,
    nextPhase: result.nextPhase,
    nextReason: result.nextReason,
    state: result.state,
    stages: result.stages,
    stalled: stalled(result, now, stallMs),
    cuts: result.cuts,
    markdown: result.markdown,
  };
  io.out(`${JSON.stringify(json, null, 2)}\n`);
  return 0;
}

/**
 * The CLI names every required type that is not reserved (a custom type is
 * allowed, but in a one-off check it is more often a typo), with the nearest
 * reserved type when there is one.
 */
function cliRequiredWarnings(required: readonly string[]): string[] {
  const near = new Set(requiredWarnings(required));
  const out = [...near];
  for (const type of required)
    if (!isReserved(type) && ![...near].some((w) => w.startsWith(`required: ${type} `)))
      out.push(`required: ${type} is not a reserved type (a custom type: only annotations of exactly that type count)`);
  return out;
}

function cmdConformance(args: string[], io: Io): number {
  const p = parseArgs(args, [], []);
  noExtra(p, 1, 'conformance');
  const dir = p.positional[0];
  if (!dir) throw new UsageError('conformance: missing DIR');
  let files: string[];
  try {
    files = statSync(dir).isDirectory()
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(dir, f))
      : [dir];
  } catch (e) {
    throw new UsageError(`cannot read ${dir}: ${fileErrorText(e)}`);
  }
  const { lines, passed, failed } = runFixtures(files.map((f) => ({ file: f, text: readFileSync(f, 'utf8') })));
  io.out(`${lines.join('\n') + (lines.length ? '\n' : '')}${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

const MERGE_FORMATS = ['markdown', 'text', 'json'] as const;

/** `forge report merge FILE…`: the reports of a matrix of forge-check jobs as one summary. */
function cmdReport(args: string[], io: Io): number {
  const p = parseArgs(args, ['format', 'expect'], ['fail-on-violation']);
  const [sub, ...files] = p.positional;
  if (sub !== 'merge')
    throw new UsageError(sub === undefined ? 'report: missing subcommand (merge)' : `report: unknown subcommand "${sub}" (merge)`);
  if (files.length === 0 && !p.flags.has('expect'))
    throw new UsageError('report merge: give one or more report files (forge-check report-file)');
  const format = one(p, 'format') ?? 'markdown';
  if (!(MERGE_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${MERGE_FORMATS.join(', ')}`);
  // --expect: the repositories the audit covered (blank- or comma-separated, repeatable); one with no report is named.
  const expected = (p.flags.get('expect') ?? []).flatMap((v) => v.split(/[\s,]+/)).filter((v) => v !== '');
  for (const x of expected) parseRepository(x);
  const merged = mergeReports(
    files.map((f) => readReport(readInput(f, io), f)),
    expected,
  );
  const text =
    format === 'json' ? JSON.stringify(merged, null, 2) : format === 'text' ? textMergedReport(merged) : markdownMergedReport(merged);
  io.out(`${text}\n`);
  return p.flags.has('fail-on-violation') && (merged.counts.failing > 0 || merged.missing.length > 0) ? 1 : 0;
}

const COMMANDS: Record<string, (args: string[], io: Io) => number> = {
  report: cmdReport,
  parse: cmdParse,
  validate: cmdValidate,
  emit: cmdEmit,
  check: cmdCheck,
  context: cmdContext,
  conformance: cmdConformance,
  pipeline: cmdPipeline,
};

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function main(argv: string[], io: Io): number {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-V' || command === 'version') {
    io.out(`forge-actions ${VERSION}\n`);
    return 0;
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    if (command === undefined) {
      io.err(`${USAGE}\n`);
      return 2;
    }
    io.out(`${USAGE}\n`);
    return 0;
  }
  if (COMMANDS[command] && (rest.includes('--help') || rest.includes('-h'))) {
    io.out(`${usageOf(command) ?? USAGE}\n`);
    return 0;
  }
  // §13.3's legacy form: `forge fixtures/` (no subcommand) runs the conformance suite in that folder.
  const legacy = !COMMANDS[command] && isDirectory(command);
  const run = legacy ? () => cmdConformance([command, ...rest], io) : COMMANDS[command];
  try {
    if (!run) throw new UsageError(`unknown command "${command}" (parse, validate, emit, check, context, conformance, report, pipeline)`);
    return run(rest, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof EmitError) {
      io.err(`forge: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
