/**
 * docs/run-a-pipeline.md end to end, from the bundles against the loopback
 * GitHub, with the workflows of examples/workflows/ run as written (their
 * `if:`, `with:` and `env:` evaluated by GitHub's expression engine): the
 * dispatcher on a schedule and on issue events, three stage workflows with
 * scripted agents, the merge, the trajectory and the release notes. GitHub's
 * part is played here: a workflow_dispatch starts the workflow it names; a
 * label the agent's App moves (never one the workflow token moves) or an
 * issue opened starts the dispatcher; a close starts the release notes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from '../src/codec/index.js';
import { investigator, trajectory } from './support/seed.js';
import type { FakeGitHub, Issue } from './support/github-server.js';
import { ROOT } from './support/run-action.js';
import { useFakeGitHub } from './support/use-fake-github.js';
import { parseWorkflow, runWorkflow, type RunStepResult, type Step, type StepRecord } from './support/workflow-runner.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
  gh.token('ghs_agent', 'forge-agent[bot]', 'app');
});

const example = (name: string) => readFileSync(join(ROOT, 'examples', 'workflows', name), 'utf8');
const PAGE = () => readFileSync(join(ROOT, 'docs', 'run-a-pipeline.md'), 'utf8');

/** What an agent does on its next run: finish, or stop half-way (exit 1, nothing written). */
/** ok: the stage's happy path; stop: the agent fails half-way; changes: a reviewer requests changes. */
type Behaviour = 'ok' | 'stop' | 'changes';

class Pipeline {
  readonly repo: string;
  /** Each stage's scripted behaviours, taken one per run; 'ok' when none is left. */
  readonly agents: Record<string, Behaviour[]> = { INVESTIGATOR: [], BUILDER: [], REVIEWER: [] };
  /** Dispatches that start no run (the runner died before the job wrote anything). */
  dropNext = 0;
  readonly ran: Array<{ workflow: string; steps: StepRecord[] }> = [];
  /** What the workflows' own scripts printed. */
  readonly said: string[] = [];
  private dispatchesSeen = 0;
  private requestsSeen = 0;
  private runId = 5000;
  static count = 0;

  constructor(file = readFileSync(join(ROOT, 'examples', 'forge.yml'), 'utf8')) {
    this.repo = `octo/run${++Pipeline.count}`;
    const r = gh.repo(this.repo, { 'octo-owner': 'OWNER', maintainer: 'MEMBER', 'forge-agent[bot]': 'NONE', 'drive-by': 'NONE' });
    r.files.set('.github/forge.yml', file);
    for (const name of ['investigate.yml', 'build.yml', 'review.yml', 'forge-dispatch.yml', 'forge-release-notes.yml'])
      r.files.set(`.github/workflows/${name}`, example(name));
    this.requestsSeen = gh.requests.length;
  }

  get r() {
    return gh.repo(this.repo);
  }

  issue(title: string, milestone?: number): Issue {
    return gh.issue(this.repo, { user: 'maintainer', title, body: `${title}: steps to reproduce.`, ...(milestone ? { milestone } : {}) });
  }

  /** One run of a workflow file of the repository, for an event. */
  async run(
    workflow: string,
    event: { name: string; payload: Record<string, unknown> },
    inputs?: Record<string, string>,
    job: { vars?: Record<string, string>; checkout?: () => string; runId?: number } = {},
  ) {
    const steps = await runWorkflow(parseWorkflow(this.r.files.get(`.github/workflows/${workflow}`) ?? ''), {
      apiUrl: gh.url,
      repository: this.repo,
      token: 'ghs_actions',
      appToken: 'ghs_agent',
      event,
      inputs,
      vars: { FORGE_AGENT_APP_ID: '42', ...job.vars },
      runId: String(job.runId ?? ++this.runId),
      run: (step, env, workspace) => this.agent(step, env, workspace),
      checkout: job.checkout,
    });
    this.ran.push({ workflow, steps });
    return steps;
  }

  schedule() {
    return this.run('forge-dispatch.yml', { name: 'schedule', payload: { schedule: '*/15 * * * *' } });
  }

  opened(issue: Issue) {
    return this.run('forge-dispatch.yml', {
      name: 'issues',
      payload: { action: 'opened', issue: { number: issue.number }, repository: { full_name: this.repo } },
    });
  }

  /**
   * GitHub's part until nothing more happens: each workflow_dispatch starts its workflow; each label the agent's
   * App added starts the dispatcher (a label the workflow token moves starts nothing, as GitHub documents).
   */
  async settle(rounds = 12) {
    for (let i = 0; i < rounds; i++) {
      const dispatches = this.r.dispatches.slice(this.dispatchesSeen);
      this.dispatchesSeen = this.r.dispatches.length;
      const labelled = gh.requests
        .slice(this.requestsSeen)
        .filter(
          (q) => q.method === 'POST' && q.token === 'ghs_agent' && new RegExp(`^/repos/${this.repo}/issues/\\d+/labels$`).test(q.path),
        )
        .map((q) => ({ number: Number(q.path.split('/')[5]), labels: (q.body as { labels?: string[] }).labels ?? [] }));
      this.requestsSeen = gh.requests.length;
      if (dispatches.length === 0 && labelled.length === 0) return;
      for (const d of dispatches) {
        // GitHub's run of this dispatch (one a dispatch, in order): it ends when its job does.
        const record = this.r.runs[this.r.dispatches.indexOf(d)];
        if (this.dropNext > 0) {
          this.dropNext--;
          // The runner died before the job wrote anything: GitHub ends the run as failed.
          if (record) Object.assign(record, { status: 'completed', conclusion: 'failure' });
          continue;
        }
        if (record) record.status = 'in_progress';
        const steps = await this.run(d.workflow, { name: 'workflow_dispatch', payload: { inputs: d.inputs } }, d.inputs, {
          runId: record?.id,
        });
        if (record)
          Object.assign(record, { status: 'completed', conclusion: steps.some((x) => x.outcome === 'failure') ? 'failure' : 'success' });
      }
      for (const l of labelled)
        await this.run('forge-dispatch.yml', {
          name: 'issues',
          payload: { action: 'labeled', issue: { number: l.number }, label: { name: l.labels[0] }, repository: { full_name: this.repo } },
        });
    }
    throw new Error('the pipeline did not settle');
  }

  /** The open PR that closes `issue`, if the builder opened one. */
  pullOf(issue: number): Issue | undefined {
    return [...this.r.issues.values()].find((i) => i.pull && i.state === 'open' && i.pull.body === `Closes #${issue}`);
  }

  /** The scripted agent: a `run:` step of a stage workflow. */
  private async agent(step: Step, env: Record<string, string>, workspace: string): Promise<RunStepResult> {
    const stage = /agent\.sh (\w+)/.exec(step.run ?? '')?.[1];
    if (!stage) {
      // Not the agent: the script runs in bash as written, with its env.
      // In the job's workspace, never the test's own folder.
      const cwd = workspace || mkdtempSync(join(tmpdir(), 'forge-step-'));
      const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run ?? ''], {
        cwd,
        env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
        encoding: 'utf8',
      });
      this.said.push(ran.stderr);
      this.said.push(ran.stdout);
      return { code: ran.status ?? 1 };
    }
    const pack = readFileSync(env.CONTEXT_FILE, 'utf8');
    expect(env.GH_TOKEN).toBe('ghs_agent');
    const number = Number(env.ISSUE_NUMBER);
    expect(pack).toContain(`${this.r.issues.get(number)?.title}: steps to reproduce.`);
    const behaviour = this.agents[stage].shift() ?? 'ok';
    if (behaviour === 'stop') return { code: 1 };
    const forge = join(workspace, '.forge');
    mkdirSync(forge, { recursive: true });
    writeFileSync(join(forge, 'body.md'), `The ${stage} agent's notes.\n`);
    if (stage === 'INVESTIGATOR') {
      writeFileSync(
        join(forge, 'fields.yml'),
        'Verdict: CONFIRMED\nConfidence: HIGH\nSeverity: MEDIUM\nTask Type: Bug Fix\nDecomposition Assessment: NO — one file\n',
      );
      return { code: 0 };
    }
    if (stage === 'BUILDER') {
      expect(pack).toContain('FORGE:INVESTIGATOR');
      if (!this.pullOf(number))
        gh.issue(this.repo, { user: 'forge-agent[bot]', pull: { body: `Closes #${number}`, head: `fix/${number}` } });
      writeFileSync(join(forge, 'fields.yml'), `Branch: fix/${number}\nCommits: a1b2c3d\nFiles changed: 2\n`);
      return { code: 0 };
    }
    const pr = this.pullOf(number);
    expect(pack).toContain('FORGE:BUILDER');
    if (behaviour === 'changes') {
      writeFileSync(join(forge, 'fields.yml'), 'Verdict: CHANGES_REQUESTED — the null guard is missing\n');
      return { code: 0, outputs: { pull: String(pr?.number ?? ''), commit: pr?.pull?.sha ?? '', verdict: 'CHANGES_REQUESTED' } };
    }
    writeFileSync(join(forge, 'fields.yml'), 'Verdict: APPROVED\n');
    writeFileSync(join(forge, 'trajectory.yml'), 'Decisions: Guard the lookup.\nAnomalies: None\nCompleted: 2026-01-02T00:00:00Z\n');
    writeFileSync(
      join(forge, 'trajectory.md'),
      `| Phase | Result | Notes |\n|---|---|---|\n| Investigation | CONFIRMED | Bug Fix |\n| Build | done | fix/${number} |\n| Review | APPROVED | PR #${pr?.number} |\n`,
    );
    return { code: 0, outputs: { pull: String(pr?.number ?? ''), commit: pr?.pull?.sha ?? '', verdict: 'APPROVED' } };
  }

  /** The maintainer merges the PR: it closes, and GitHub closes the issue it closes as completed. */
  async merge(issue: Issue) {
    const pr = this.pullOf(issue.number);
    if (!pr) throw new Error(`no PR closes #${issue.number}`);
    pr.state = 'closed';
    issue.state = 'closed';
    issue.state_reason = 'completed';
    const milestone = issue.milestone ? this.r.milestones.get(issue.milestone) : undefined;
    return this.run('forge-release-notes.yml', {
      name: 'issues',
      payload: {
        action: 'closed',
        issue: { number: issue.number, milestone: milestone ? { number: milestone.number, title: milestone.title } : null },
        repository: { full_name: this.repo, default_branch: 'main' },
      },
    });
  }

  types(issue: number): string[] {
    return gh.commentsOn(this.repo, issue).flatMap((c) => parse(c.body).map((a) => `${a.type}:${a.sentinelState}`));
  }

  board(): string {
    return [...this.r.issues.values()].find((i) => i.title === 'FORGE pipeline board')?.body ?? '';
  }

  boardRow(issue: number): string {
    return (
      this.board()
        .split('\n')
        .find((l) => l.startsWith(`| [#${issue}](`)) ?? ''
    );
  }
}

const stepOf = (steps: StepRecord[], name: RegExp) => steps.filter((s) => name.test(s.step));

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

  test('a run that died ends its claim at once: the next sweep starts the stage again, and the attempt names the run', async () => {
    const p = new Pipeline();
    const issue = p.issue('Cart total is wrong');
    p.dropNext = 1;
    await p.opened(issue);
    await p.settle();
    expect(p.types(issue.number)).toEqual(['CLAIM:complete']);
    const [died] = p.r.runs;
    expect(gh.commentsOn(p.repo, issue.number)[0].body).toContain(`**Run**: https://github.example/${p.repo}/actions/runs/${died.id}`);
    await p.schedule();
    await p.settle();
    expect(p.r.dispatches.map((d) => d.inputs.stage).slice(0, 3)).toEqual(['INVESTIGATOR', 'INVESTIGATOR', 'BUILDER']);
    expect(p.types(issue.number).filter((t) => t === 'INVESTIGATOR:complete')).toHaveLength(1);
  });

  test('where GitHub names no run (an older Enterprise Server), a claim whose run died holds the stage until claim-ttl', async () => {
    const p = new Pipeline();
    p.r.noRunDetails = true;
    const issue = p.issue('Cart total is wrong');
    p.dropNext = 1;
    await p.opened(issue);
    await p.settle();
    expect(p.types(issue.number)).toEqual(['CLAIM:complete']);
    // Within the ttl: running, named on the board with its holder; nothing started again.
    await p.schedule();
    expect(p.r.dispatches).toHaveLength(1);
    expect(p.boardRow(issue.number)).toContain('running');
    gh.advance(2 * 3_600_000 + 60_000);
    await p.schedule();
    await p.settle();
    expect(p.r.dispatches.map((d) => d.inputs.stage).slice(0, 3)).toEqual(['INVESTIGATOR', 'INVESTIGATOR', 'BUILDER']);
    expect(p.types(issue.number).filter((t) => t === 'INVESTIGATOR:complete')).toHaveLength(1);
  });

  test('a stage that fails three times goes to a person, once, and nothing more is dispatched', async () => {
    const p = new Pipeline();
    const issue = p.issue('Search crashes');
    p.agents.INVESTIGATOR.push('stop', 'stop', 'stop');
    await p.opened(issue);
    await p.settle();
    await p.schedule();
    await p.settle();
    await p.schedule();
    await p.settle();
    expect(p.types(issue.number).filter((t) => t === 'INVESTIGATOR:partial')).toHaveLength(3);
    const last = await p.schedule();
    expect(p.r.dispatches).toHaveLength(3);
    const dispatchStep = last.find((s) => s.step === 'dispatch');
    expect(JSON.parse(dispatchStep?.result?.outputs.escalated ?? '[]')).toEqual([
      { number: issue.number, stage: 'INVESTIGATOR', attempts: 3 },
    ]);
    expect(p.r.issues.get(issue.number)?.labels).toContain('needs-human');
    const asked = gh.commentsOn(p.repo, issue.number).filter((c) => c.body.includes('**FORGE dispatch**'));
    expect(asked).toHaveLength(1);
    expect(asked[0].body).toContain('INVESTIGATOR has had 3 attempts');
    // The row says what the next sweep reads: needs a human, why, and (in the doctor's section) how to resume.
    expect(p.boardRow(issue.number)).toContain('| needs-human | needs-human | needs a human |');
    await p.schedule();
    expect(p.r.dispatches).toHaveLength(3);
    expect(gh.commentsOn(p.repo, issue.number).filter((c) => c.body.includes('**FORGE dispatch**'))).toHaveLength(1);
  });

  test('two dispatchers at once (a schedule and a label event): one claim, one run', async () => {
    const p = new Pipeline();
    const issue = p.issue('Login loops');
    await Promise.all([p.schedule(), p.opened(issue)]);
    expect(p.r.dispatches).toHaveLength(1);
    expect(p.types(issue.number)).toEqual(['CLAIM:complete']);
    await p.settle();
    expect(p.types(issue.number).filter((t) => t === 'INVESTIGATOR:complete')).toHaveLength(1);
  });

  test('a revised INVESTIGATOR makes the BUILDER stale: the dispatcher starts the build again', async () => {
    const p = new Pipeline();
    const issue = p.issue('Export drops rows');
    // The review stage is left out: the build is the last thing the dispatcher starts.
    p.agents.REVIEWER.push('stop', 'stop', 'stop');
    await p.opened(issue);
    await p.settle();
    const builds = () => p.r.dispatches.filter((d) => d.inputs.stage === 'BUILDER').length;
    expect(builds()).toBe(1);
    // A maintainer revises the investigation: what the BUILDER read is no longer there.
    const first = gh.commentsOn(p.repo, issue.number).find((c) => c.body.includes('<!-- FORGE:INVESTIGATOR -->'));
    gh.comment(
      p.repo,
      issue.number,
      'maintainer',
      (first?.body ?? '').replace("The INVESTIGATOR agent's notes.", 'The export query limits rows.'),
    );
    await p.schedule();
    expect(p.boardRow(issue.number)).toMatch(/BUILDER/);
    await p.settle();
    expect(builds()).toBe(2);
    expect(p.types(issue.number).filter((t) => t === 'BUILDER:complete')).toHaveLength(2);
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
