/**
 * forge-context's decision: read the work item once (the snapshot reader),
 * resolve roles when trust asks for them, read the gists the included
 * pointers name, and build the pack. Typed inputs and clients in, the result out.
 */
import { gistIdFromUrl } from '../common/gist-urls.js';
import { errorMessage } from '../common/errors.js';
import { counts, parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { defaultStage, resolveAnswer, routeRules, type PipelineAnswer, type PipelineFile, type Resolved } from '../common/pipeline.js';
import { taggedAuthors } from '../common/trusted-annotations.js';
import {
  buildContext,
  gistsWanted,
  stalled,
  workItemRequest,
  type ContextResult,
  type GistText,
  type StageEntry,
} from '../decision/context.js';
import { requestStats, type GitHub } from '../github/client.js';
import { readContextSnapshot, type ContextSnapshot } from '../github/context-read.js';
import { getGistRaw } from '../github/gists.js';
import { resolvePermissions } from '../github/permissions.js';
import type { ContextInputs } from './inputs.js';

/** At most this many gists are read for one pack: each is one request (anonymous reads have 60 an hour). */
export const MAX_GISTS = 5;

export interface ContextOutcome {
  /** The settings the run decided by, and where each came from. */
  settings: ContextSettings;
  snapshot: ContextSnapshot;
  result: ContextResult;
  stalled: StageEntry[];
  /** What the step should say as warnings: what could not be read or decided. */
  notes: string[];
  /** Requests spent on gists. */
  gistRequests: number;
}

/**
 * Why a gist could not be read, in one line that names the cause: a rate limit is a rate limit (anonymous reads
 * have 60 an hour per address; a token, its own budget), never blamed on the token; a 403 with a token is the
 * gist endpoints refusing it (they refuse the workflow token).
 */
export function gistError(err: unknown, anonymous: boolean): string {
  const e = err as { status?: number; response?: { headers?: Record<string, string | undefined> } };
  const status = e.status;
  const headers = e.response?.headers ?? {};
  const first = errorMessage(err).split('\n')[0].slice(0, 200);
  if (status === 404) return 'not found (404): deleted, or secret and this token cannot see it';
  if (status === 429 || (status === 403 && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(first)))) {
    const reset = Number(headers['x-ratelimit-reset']);
    const until = Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString().slice(11, 16)} UTC` : '';
    return anonymous
      ? `rate limited (${status}): GitHub's limit for anonymous reads (60 an hour per address) is spent${until}; set gist-token to read with a token's own limit`
      : `rate limited (${status}): gist-token's rate limit is spent${until}`;
  }
  if (status === 403)
    return anonymous
      ? `refused (403): ${first}`
      : `refused (403): ${first} — gist endpoints refuse the workflow token; set gist-token to a token they accept, or leave it empty for anonymous reads`;
  return first;
}

async function readGists(
  gist: GitHub,
  wanted: ReturnType<typeof gistsWanted>,
  anonymous: boolean,
  ownerTrusted: (login: string) => boolean,
): Promise<{ texts: GistText[]; requests: number }> {
  const texts: GistText[] = [];
  let requests = 0;
  for (const w of wanted.slice(0, MAX_GISTS)) {
    const id = gistIdFromUrl(w.url);
    const base = { type: w.type, url: w.url, id: id ?? '', via: w.via, files: [] };
    if (id === null) {
      texts.push({ ...base, error: 'not a gist URL' });
      continue;
    }
    try {
      requests++;
      const g = await getGistRaw(gist, id);
      texts.push({
        ...base,
        owner: g.owner,
        ownerTrusted: g.owner !== null && ownerTrusted(g.owner),
        files: g.files.map((f) => ({ name: f.filename, content: f.content ?? '', truncated: f.truncated || f.content === null })),
        error: null,
      });
    } catch (err) {
      texts.push({ ...base, error: gistError(err, anonymous) });
    }
  }
  if (wanted.length > MAX_GISTS)
    texts.push(
      ...wanted.slice(MAX_GISTS).map((w) => ({
        type: w.type,
        url: w.url,
        id: '',
        via: w.via,
        files: [],
        error: `not read: at most ${MAX_GISTS} gists are read for one pack`,
      })),
    );
  return { texts, requests };
}

/** The settings this run decides by: an input over the pipeline file over the built-in defaults, key by key. */
export interface ContextSettings {
  chain: string[];
  trust: TrustPolicy;
  stallAfterMs: number;
  pipeline: Resolved;
  /** The route's rules from the file: blocking field values, what a stale stage does. */
  rules: ReturnType<typeof routeRules>;
}

export function contextSettings(inputs: ContextInputs, file: PipelineAnswer): ContextSettings {
  const overrides: PipelineFile = {};
  if (inputs.trust !== null) overrides.trustedAuthors = inputs.trust.text;
  if (inputs.stallAfterMs !== null) overrides.stallAfterMs = inputs.stallAfterMs;
  if (inputs.chain !== null) overrides.chain = inputs.chain.map(defaultStage);
  const pipeline = resolveAnswer(file, overrides);
  return {
    // The file's chain keeps the file's order (§8: a custom stage runs where it is placed).
    chain: pipeline.pipeline.chain.map((s) => s.type),
    trust: inputs.trust ?? parseTrustPolicy(pipeline.pipeline.trustedAuthors),
    stallAfterMs: pipeline.pipeline.stallAfterMs,
    pipeline,
    rules: routeRules(pipeline.pipeline),
  };
}

export async function runContext(gh: GitHub, gist: GitHub, inputs: ContextInputs, now: number): Promise<ContextOutcome> {
  const notes: string[] = [];
  // Settled from the first answer (the pipeline file comes in the same query), before any trust decision.
  let settings = contextSettings(inputs, null);
  const snapshot = await readContextSnapshot(
    gh,
    inputs.repo,
    inputs.number,
    async (pull) => {
      notes.push(...(await resolvePermissions(gh, inputs.repo, settings.trust, [pull.author])));
      return counts('closing-reference', pull.author, settings.trust);
    },
    (file) => {
      settings = contextSettings(inputs, file);
    },
  );
  const isPull = snapshot.subject.kind === 'pull';
  const own = isPull ? [...snapshot.closes, snapshot.subject] : [snapshot.subject, ...snapshot.pulls];
  notes.push(
    ...(await resolvePermissions(
      gh,
      inputs.repo,
      settings.trust,
      taggedAuthors([...own, ...(snapshot.parent ? [snapshot.parent.item] : [])]),
    )),
  );
  const unreadable = [...snapshot.notes, ...snapshot.pullsUnread];
  if (snapshot.keywordOnly.length > 0)
    unreadable.push(
      `PR #${inputs.number} is by ${snapshot.subject.author.login ?? '(unknown)'} (${snapshot.subject.author.association}), who is not in trusted-authors: the issues its body closes by keyword (${snapshot.keywordOnly.map((k) => `${k.repository}#${k.number}`).join(', ')}) are not followed`,
    );
  if (isPull && snapshot.closingCount > 20)
    unreadable.push(`PR #${inputs.number} links ${snapshot.closingCount} issues: the first 20 are read`);
  const request = workItemRequest(snapshot, {
    rules: settings.rules,
    // Claims are judged by GitHub's clock (this run's first answer), as the dispatcher judges them.
    claims: { now: requestStats(gh).firstAnswerAt ?? now, ttlMs: settings.pipeline.pipeline.claimTtlMs },
    chain: settings.chain,
    stage: inputs.stage,
    budget: inputs.budget,
    trust: settings.trust,
    unreadable,
  });
  // A gist's owner is trusted as a comment author would be: by login, or by the role the same login shows in these threads.
  const roles = new Map<string, string>();
  for (const item of own.filter((i) => !i.foreign))
    for (const a of [item.author, ...item.comments.map((c) => c.author)]) if (a.login) roles.set(a.login.toLowerCase(), a.association);
  const ownerTrusted = (login: string) =>
    counts('comment', { login, association: roles.get(login.toLowerCase()) ?? 'NONE' }, settings.trust);
  const gists = inputs.gists
    ? await readGists(gist, gistsWanted(request), inputs.gistToken === null, ownerTrusted)
    : { texts: [], requests: 0 };
  // A gist the pack should quote and does not is the step's warning too, not only a line inside the pack.
  for (const g of gists.texts) if (g.error !== null) notes.push(`${g.type} gist ${g.url} (named in ${g.via}) was not read: ${g.error}`);
  const result = buildContext(request, gists.texts);
  // Only this reader sees a gist revised under a stage: say it where a person looks, since no route acts on it.
  for (const e of result.stages)
    if (e.gists === 'changed')
      notes.push(
        `${e.type}${e.domain ? ` (${e.domain})` : ''} ${e.url} was written against other gist files than the ones quoted now (a gist was revised, added or removed since): the gate and the dispatcher read no gists, so nothing runs it again; run its stage again to build on the gists as they are`,
      );
  return {
    snapshot,
    result,
    stalled: stalled(result, now, settings.stallAfterMs),
    settings,
    notes: [...notes, ...unreadable],
    gistRequests: gists.requests,
  };
}
