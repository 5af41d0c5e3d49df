import { quote } from '../codec/index.js';
import { UsageError } from './errors.js';

export interface Repo {
  owner: string;
  repo: string;
}

export function parseRepository(text: string | undefined): Repo {
  const t = (text ?? '').trim();
  if (t === '')
    throw new UsageError(
      'repository is not set: set the "repository" input to owner/name (outside GitHub Actions GITHUB_REPOSITORY is not there to default to)',
    );
  const m = /^([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100})$/.exec(t);
  // `.` and `..` are no names GitHub gives, and in a URL path they climb: `../..` would turn
  // GET /repos/{owner}/{repo}/issues into GET /issues.
  if (!m || /^\.+$/.test(m[1]) || /^\.+$/.test(m[2])) throw new UsageError(`repository: ${quote(t)} is not of the form owner/name`);
  return { owner: m[1], repo: m[2] };
}

export function repoName(r: Repo): string {
  return `${r.owner}/${r.repo}`;
}
