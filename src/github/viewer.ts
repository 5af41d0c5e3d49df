/**
 * The token's own login, as GraphQL's `viewer` names it. REST's GET /user
 * refuses an App installation token (the workflow's GITHUB_TOKEN, an agents'
 * App); `viewer` answers both kinds, a bot with its `[bot]` login. The
 * dispatcher asks it to know its own claims and board whatever
 * trusted-authors says. A repository sweep asks it in its first page at no
 * extra request; a single item asks it only when it has to (one request).
 */
import type { GitHub } from './client.js';
import { api } from './errors.js';

export const VIEWER_QUERY = 'query ForgeViewer { viewer { login } }';

export async function readViewer(gh: GitHub): Promise<string | null> {
  const data = await api("reading the token's own login", () => gh.graphql<{ viewer?: { login?: string } | null }>(VIEWER_QUERY));
  return data.viewer?.login ?? null;
}
