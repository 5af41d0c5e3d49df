/**
 * forge-dispatch's inputs, parsed and checked into one typed value before any
 * API call: which work items (the event's, a number, or every open issue of
 * the repository), whether to write, and whose annotations count.
 */
import { UsageError } from '../common/errors.js';
import { bool, COMMON_INPUTS, oneOf, readInputs, resolveCommon, type Getter } from '../common/inputs.js';
import type { EventInfo } from '../common/event.js';
import type { Repo } from '../common/repo.js';
import type { TrustPolicy } from '../common/trust.js';

export type DispatchScope = 'item' | 'repository';

export interface DispatchInputs {
  token: string;
  repo: Repo;
  scope: DispatchScope;
  /** The work item (scope item); null for the repository. */
  number: number | null;
  dryRun: boolean;
  /** scope repository: keep the pipeline board issue current. */
  board: boolean;
  /** trusted-authors as given; null when empty (the pipeline file decides). */
  trust: TrustPolicy | null;
  /** This run's page: the Holder of the claims it writes. */
  runUrl: string;
}

export const SCHEMA = {
  ...COMMON_INPUTS,
  scope: { input: 'scope', parse: oneOf(['item', 'repository'] as const, 'item') },
  dryRun: { input: 'dry-run', parse: bool(false) },
  board: { input: 'board', parse: bool(true) },
};

/** GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID[/attempts/N]: the holder a claim names. */
export function runUrl(env: NodeJS.ProcessEnv = process.env): string {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: id, GITHUB_RUN_ATTEMPT: attempt } = env;
  if (!server || !repository || !id) return 'a run outside GitHub Actions';
  return `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${id}${attempt ? `/attempts/${attempt}` : ''}`;
}

export function readDispatchInputs(get: Getter, event: EventInfo): DispatchInputs {
  const raw = readInputs(SCHEMA, get);
  const common = resolveCommon(raw, event);
  const number = raw.scope === 'repository' ? null : (common.issueNumber ?? common.subject.issue ?? common.subject.pull);
  if (raw.scope === 'repository' && raw.issueNumber !== null)
    throw new UsageError('issue-number: only with scope: item (scope is repository)');
  if (raw.scope === 'item' && number === null)
    throw new UsageError(
      `issue-number is not set and the "${event.name}" event carries no issue or pull request: set issue-number, or scope: repository`,
    );
  return {
    token: common.token,
    repo: common.repo,
    scope: raw.scope,
    number,
    dryRun: raw.dryRun,
    // The board is of every open item: only a repository sweep writes it.
    board: raw.board && raw.scope === 'repository',
    trust: common.trustInput,
    runUrl: runUrl(),
  };
}
