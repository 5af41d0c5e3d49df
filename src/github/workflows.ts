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
import { createOnce } from './create-once.js';
import { api, ApiError } from './errors.js';
import { runsSince } from './runs.js';

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
  // A disabled workflow takes no dispatch (GitHub refuses it): say so before a claim is written.
  const { data: wf } = await api(`reading the state of ${file}`, () =>
    gh.rest.actions.getWorkflow({ owner: r.owner, repo: r.repo, workflow_id: file }),
  );
  if (wf.state !== 'active')
    throw new UsageError(
      `chain: ${stage} runs ${file}, which GitHub has ${STATE_WORDS[wf.state] ?? wf.state}: enable it (the Actions tab, the workflow, Enable workflow) or map the stage to another; nothing was written`,
    );
}

/** What GitHub's workflow states say, for the error line. */
const STATE_WORDS: Readonly<Record<string, string>> = {
  disabled_manually: 'disabled (by hand)',
  disabled_inactivity: 'disabled after 60 days without activity in the repository',
  disabled_fork: 'disabled in this fork',
  deleted: 'deleted',
};

/** The stage run a dispatch started, as GitHub names it; all null when GitHub did not say (an older Enterprise Server). */
export interface StartedRun {
  id: number | null;
  url: string | null;
}

const NO_RUN: StartedRun = { id: null, url: null };

/** An older GitHub Enterprise Server refuses the `return_run_details` parameter (400 or 422 naming it). */
function refusesRunDetails(err: unknown): boolean {
  const e = err as { status?: number; message?: string; response?: { data?: { message?: string } } };
  const said = `${e.message ?? ''} ${e.response?.data?.message ?? ''}`;
  return (e.status === 400 || e.status === 422) && /return_run_details/i.test(said);
}

/**
 * Starts `file` on `ref` with `inputs`, once: the client never retries it
 * blindly (a lost answer may come after GitHub started the run). GitHub names
 * the run it started (`return_run_details`, since 2026-02); an older
 * Enterprise Server refuses the parameter and is asked without it. A lost
 * answer is read back from the workflow's runs created since `since` by the
 * token's identity (`mine`) before anything is sent again.
 */
export async function dispatchWorkflow(
  gh: GitHub,
  r: Repo,
  file: string,
  ref: string,
  inputs: Record<string, string>,
  readBack: { since: string; mine: (login: string | null) => boolean; taken: ReadonlySet<number> },
  log: (line: string) => void = () => undefined,
): Promise<StartedRun> {
  const base = { owner: r.owner, repo: r.repo, workflow_id: file, ref, inputs };
  const landed = async (): Promise<StartedRun | null> => {
    const runs = await runsSince(gh, r, file, readBack.since);
    const ours = runs.filter((x) => readBack.mine(x.actor) && !readBack.taken.has(x.id)).sort((a, b) => a.id - b.id)[0];
    return ours ? { id: ours.id, url: ours.url } : null;
  };
  return createOnce(
    `starting ${file}`,
    async (once) => {
      try {
        const { data } = await gh.rest.actions.createWorkflowDispatch({ ...base, return_run_details: true, ...once });
        const d = (data ?? {}) as { workflow_run_id?: number; html_url?: string };
        return typeof d.workflow_run_id === 'number' ? { id: d.workflow_run_id, url: d.html_url ?? null } : NO_RUN;
      } catch (err) {
        if (!refusesRunDetails(err)) throw err;
        log(
          `${file}: GitHub does not name the run it starts here (it refused return_run_details): the claim's ttl decides how long it holds`,
        );
        await gh.rest.actions.createWorkflowDispatch({ ...base, ...once });
        return NO_RUN;
      }
    },
    landed,
    log,
  );
}
