/**
 * The workflows a pipeline file maps its stages to: read from the default
 * branch (`GET contents`), checked to take the inputs the dispatcher passes
 * (`on.workflow_dispatch.inputs`), and started with a workflow_dispatch event
 * (`POST …/actions/workflows/{file}/dispatches`, which the workflow token may
 * make: `actions: write`; GitHub answers 204 and names no run).
 */
import YAML from 'yaml';
import { UsageError } from '../common/errors.js';
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api, ApiError } from './errors.js';

/** The inputs every dispatched stage workflow receives. */
export const DISPATCH_INPUTS: readonly string[] = ['issue-number', 'stage', 'claim'];

/** What is wrong with a workflow file as a dispatch target; null when it declares every input the dispatcher passes. */
export function workflowProblem(text: string): string | null {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    return `is not valid YAML (${(err as Error).message.split('\n')[0]})`;
  }
  const on = (doc as { on?: unknown } | null)?.on;
  const dispatch =
    typeof on === 'string'
      ? on === 'workflow_dispatch'
        ? {}
        : undefined
      : Array.isArray(on)
        ? on.includes('workflow_dispatch')
          ? {}
          : undefined
        : (on as Record<string, unknown> | null | undefined)?.workflow_dispatch;
  if (dispatch === undefined) return 'has no on.workflow_dispatch trigger';
  const inputs = Object.keys(((dispatch ?? {}) as { inputs?: Record<string, unknown> }).inputs ?? {});
  const missing = DISPATCH_INPUTS.filter((i) => !inputs.includes(i));
  return missing.length > 0
    ? `does not declare the input${missing.length > 1 ? 's' : ''} ${missing.join(', ')} under on.workflow_dispatch.inputs`
    : null;
}

/** Checks `.github/workflows/<file>` on the default branch; a UsageError naming the stage and the file when it cannot be dispatched. */
export async function checkWorkflow(gh: GitHub, r: Repo, stage: string, file: string): Promise<void> {
  const path = `.github/workflows/${file}`;
  let data: unknown;
  try {
    ({ data } = await api(`reading ${path}`, () => gh.rest.repos.getContent({ owner: r.owner, repo: r.repo, path })));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404)
      throw new UsageError(
        `chain: ${stage} runs ${file}, which the repository does not have (${path} on the default branch); nothing was written`,
      );
    throw err;
  }
  const f = data as { type?: string; encoding?: string; content?: string };
  if (Array.isArray(data) || f.type !== 'file' || f.encoding !== 'base64' || typeof f.content !== 'string')
    throw new UsageError(`chain: ${stage} runs ${file}, and ${path} is not a workflow file; nothing was written`);
  const problem = workflowProblem(Buffer.from(f.content, 'base64').toString('utf8'));
  if (problem) throw new UsageError(`chain: ${stage} runs ${file}, which ${problem}; nothing was written`);
}

/** Starts `file` on `ref` with `inputs`. */
export async function dispatchWorkflow(gh: GitHub, r: Repo, file: string, ref: string, inputs: Record<string, string>): Promise<void> {
  await api(`starting ${file}`, () =>
    gh.rest.actions.createWorkflowDispatch({ owner: r.owner, repo: r.repo, workflow_id: file, ref, inputs }),
  );
}
