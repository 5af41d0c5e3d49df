/**
 * Workflow runs, as GitHub reports them: a stage run's status (queued, in
 * progress, completed with its conclusion), read to know whether the claim
 * that started it still holds; and the runs of a workflow created since a
 * moment, read back when a dispatch's answer was lost.
 */
import type { Repo } from '../common/repo.js';
import type { RunState } from '../common/work-item.js';
import type { GitHub } from './client.js';
import { api, ApiError } from './errors.js';

interface RunJson {
  id: number;
  status?: string | null;
  conclusion?: string | null;
  html_url?: string;
  created_at?: string;
  triggering_actor?: { login?: string } | null;
  actor?: { login?: string } | null;
}

const stateOf = (x: RunJson): RunState => ({
  id: x.id,
  status: x.status ?? 'unknown',
  conclusion: x.conclusion ?? null,
  url: x.html_url ?? '',
});

/** One run's state; null when GitHub no longer has it (deleted: 404), so the claim's ttl decides. */
export async function readRun(gh: GitHub, r: Repo, id: number): Promise<RunState | null> {
  try {
    const { data } = await api(`reading run ${id}`, () => gh.rest.actions.getWorkflowRun({ owner: r.owner, repo: r.repo, run_id: id }));
    return stateOf(data as RunJson);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * The workflow's workflow_dispatch runs created at or after `since` (ISO time), with who started each. GitHub lists
 * runs newest first, so the first page holds them (the `created` filter's range syntax is not in GitHub's
 * published description of the parameter, so the time is compared here).
 */
export async function runsSince(gh: GitHub, r: Repo, file: string, since: string): Promise<Array<RunState & { actor: string | null }>> {
  const { data } = await api(`reading the runs of ${file}`, () =>
    gh.rest.actions.listWorkflowRuns({ owner: r.owner, repo: r.repo, workflow_id: file, event: 'workflow_dispatch', per_page: 30 }),
  );
  return (data.workflow_runs as RunJson[])
    .filter((x) => Date.parse(x.created_at ?? '') >= Date.parse(since))
    .map((x) => ({ ...stateOf(x), actor: x.triggering_actor?.login ?? x.actor?.login ?? null }));
}
