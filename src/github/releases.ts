/**
 * Releases: the draft that holds a milestone's notes is listed, created and
 * updated here. Every update sends the tag again: GitHub may reset a draft's
 * tag to `untagged-…` when an edit leaves it out.
 */
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';
import { createOnce } from './create-once.js';

export interface ReleaseInfo {
  id: number;
  draft: boolean;
  name: string | null;
  tag: string;
  body: string | null;
  url: string;
  /** The files uploaded to it (a CI's build artefacts): a draft holding any is never deleted. */
  assets: number;
}

const toRelease = (r: {
  id: number;
  draft: boolean;
  name: string | null;
  tag_name: string;
  body?: string | null;
  html_url: string;
  assets?: unknown[];
}): ReleaseInfo => ({
  id: r.id,
  draft: r.draft,
  name: r.name,
  tag: r.tag_name,
  body: r.body ?? null,
  url: r.html_url,
  assets: r.assets?.length ?? 0,
});

/** Every release of the repository, drafts included (the token must be able to push to see drafts). */
export async function listReleases(gh: GitHub, r: Repo): Promise<ReleaseInfo[]> {
  const all = await api('listing the releases', () => gh.paginate(gh.rest.repos.listReleases, { ...r, per_page: 100 }));
  return all.map(toRelease);
}

/** Create a draft release; a lost answer is read back before anything is sent again (create-once.ts). */
export async function createDraftRelease(gh: GitHub, r: Repo, tag: string, name: string, body: string): Promise<ReleaseInfo> {
  return createOnce(
    'creating the draft release',
    async (once) => toRelease((await gh.rest.repos.createRelease({ ...r, tag_name: tag, name, body, draft: true, ...once })).data),
    async () => (await listReleases(gh, r)).find((x) => x.draft && x.name === name && x.body === body) ?? null,
  );
}

export async function updateDraftRelease(gh: GitHub, r: Repo, id: number, tag: string, body: string): Promise<ReleaseInfo> {
  const { data } = await api(`updating draft release ${id}`, () =>
    gh.rest.repos.updateRelease({ ...r, release_id: id, tag_name: tag, body, draft: true }),
  );
  return toRelease(data);
}

/** Delete a release (a draft this action made twice, which holds nothing of anyone else's). */
export async function deleteRelease(gh: GitHub, r: Repo, id: number): Promise<void> {
  await api(`deleting draft release ${id}`, () => gh.rest.repos.deleteRelease({ ...r, release_id: id }));
}
