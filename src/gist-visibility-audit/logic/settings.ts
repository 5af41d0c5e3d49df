/**
 * What an audit is run with: the clients and repository (AuditContext) and
 * what it may do (AuditOptions). Apart from audit.ts, so remediate.ts reads
 * them without importing the file that imports it.
 */
import type { Repo } from '../../common/repo.js';
import type { GitHub } from '../../github/client.js';
import type { GistInfo } from '../../github/gists.js';

export interface AuditOptions {
  remediate: boolean;
  dryRun: boolean;
  label: string | null;
  anonymous: boolean;
  /** The gist-token user's gists, when the collection already listed them. */
  ownGists?: readonly GistInfo[] | null;
  /** The GitHub the run is on (GITHUB_SERVER_URL): a gist of another host is reported as not checked. */
  serverUrl?: string;
}

/** The clients and repository an audit works with. */
export interface AuditContext {
  gh: GitHub;
  /** The gist-token client (or an anonymous one). */
  gists: GitHub;
  repo: Repo;
  log: (s: string) => void;
}
