/**
 * docs/run-a-pipeline.md end to end, from the bundles against the loopback
 * GitHub, with the workflows of examples/workflows/ run as written (their
 * `if:`, `with:` and `env:` evaluated by GitHub's expression engine): the
 * dispatcher on a schedule and on issue events, three stage workflows with
 * scripted agents, the merge, the trajectory and the release notes. The
 * failure paths are in e2e-run-a-pipeline-failures.test.ts (the same harness).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Issue } from './support/github-server.js';
import { gh, PAGE, Pipeline, stepOf, usePipelineGitHub } from './support/pipeline-harness.js';
import { ROOT } from './support/run-action.js';
import { investigator, trajectory } from './support/seed.js';

usePipelineGitHub();

test('the page and the example files are one copy: the pipeline file and every workflow it names', () => {
  const page = PAGE();
  const blocks = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks).toContain(readFileSync(join(ROOT, 'examples', 'forge.yml'), 'utf8'));
  for (const name of ['investigate.yml', 'build.yml', 'review.yml', 'forge-dispatch.yml'])
    expect(page).toContain(`examples/workflows/${name}`);
});

describe('a pipeline run from the docs, as written', () => {
  test('issue opened → investigate → build (stops half-way, re-dispatched) → review → merge → trajectory → release notes', async () => {
    const p = new Pipeline();
    const milestone = gh.milestone(p.repo, { title: 'v1.1' });
    const issue = p.issue('Checkout fails', milestone.number);
    p.agents.BUILDER.push('stop');

    await p.opened(issue);
    await p.settle();
    // INVESTIGATOR ran and handed on at once: BUILDER was claimed and stopped half-way (a partial). GitHub says that run
    // completed, so its claim ended: the next dispatcher (the label event) started BUILDER again, which handed on to
    // REVIEWER — no schedule tick anywhere.
    expect(p.r.dispatches.map((d) => [d.workflow, d.inputs.stage])).toEqual([
      ['investigate.yml', 'INVESTIGATOR'],
      ['build.yml', 'BUILDER'],
      ['build.yml', 'BUILDER'],
      ['review.yml', 'REVIEWER'],
    ]);
    const types = p.types(issue.number);
    expect(types.slice(0, 4)).toEqual(['CLAIM:complete', 'INVESTIGATOR:complete', 'CLAIM:complete', 'CLAIM:complete']);
    expect(types).toContain('BUILDER:complete');
    // The completion removed the partial the first build left (§3.3).
    expect(types).not.toContain('BUILDER:partial');
    const stopped = p.ran.find((x) => x.workflow === 'build.yml')?.steps ?? [];
    expect(stepOf(stopped, /did not finish/).map((s) => s.outcome)).toEqual(['success']);
    // Each stage's run named in its claim, and the first build's run ended failed.
    expect(p.r.runs.map((x) => [x.workflow, x.conclusion])).toEqual([
      ['investigate.yml', 'success'],
      ['build.yml', 'failure'],
      ['build.yml', 'success'],
      ['review.yml', 'success'],
    ]);
    expect(p.boardRow(issue.number)).toBe('');
    await p.schedule();
    expect(p.boardRow(issue.number)).toMatch(/\| none \|/);
    const pr = p.pullOf(issue.number) as Issue;
    expect(pr).toBeDefined();
    // The REVIEWER is on the PR, naming the commit the agent reviewed; the gate's status on it is green.
    const review = gh.commentsOn(p.repo, pr.number).find((c) => c.body.includes('<!-- FORGE:REVIEWER -->'));
    expect(review?.body).toContain(`**Commit**: ${pr.pull?.sha}`);
    expect(gh.statusesOn(p.repo, pr.pull?.sha ?? '').at(-1)?.state).toBe('success');
    expect(p.types(issue.number)).toContain('TRAJECTORY:complete');
    // Nothing more to start: the next sweep dispatches nothing, and the board says the item is done.
    const before = p.r.dispatches.length;
    await p.schedule();
    expect(p.r.dispatches).toHaveLength(before);
    expect(p.boardRow(issue.number)).toMatch(/\| none \|/);

    // The merge closes the issue; the release notes workflow (its draft job, the one that runs by default) writes the entry.
    const notes = await p.merge(issue);
    expect(notes.filter((s) => s.outcome !== 'skipped').map((s) => s.job)).toEqual(['draft']);
    const draft = p.r.releases.find((x) => x.draft);
    expect(draft?.body).toContain(`#${issue.number}`);
    expect(draft?.name).toBe('v1.1');
    // A closed issue leaves the board.
    await p.schedule();
    expect(p.boardRow(issue.number)).toBe('');
  });

  test('a changes-requested round runs by events alone: review → build → review, with no schedule tick', async () => {
    const p = new Pipeline();
    const issue = p.issue('Refund rounds down');
    p.agents.REVIEWER.push('changes');
    await p.opened(issue);
    await p.settle();
    expect(p.r.dispatches.map((d) => d.inputs.stage)).toEqual(['INVESTIGATOR', 'BUILDER', 'REVIEWER', 'BUILDER', 'REVIEWER']);
    const pr = p.pullOf(issue.number) as Issue;
    const reviews = gh.commentsOn(p.repo, pr.number).filter((c) => c.body.includes('<!-- FORGE:REVIEWER -->'));
    expect(reviews.map((c) => /CHANGES_REQUESTED|APPROVED/.exec(c.body)?.[0])).toEqual(['CHANGES_REQUESTED', 'APPROVED']);
    expect(gh.statusesOn(p.repo, pr.pull?.sha ?? '').at(-1)?.state).toBe('success');
    expect(p.types(issue.number)).toContain('TRAJECTORY:complete');
  });
});

test("the release-notes example's file job, switched on by its variable: the milestone's notes committed and pushed, the draft kept too", async () => {
  const p = new Pipeline();
  const milestone = gh.milestone(p.repo, { title: 'v2.0' });
  const issue = gh.issue(p.repo, { title: 'Done', state: 'closed', milestone: milestone.number });
  gh.comment(p.repo, issue.number, 'forge-agent[bot]', investigator());
  gh.comment(p.repo, issue.number, 'forge-agent[bot]', trajectory(300));
  // The repository as the job checks it out: a clone of a bare origin on main.
  const root = mkdtempSync(join(tmpdir(), 'forge-notes-'));
  const origin = join(root, 'origin.git');
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = join(root, 'seed');
  git(root, 'clone', '-q', origin, seed);
  writeFileSync(join(seed, 'README.md'), 'x\n');
  git(seed, 'add', 'README.md');
  git(seed, 'commit', '-q', '-m', 'init');
  git(seed, 'push', '-q', 'origin', 'HEAD:main');
  let n = 0;
  const checkout = () => {
    const work = join(root, `work${++n}`);
    git(root, 'clone', '-q', '-b', 'main', origin, work);
    return work;
  };
  const event = {
    name: 'issues',
    payload: {
      action: 'closed',
      issue: { number: issue.number, milestone: { number: milestone.number, title: milestone.title } },
      repository: { full_name: p.repo, default_branch: 'main' },
    },
  };
  const steps = await p.run('forge-release-notes.yml', event, undefined, { vars: { FORGE_RELEASE_NOTES_FILE: 'true' }, checkout });
  expect(steps.filter((s) => s.outcome === 'failure')).toEqual([]);
  expect([...new Set(steps.filter((s) => s.outcome !== 'skipped').map((s) => s.job))]).toEqual(['draft', 'file']);
  const notes = git(origin, 'show', 'main:RELEASE_NOTES.md');
  expect(notes).toContain(`#${issue.number}`);
  expect(git(origin, 'log', '-1', '--format=%s', 'main')).toBe('Release notes for v2.0\n');
  expect(p.r.releases.find((x) => x.draft)?.body).toContain(`#${issue.number}`);
  // Run again: nothing new, nothing committed.
  await p.run('forge-release-notes.yml', event, undefined, { vars: { FORGE_RELEASE_NOTES_FILE: 'true' }, checkout });
  expect(git(origin, 'rev-list', '--count', 'main')).toBe('2\n');
});
