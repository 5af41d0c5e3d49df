/**
 * The pipeline file as GitHub holds it on the default branch. The field below
 * is asked inside a query an action sends anyway (the reader's, the gate's),
 * so it costs no request of its own: `HEAD` in an object expression is the
 * repository's default branch, so a PR's branch cannot change the rules it is
 * judged by. `readPipelineFile` asks for it alone, for a run whose first read
 * is not GraphQL.
 */
import { parsePipelineFile, PIPELINE_PATH, type PipelineFile } from '../common/pipeline.js';
import { UsageError } from '../common/errors.js';
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';

/** The field to put under `repository(…)`: the file's text, when it is a text blob on the default branch. */
export const PIPELINE_FIELD = `pipelineFile: object(expression: "HEAD:${PIPELINE_PATH}") { __typename ... on Blob { text isBinary isTruncated } }`;

export type PipelineNode = { __typename: string; text?: string | null; isBinary?: boolean | null; isTruncated?: boolean | null } | null;

/** What the default branch holds: the file parsed (errors name its line and key), or null when there is none. */
export function pipelineFromNode(
  node: PipelineNode | undefined,
  branch: string | null = null,
): { file: PipelineFile; source: string } | null {
  if (node === null || node === undefined) return null;
  const where = `${PIPELINE_PATH}${branch ? ` on ${branch}` : ' on the default branch'}`;
  if (node.__typename !== 'Blob') throw new UsageError(`${where} is a ${node.__typename.toLowerCase()}, not a file`);
  if (node.isBinary || node.isTruncated || typeof node.text !== 'string')
    throw new UsageError(`${where} could not be read as text (binary or too large): keep it a small YAML file`);
  return { file: parsePipelineFile(node.text, PIPELINE_PATH), source: where };
}

const QUERY = `query ForgePipeline($owner: String!, $repo: String!) {
  repository(owner: $owner, name: $repo) { defaultBranchRef { name } ${PIPELINE_FIELD} }
}`;

type Answer = { repository: { defaultBranchRef: { name: string } | null; pipelineFile: PipelineNode } | null };

/** The pipeline file alone, in one request (for a run whose first read is not GraphQL). */
export async function readPipelineFile(gh: GitHub, r: Repo): Promise<{ file: PipelineFile; source: string } | null> {
  const data = await api(`reading ${PIPELINE_PATH}`, () => gh.graphql<Answer>(QUERY, { owner: r.owner, repo: r.repo }));
  return pipelineFromNode(data.repository?.pipelineFile, data.repository?.defaultBranchRef?.name ?? null);
}
