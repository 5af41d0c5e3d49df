/**
 * Gist endpoints. They refuse GitHub App installation tokens (the workflow's
 * GITHUB_TOKEN), so callers pass a client made from a user token, or an
 * anonymous one (60 requests an hour).
 */
import { requestStats, type GitHub } from './client.js';
import { createOnce } from './create-once.js';
import { api } from './errors.js';
import { lastPage } from './reads.js';

export interface GistFile {
  filename: string;
  content: string | null;
  truncated: boolean;
  rawUrl: string | null;
}

export interface GistInfo {
  id: string;
  url: string;
  public: boolean;
  description: string | null;
  owner: string | null;
  files: GistFile[];
  /** The API lists at most 300 files and then sets `truncated`: a copy would lose the rest. */
  truncated: boolean;
  /** When GitHub made it (null when the answer did not say). */
  createdAt: string | null;
}

type RawGist = {
  id?: string;
  html_url?: string;
  public?: boolean;
  description?: string | null;
  owner?: { login?: string } | null;
  files?: Record<string, { filename?: string; content?: string; truncated?: boolean; raw_url?: string } | null>;
  truncated?: boolean;
  created_at?: string;
};

function toGist(g: RawGist): GistInfo {
  return {
    id: g.id ?? '',
    url: g.html_url ?? '',
    public: g.public === true,
    description: g.description ?? null,
    owner: g.owner?.login ?? null,
    createdAt: g.created_at ?? null,
    truncated: g.truncated === true,
    files: Object.entries(g.files ?? {}).map(([name, f]) => ({
      filename: f?.filename ?? name,
      content: typeof f?.content === 'string' ? f.content : null,
      truncated: f?.truncated === true,
      rawUrl: f?.raw_url ?? null,
    })),
  };
}

/** Raw call: errors are left to the caller, which tells a 404 (dangling) from a refusal. */
export async function getGistRaw(gh: GitHub, id: string): Promise<GistInfo> {
  const { data } = await gh.rest.gists.get({ gist_id: id });
  return toGist(data as RawGist);
}

export async function createSecretGist(gh: GitHub, description: string | null, files: GistFile[]): Promise<GistInfo> {
  // fromEntries defines own properties, so even a file named __proto__ is kept as a file.
  const payload = Object.fromEntries(files.map((f) => [f.filename, { content: f.content ?? '' }]));
  const names = files
    .map((f) => f.filename)
    .sort()
    .join('\n');
  // A lost answer is read back: a secret gist of the token's user with this description and these files is the copy.
  return createOnce(
    'creating the secret copy',
    async (once) =>
      toGist(
        (await gh.rest.gists.create({ description: description ?? undefined, public: false, files: payload, ...once })).data as RawGist,
      ),
    async () =>
      (await listOwnGists(gh)).find(
        (g) =>
          !g.public &&
          // Made by this run (GitHub's clock: not before the run's first answer), not an older copy of the same files.
          Date.parse(g.createdAt ?? '') >= (requestStats(gh).firstAnswerAt ?? 0) &&
          (g.description ?? null) === (description ?? null) &&
          g.files
            .map((f) => f.filename)
            .sort()
            .join('\n') === names,
      ) ?? null,
  );
}

export async function deleteGist(gh: GitHub, id: string): Promise<void> {
  await api(`deleting gist ${id}`, () => gh.rest.gists.delete({ gist_id: id }));
}

/** Every gist of the token's user, secret ones included (files without their content). */
export async function listOwnGists(gh: GitHub): Promise<GistInfo[]> {
  const all = await api("listing the gist-token user's gists", () => gh.paginate(gh.rest.gists.list, { per_page: 100 }));
  return all.map((g) => toGist(g as RawGist));
}

/**
 * The token user's gists among `wanted`, from `GET /gists` (100 a page, each
 * with its visibility) — but only while listing stays cheaper than asking for
 * the unresolved ones one by one: after the first page, the rest is listed only
 * when it has fewer pages than there are gists still unknown.
 */
export async function ownGistsAmong(gh: GitHub, wanted: ReadonlySet<string>): Promise<Map<string, GistInfo>> {
  const found = new Map<string, GistInfo>();
  await api("listing the gist-token user's gists", async () => {
    let page = 0;
    for await (const res of gh.paginate.iterator(gh.rest.gists.list, { per_page: 100 })) {
      page++;
      for (const g of res.data) if (g.id && wanted.has(g.id)) found.set(g.id, toGist(g as RawGist));
      const left = wanted.size - found.size;
      if (left === 0) break;
      const last = lastPage(res.headers.link) ?? page;
      if (page === 1 && last - page >= left) break;
    }
  });
  return found;
}

export async function authenticatedLogin(gh: GitHub): Promise<string> {
  const { data } = await api('reading the gist-token user', () => gh.rest.users.getAuthenticated());
  return data.login;
}

export async function updateGistFile(gh: GitHub, id: string, filename: string, content: string): Promise<void> {
  await api(`editing file ${filename} of gist ${id}`, () => gh.rest.gists.update({ gist_id: id, files: { [filename]: { content } } }));
}
