/**
 * A stand-in for peter-evans/find-comment's step, written here (not copied) to
 * compare cold starts: read inputs, make an Octokit with @actions/github, walk
 * the issue's comments page by page, set outputs. bench:api bundles it with
 * ncc and runs it like our bundles, so both pay the same process start,
 * module loading and requests.
 */
import * as core from '@actions/core';
import { getOctokit } from '@actions/github';

async function run(): Promise<void> {
  const [owner, repo] = (core.getInput('repository') || process.env.GITHUB_REPOSITORY || '').split('/');
  const octokit = getOctokit(core.getInput('token'));
  const needle = core.getInput('body-includes');
  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
    owner,
    repo,
    issue_number: Number(core.getInput('issue-number')),
    per_page: 100,
  })) {
    const hit = page.data.find((c) => (c.body ?? '').includes(needle));
    if (hit) {
      core.setOutput('comment-id', String(hit.id));
      return;
    }
  }
  core.setOutput('comment-id', '');
}

run().catch((e) => core.setFailed(e instanceof Error ? e.message : String(e)));
