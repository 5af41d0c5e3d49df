/**
 * The audit itself: look up every referenced gist, follow index gists one
 * level, report public gists (CRITICAL) and dangling or non-gist references
 * (WARNING), and — when asked — migrate public gists to secret ones without
 * ever losing content. An audit that could not finish is never a pass.
 * Gist file contents are never logged or summarised.
 */
import { emit, parse } from '../codec/index.js';
import { errorMessage, httpStatus } from '../common/errors.js';
import { trustOfSource } from '../common/trust.js';
import type { GitHub } from '../github/client.js';
import { describeApiError } from '../github/errors.js';
import { mapLimit, READ_CONCURRENCY } from '../common/concurrency.js';
import {
  authenticatedLogin,
  createSecretGist,
  deleteGist,
  getGistRaw,
  ownGistsAmong,
  updateGistFile,
  type GistInfo,
} from '../github/gists.js';
import type { Repo } from '../common/repo.js';
import { getComment, getIssue, getMilestone } from '../github/reads.js';
import { addLabels, ensureLabel, updateComment, updateIssueBody, updateMilestoneDescription } from '../github/writes.js';
import type { Reference } from './collect.js';
import { gistUrlsInText } from './urls.js';

export interface GistFinding {
  id: string | null;
  /** The secret copy a remediation made, when it did. */
  replacement: string | null;
  url: string;
  public: boolean | null;
  type: string;
  source: string;
  trusted: boolean;
  severity: 'CRITICAL' | 'WARNING';
  remediated: boolean;
  /** Why: dangling, not a gist URL, public; and what remediation did or could not do. */
  detail: string;
}

export interface AuditResult {
  findings: GistFinding[];
  /** Distinct gists whose state was learned (public, secret or 404), index gists included. */
  checked: number;
  publicCount: number;
  missingCount: number;
  /** Set when the audit could not finish: an unfinished audit is never a pass. */
  unfinished: string | null;
  /** Public gists still public at the end. */
  publicRemaining: number;
  steps: string[];
  /** A write that failed after others succeeded: what failed, and what had been done. */
  writeFailure: string | null;
}

export type GistState = { kind: 'found'; gist: GistInfo } | { kind: 'missing' };

interface Lookup {
  states: Map<string, GistState>;
  /** The references given, then those found inside index gists. */
  refs: Reference[];
  unfinished: string | null;
}

function refusal(err: unknown, anonymous: boolean): string {
  const e = err as { status?: number; response?: { headers?: Record<string, string> } };
  const headers = e.response?.headers ?? {};
  if ((e.status === 403 || e.status === 429) && headers['x-ratelimit-remaining'] === '0') {
    return anonymous
      ? 'the anonymous gist rate limit (60 requests an hour) ran out — set gist-token to a user token to audit everything'
      : 'the gist-token rate limit ran out before the audit finished';
  }
  if (e.status === 403)
    return 'GitHub refused the gist read (403): gist endpoints refuse GitHub App installation tokens such as the workflow GITHUB_TOKEN — pass a user token as gist-token';
  if (e.status === 401) return 'GitHub rejected the gist-token (401)';
  return describeApiError(err, 'reading a gist').message;
}

/**
 * How a gist may be named in logs, the summary and outputs: by its id when the
 * repository shows it anyway or the gist is public; otherwise only by where it
 * was found — the id of a secret gist is its only protection.
 */
function gistName(ref: Reference, shown: ReadonlySet<string>, isPublic: boolean): string {
  if (ref.id === null) return ref.url;
  return isPublic || shown.has(ref.id) ? `gist ${ref.id}` : `a secret gist (${ref.source})`;
}

/** A reference found inside an index gist's file: one level down, never itself an index. */
function linkedFrom(
  ref: Reference & { id: string },
  name: string,
  file: GistInfo['files'][number],
  link: { url: string; id: string | null },
): Reference {
  return {
    type: 'KNOWLEDGE_GIST',
    url: link.url,
    id: link.id,
    source: `${name.startsWith('a secret') ? `the index gist found in ${ref.source}` : `index ${name}`}, file ${file.filename}`,
    trusted: trustOfSource({ kind: 'index-gist-file', via: ref.trusted }).counts,
    issue: ref.issue,
    location: { kind: 'gist-file', gistId: ref.id, filename: file.filename },
    index: false,
    shown: false,
  };
}

type Fetched = { kind: 'state'; state: GistState } | { kind: 'refused'; err: unknown };

async function fetchGist(gists: GitHub, id: string): Promise<Fetched> {
  try {
    return { kind: 'state', state: { kind: 'found', gist: await getGistRaw(gists, id) } };
  } catch (err) {
    return httpStatus(err) === 404 ? { kind: 'state', state: { kind: 'missing' } } : { kind: 'refused', err };
  }
}

/** The gist-token user's gists among `ids`: as collected, or listed when that saves requests. */
async function ownAmong(gists: GitHub, ids: ReadonlySet<string>, own: readonly GistInfo[] | null): Promise<Map<string, GistInfo>> {
  if (own) return new Map(own.filter((g) => ids.has(g.id)).map((g) => [g.id, g]));
  if (ids.size < 2) return new Map();
  try {
    return await ownGistsAmong(gists, ids);
  } catch {
    // The per-gist reads that follow say why GitHub refuses (an App token, a rate limit).
    return new Map();
  }
}

/**
 * Look up every gist once: the gist-token user's own from `GET /gists` (which
 * carries `public`), the rest a few at a time. Index gists are read in full
 * and the references their files list are looked up in a second round (one
 * level, as the spec's index does).
 */
async function lookUp(
  gists: GitHub,
  refs: readonly Reference[],
  opts: { anonymous: boolean; own: readonly GistInfo[] | null },
  log: (s: string) => void,
): Promise<Lookup> {
  const states = new Map<string, GistState>();
  const all = [...refs];
  const shown = new Set(all.filter((r) => r.shown && r.id !== null).map((r) => r.id as string));
  let round: Reference[] = [...refs];
  while (round.length > 0) {
    // The first reference to each unknown gist decides how it is read and named.
    const first = new Map<string, Reference & { id: string }>();
    for (const ref of round)
      if (ref.id !== null && !states.has(ref.id) && !first.has(ref.id)) first.set(ref.id, ref as Reference & { id: string });
    const indexIds = new Set(round.filter((r) => r.index && r.id !== null).map((r) => r.id as string));
    const listable = new Set([...first.keys()].filter((id) => !indexIds.has(id)));
    const own = opts.anonymous ? new Map<string, GistInfo>() : await ownAmong(gists, listable, opts.own);
    const ids = [...first.keys()];
    const fetched = await mapLimit(ids, READ_CONCURRENCY, async (id): Promise<Fetched> => {
      const listed = listable.has(id) ? own.get(id) : undefined;
      return listed ? { kind: 'state', state: { kind: 'found', gist: listed } } : fetchGist(gists, id);
    });
    const next: Reference[] = [];
    for (let i = 0; i < ids.length; i++) {
      const f = fetched[i];
      const ref = first.get(ids[i]) as Reference & { id: string };
      if (f.kind === 'refused') return { states, refs: all, unfinished: refusal(f.err, opts.anonymous) };
      states.set(ref.id, f.state);
      if (f.state.kind === 'missing') {
        log(`${ref.shown ? `gist ${ref.id}` : 'a gist'}: not found (${ref.source})`);
        continue;
      }
      const gist = f.state.gist;
      const name = gistName(ref, shown, gist.public);
      log(`${name}: ${gist.public ? 'PUBLIC' : 'secret'}${name.startsWith('a secret') ? '' : ` (${ref.source})`}`);
      if (!indexIds.has(ref.id)) continue;
      for (const indexRef of round.filter((r) => r.index && r.id === ref.id))
        for (const file of gist.files)
          for (const link of gistUrlsInText(file.content ?? ''))
            next.push(linkedFrom(indexRef as Reference & { id: string }, name, file, link));
    }
    all.push(...next);
    round = next;
  }
  return { states, refs: all, unfinished: null };
}

async function rewriteReference(gh: GitHub, gists: GitHub, r: Repo, ref: Reference, newUrl: string): Promise<void> {
  const swap = (body: string): string => {
    // Through the codec: the annotation holding the old URL is re-emitted with the new one.
    for (const a of parse(body)) {
      if (a.type === ref.type && a.inlineValue === ref.url)
        return body.slice(0, a.start) + emit(a.type, { value: newUrl }) + body.slice(a.closeEnd);
    }
    throw new Error(`the ${ref.type} annotation pointing to ${ref.url} is no longer in ${ref.source}`);
  };
  const loc = ref.location;
  if (loc.kind === 'comment') {
    const comment = await getComment(gh, r, loc.commentId);
    await updateComment(gh, r, loc.commentId, swap(comment.body));
  } else if (loc.kind === 'issue-body') {
    const item = await getIssue(gh, r, loc.issue);
    await updateIssueBody(gh, r, loc.issue, swap(item.body));
  } else if (loc.kind === 'milestone') {
    const m = await getMilestone(gh, r, loc.number);
    await updateMilestoneDescription(gh, r, loc.number, swap(m.description));
  } else if (loc.kind === 'gist-file') {
    const index = await getGistRaw(gists, loc.gistId);
    const file = index.files.find((f) => f.filename === loc.filename);
    if (!file || file.content === null || !file.content.includes(ref.url)) throw new Error(`${ref.source} no longer lists ${ref.url}`);
    await updateGistFile(gists, loc.gistId, loc.filename, file.content.split(ref.url).join(newUrl));
  }
  // A gist-description reference is the memory-index gist itself: its copy keeps the description.
}

function sameFiles(a: GistInfo, b: GistInfo): boolean {
  if (a.files.length !== b.files.length) return false;
  const byName = new Map(b.files.map((f) => [f.filename, f.content]));
  return a.files.every((f) => byName.has(f.filename) && byName.get(f.filename) === f.content);
}

/**
 * The spec's migration, reordered so nothing is lost: read in full, create a
 * secret copy, read it back and compare every file, rewrite the references,
 * and only then delete the public gist. Returns what happened, one line.
 */
async function remediate(
  gh: GitHub,
  gists: GitHub,
  r: Repo,
  gist: GistInfo,
  refs: Reference[],
  me: string,
): Promise<{ ok: boolean; detail: string; replacement?: string }> {
  if (gist.owner && gist.owner.toLowerCase() !== me.toLowerCase())
    return { ok: false, detail: `not remediated: the gist belongs to ${gist.owner}, not to the gist-token user ${me}` };
  if (gist.truncated || gist.files.some((f) => f.truncated || f.content === null))
    return {
      ok: false,
      detail:
        'not remediated: too large to copy safely (the API response is truncated, so a copy would lose content); the public gist is unchanged',
    };
  const done: string[] = [];
  let copy: GistInfo;
  try {
    copy = await createSecretGist(gists, gist.description, gist.files);
  } catch (err) {
    return { ok: false, detail: `not remediated: ${errorMessage(err)}; the public gist is unchanged` };
  }
  done.push(`created secret copy ${copy.id}`);
  let back: GistInfo;
  try {
    back = await getGistRaw(gists, copy.id);
  } catch (err) {
    return {
      ok: false,
      detail: `not remediated: reading the copy back failed (${describeApiError(err, 'reading the copy').message}); ${done.join('; ')}; the public gist is unchanged`,
    };
  }
  if (back.public || !sameFiles(gist, back)) {
    let cleanup = 'removed the copy again';
    try {
      await deleteGist(gists, copy.id);
    } catch (err) {
      cleanup = `could not remove the copy ${copy.id}: ${errorMessage(err)}`;
    }
    return {
      ok: false,
      detail: `not remediated: the secret copy read back ${back.public ? 'as public' : 'with different files'}; ${cleanup}; the public gist is unchanged`,
    };
  }
  for (const ref of refs) {
    try {
      await rewriteReference(gh, gists, r, ref, back.url);
      done.push(`rewrote ${ref.source}`);
    } catch (err) {
      return {
        ok: false,
        detail: `not remediated: rewriting ${ref.source} failed (${errorMessage(err)}); ${done.join('; ')}; the public gist is unchanged`,
      };
    }
  }
  try {
    await deleteGist(gists, gist.id);
  } catch (err) {
    return { ok: false, detail: `not remediated: ${errorMessage(err)}; ${done.join('; ')} — the public gist is still there` };
  }
  return { ok: true, replacement: back.url, detail: `migrated to secret gist ${back.url} (${done.join('; ')}; deleted the public gist)` };
}

export interface AuditOptions {
  remediate: boolean;
  dryRun: boolean;
  label: string | null;
  anonymous: boolean;
  /** The gist-token user's gists, when the collection already listed them. */
  ownGists?: readonly GistInfo[] | null;
}

/** The clients and repository an audit works with. */
export interface AuditContext {
  gh: GitHub;
  /** The gist-token client (or an anonymous one). */
  gists: GitHub;
  repo: Repo;
  log: (s: string) => void;
}

/**
 * The findings for what was learned: public gists (CRITICAL), dangling
 * references and non-gist URLs (WARNING). Secret gists are no finding. Pure.
 */
export function findingsFor(refs: readonly Reference[], states: ReadonlyMap<string, GistState>): GistFinding[] {
  const findings: GistFinding[] = [];
  const finding = (ref: Reference, severity: GistFinding['severity'], isPublic: boolean | null, detail: string): GistFinding => ({
    id: ref.id,
    replacement: null,
    url: ref.url,
    public: isPublic,
    type: ref.type,
    source: ref.source,
    trusted: ref.trusted,
    severity,
    remediated: false,
    detail,
  });
  for (const ref of refs) {
    const state = ref.id === null ? null : states.get(ref.id);
    if (ref.id === null) findings.push(finding(ref, 'WARNING', null, 'not a gist URL'));
    else if (!state)
      continue; // not reached: the audit stopped first
    else if (state.kind === 'missing') findings.push(finding(ref, 'WARNING', null, 'dangling reference: the gist does not exist (404)'));
    else if (state.gist.public)
      findings.push(
        finding(
          ref,
          'CRITICAL',
          true,
          `public gist: FORGE gists must be secret (§4.2)${ref.trusted ? '' : ' — linked by an untrusted author: reported, never remediated on their word'}`,
        ),
      );
  }
  return findings;
}

/**
 * Trust decides every write: only trusted references start a migration, are
 * rewritten by one, or label an issue. A stranger cannot get a maintainer's
 * deliberately public gist deleted, nor block a migration with their own
 * index gist. Pure: which public gists may be migrated, with the references
 * to rewrite, and which only strangers link to.
 */
export function migrationPlan(
  publicIds: readonly string[],
  refs: readonly Reference[],
): { migrate: Map<string, Reference[]>; untrustedOnly: string[] } {
  const migrate = new Map<string, Reference[]>();
  const untrustedOnly: string[] = [];
  for (const id of publicIds) {
    const trusted = refs.filter((x) => x.id === id && x.trusted);
    if (trusted.length > 0) migrate.set(id, trusted);
    else untrustedOnly.push(id);
  }
  return { migrate, untrustedOnly };
}

/** The issues to label: those with a trusted reference to a public gist still public. Pure. */
export function issuesToLabel(refs: readonly Reference[], stillPublic: ReadonlySet<string>): number[] {
  const issues = new Set<number>();
  for (const x of refs) if (x.trusted && x.id !== null && stillPublic.has(x.id) && x.issue !== null) issues.add(x.issue);
  return [...issues];
}

interface Remediation {
  remediated: Set<string>;
  migrations: string[];
}

async function remediateAll(
  ctx: AuditContext,
  plan: ReturnType<typeof migrationPlan>,
  states: ReadonlyMap<string, GistState>,
  findings: GistFinding[],
  opts: AuditOptions,
  steps: string[],
): Promise<Remediation> {
  const out: Remediation = { remediated: new Set(), migrations: [] };
  const note = (id: string, detail: string, ok: boolean, replacement: string | null) => {
    for (const f of findings)
      if (f.id === id && f.public) {
        f.remediated = ok;
        f.replacement = replacement;
        f.detail = `${f.detail}; ${detail}`;
      }
  };
  for (const id of plan.untrustedOnly) {
    steps.push(`gist ${id}: not remediated: only untrusted authors link to it`);
    note(id, 'not remediated: only untrusted authors link to it', false, null);
  }
  if (opts.dryRun) {
    for (const [id, refs] of plan.migrate)
      steps.push(`would migrate public gist ${id} to a secret copy and rewrite its ${refs.length} trusted reference(s)`);
    return out;
  }
  if (plan.migrate.size === 0) return out;
  const me = await authenticatedLogin(ctx.gists);
  for (const [id, refs] of plan.migrate) {
    if (states.get(id)?.kind !== 'found') continue;
    // Read in full now: a listing carries no file contents, and the gist may have changed since.
    const full = await fetchGist(ctx.gists, id);
    const result =
      full.kind === 'state' && full.state.kind === 'found'
        ? await remediate(ctx.gh, ctx.gists, ctx.repo, full.state.gist, refs, me)
        : {
            ok: false,
            detail: `not remediated: reading it in full failed (${full.kind === 'refused' ? errorMessage(full.err) : 'it is gone (404)'}); the public gist is unchanged`,
          };
    steps.push(`gist ${id}: ${result.detail}`);
    if (result.ok) {
      out.remediated.add(id);
      out.migrations.push(`gist ${id} → ${result.replacement}`);
    }
    note(id, result.detail, result.ok, result.replacement ?? null);
  }
  return out;
}

/** Label the issues; a failure stops here and says what had completed before it. */
async function labelIssues(
  ctx: AuditContext,
  issues: number[],
  label: string,
  dryRun: boolean,
  migrations: string[],
  steps: string[],
): Promise<string | null> {
  const labelled: number[] = [];
  for (const n of issues) {
    steps.push(`${dryRun ? 'would label' : 'label'} #${n} ${label}`);
    if (dryRun) continue;
    try {
      await ensureLabel(ctx.gh, ctx.repo, label, 'd93f0b', 'A FORGE gist is public');
      await addLabels(ctx.gh, ctx.repo, n, [label]);
    } catch (err) {
      // Outputs and the summary are still written: what completed must not be hidden by what failed.
      const before = [...migrations.map((m) => `migrated ${m}`), ...labelled.map((l) => `labelled #${l}`)];
      return `labelling #${n} ${label} failed (${errorMessage(err)})${before.length ? `; completed before it: ${before.join('; ')}` : '; nothing had been written before it'}`;
    }
    labelled.push(n);
  }
  return null;
}

export async function runAudit(ctx: AuditContext, refs: Reference[], opts: AuditOptions): Promise<AuditResult> {
  const lookup = await lookUp(ctx.gists, refs, { anonymous: opts.anonymous, own: opts.ownGists ?? null }, ctx.log);
  const findings = findingsFor(lookup.refs, lookup.states);
  const steps: string[] = [];
  const publicIds = [...lookup.states].filter(([, s]) => s.kind === 'found' && s.gist.public).map(([id]) => id);
  const canRemediate = opts.remediate && publicIds.length > 0 && lookup.unfinished === null;
  const { remediated, migrations } = canRemediate
    ? await remediateAll(ctx, migrationPlan(publicIds, lookup.refs), lookup.states, findings, opts, steps)
    : { remediated: new Set<string>(), migrations: [] };
  const stillPublic = new Set(publicIds.filter((id) => !remediated.has(id)));
  const writeFailure = opts.label
    ? await labelIssues(ctx, issuesToLabel(lookup.refs, stillPublic), opts.label, opts.dryRun, migrations, steps)
    : null;
  return {
    findings,
    checked: lookup.states.size,
    publicCount: publicIds.length,
    missingCount: [...lookup.states.values()].filter((s) => s.kind === 'missing').length,
    unfinished: lookup.unfinished,
    publicRemaining: stillPublic.size,
    steps,
    writeFailure,
  };
}
