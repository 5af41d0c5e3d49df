/**
 * Roles on this repository, for `trusted-authors: permission:write`. The
 * workflow token sees a private organisation member as `CONTRIBUTOR` (GitHub
 * shows membership only to those who may see it), so an association cannot
 * name them; their role on the repository can. Each login is asked once per
 * run, and only when the policy has a `permission:` entry and nothing else
 * already trusts the author.
 */
import { PERMISSIONS, unresolvedLogins, type Author, type Permission, type TrustPolicy } from '../common/trust.js';
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api, ApiError } from './errors.js';

/**
 * At most this many logins are asked per run: anyone can comment from many
 * accounts, and each costs a request. Past it, an author stays untrusted
 * (a note says so).
 */
export const MAX_PERMISSION_LOOKUPS = 50;

/** `role_name` when it is one of GitHub's five roles; a custom role counts as its base `permission`. */
function roleOf(data: { permission?: string; role_name?: string }): Permission | 'none' {
  const named = (data.role_name ?? '').toLowerCase();
  if ((PERMISSIONS as readonly string[]).includes(named)) return named as Permission;
  const base = (data.permission ?? '').toLowerCase();
  return (PERMISSIONS as readonly string[]).includes(base) ? (base as Permission) : 'none';
}

/**
 * One login's role on this repository, read once per run into `cache`:
 * 'none' when GitHub says they are no collaborator of any kind (404). Any
 * other failure is thrown: the caller decides what an unknown role means.
 */
export async function readRole(gh: GitHub, r: Repo, login: string, cache: Map<string, Permission | 'none'>): Promise<Permission | 'none'> {
  const key = login.toLowerCase();
  const known = cache.get(key);
  if (known !== undefined) return known;
  let role: Permission | 'none';
  try {
    const { data } = await api(`reading the role of ${login}`, () =>
      gh.rest.repos.getCollaboratorPermissionLevel({ ...r, username: login }),
    );
    role = roleOf(data as { permission?: string; role_name?: string });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    role = 'none';
  }
  cache.set(key, role);
  return role;
}

/**
 * Reads the role of every author the policy cannot decide about yet, into
 * `policy.permissions`. Returns notes for what could not be read; a login
 * left unread stays untrusted.
 */
export async function resolvePermissions(gh: GitHub, r: Repo, policy: TrustPolicy, authors: Iterable<Author>): Promise<string[]> {
  const logins = unresolvedLogins(policy, authors);
  if (logins.length === 0) return [];
  const notes: string[] = [];
  const asked = logins.slice(0, Math.max(0, MAX_PERMISSION_LOOKUPS - policy.permissions.size));
  if (asked.length < logins.length)
    notes.push(
      `trusted-authors has a permission: entry, but ${logins.length - asked.length} more author(s) than the ${MAX_PERMISSION_LOOKUPS} roles read per run wrote here: they count as untrusted`,
    );
  for (const login of asked) {
    try {
      const { data } = await api(`reading the role of ${login}`, () =>
        gh.rest.repos.getCollaboratorPermissionLevel({ ...r, username: login }),
      );
      policy.permissions.set(login, roleOf(data as { permission?: string; role_name?: string }));
    } catch (err) {
      // 404: not a collaborator of any kind (or no such user). Anything else: unknown, so untrusted.
      policy.permissions.set(login, 'none');
      if (!(err instanceof ApiError && err.status === 404))
        notes.push(
          `the role of ${login} on this repository could not be read (${err instanceof Error ? err.message : String(err)}): untrusted`,
        );
    }
  }
  return notes;
}
