import { UsageError } from '../common/lists.js';

export interface Repo {
  owner: string;
  repo: string;
}

export function parseRepository(text: string | undefined): Repo {
  const t = (text ?? '').trim();
  const m = /^([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100})$/.exec(t);
  if (!m) throw new UsageError(`repository: "${t}" is not of the form owner/name`);
  return { owner: m[1], repo: m[2] };
}

export function repoName(r: Repo): string {
  return `${r.owner}/${r.repo}`;
}
