/**
 * The pipeline file as GitHub holds it on the default branch. The GraphQL
 * field below is asked inside a query an action sends anyway (the reader's,
 * the gate's), so it costs no request of its own: `HEAD` in an object
 * expression is the repository's default branch, so a PR's branch cannot
 * change the rules it is judged by. `readPipelineFile` asks for it alone, by
 * REST (the contents endpoint reads the default branch when no ref is given),
 * for a run whose first read is not that query or when GraphQL failed.
 */
import { parsePipelineFile, PIPELINE_PATH, pipelineLine, trustOfAnswer, type PipelineAnswer } from '../common/pipeline.js';
import type { TrustPolicy } from '../common/trust.js';
import { UsageError } from '../common/errors.js';
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api, ApiError } from './errors.js';

/** The field to put under `repository(…)`: the file's text, when it is a text blob on the default branch. */
export const PIPELINE_FIELD = `pipelineFile: object(expression: "HEAD:${PIPELINE_PATH}") { __typename ... on Blob { text isBinary isTruncated } }`;

export type PipelineNode = { __typename: string; text?: string | null; isBinary?: boolean | null; isTruncated?: boolean | null } | null;

function where(branch: string | null): string {
  return `${PIPELINE_PATH}${branch ? ` on ${branch}` : ' on the default branch'}`;
}

/** What the default branch holds: the file parsed (errors name its line and key), or null when there is none. */
export function pipelineFromNode(node: PipelineNode | undefined, branch: string | null = null): PipelineAnswer {
  if (node === null || node === undefined) return null;
  if (node.__typename !== 'Blob') throw new UsageError(`${where(branch)} is a ${node.__typename.toLowerCase()}, not a file`);
  if (node.isBinary || node.isTruncated || typeof node.text !== 'string')
    throw new UsageError(`${where(branch)} could not be read as text (binary or too large): keep it a small YAML file`);
  return { file: parsePipelineFile(node.text, PIPELINE_PATH), source: where(branch) };
}

/** The pipeline file alone, in one REST request; null when the default branch has none. */
export async function readPipelineFile(gh: GitHub, r: Repo): Promise<PipelineAnswer> {
  let data: unknown;
  try {
    ({ data } = await api(`reading ${PIPELINE_PATH}`, () =>
      gh.rest.repos.getContent({ owner: r.owner, repo: r.repo, path: PIPELINE_PATH }),
    ));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
  const file = data as { type?: string; encoding?: string; content?: string };
  if (Array.isArray(data) || file.type !== 'file') throw new UsageError(`${where(null)} is not a file`);
  if (file.encoding !== 'base64' || typeof file.content !== 'string')
    throw new UsageError(`${where(null)} could not be read as text (too large): keep it a small YAML file`);
  return { file: parsePipelineFile(Buffer.from(file.content, 'base64').toString('utf8'), PIPELINE_PATH), source: where(null) };
}

/**
 * Who is trusted for an action whose only setting the pipeline file holds is
 * trusted-authors: the input when given (no request), else the file's, else the
 * built-in default (one request). `log` says which.
 */
export async function pipelineTrust(gh: GitHub, r: Repo, given: TrustPolicy | null, log: (line: string) => void): Promise<TrustPolicy> {
  if (given !== null) return given;
  const answer = await readPipelineFile(gh, r);
  log(pipelineLine(answer?.source ?? null));
  return trustOfAnswer(answer);
}
