/**
 * Looking up every referenced gist once: the gist-token user's own from the
 * gists listing (which carries `public`), the rest a few at a time; index
 * gists are read in full and what their files list is looked up one level
 * down. A refusal (rate limit, an App token) stops the lookup: an audit that
 * could not finish is never a pass. Gist contents are never logged.
 */
import { httpStatus } from '../../common/errors.js';
import { mapLimit, READ_CONCURRENCY } from '../../common/concurrency.js';
import { trustOfSource } from '../../common/trust.js';
import type { GitHub } from '../../github/client.js';
import { describeApiError } from '../../github/errors.js';
import { getGistRaw, ownGistsAmong, type GistInfo } from '../../github/gists.js';
import { gistUrlsInText } from '../../common/gist-urls.js';
import type { Reference } from './collect.js';

export type GistState = { kind: 'found'; gist: GistInfo } | { kind: 'missing' };

export interface Lookup {
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

export type Fetched = { kind: 'state'; state: GistState } | { kind: 'refused'; err: unknown };

export async function fetchGist(gists: GitHub, id: string): Promise<Fetched> {
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
export async function lookUp(
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
