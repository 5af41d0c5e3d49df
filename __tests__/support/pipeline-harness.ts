/**
 * The harness of docs/run-a-pipeline.md's end-to-end tests: a Pipeline plays
 * GitHub's part for the example workflows run as written (a workflow_dispatch
 * starts the workflow it names and GitHub's run of it; a label the agent's App
 * moves, or an issue opened, starts the dispatcher; a close starts the release
 * notes), with scripted agents. Each test file that uses it gets its own
 * loopback GitHub (usePipelineGitHub), so the scenarios run in parallel files.
 */

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from '../../src/codec/index.js';
import type { FakeGitHub, Issue } from './github-server.js';
import { ROOT } from './run-action.js';
import { useFakeGitHub } from './use-fake-github.js';
import { parseWorkflow, runWorkflow, type RunStepResult, type Step, type StepRecord } from './workflow-runner.js';

/** The loopback GitHub of the test file that called usePipelineGitHub (a live binding). */
export let gh: FakeGitHub;

/** One loopback GitHub for this test file, with the agents' App token. */
export function usePipelineGitHub(): void {
  const server = useFakeGitHub();
  beforeAll(() => {
    gh = server();
    gh.token('ghs_agent', 'forge-agent[bot]', 'app');
  });
}

export const example = (name: string) => readFileSync(join(ROOT, 'examples', 'workflows', name), 'utf8');
export const PAGE = () => readFileSync(join(ROOT, 'docs', 'run-a-pipeline.md'), 'utf8');

/** What an agent does on its next run: finish, or stop half-way (exit 1, nothing written). */
/** ok: the stage's happy path; stop: the agent fails half-way; changes: a reviewer requests changes. */
type Behaviour = 'ok' | 'stop' | 'changes';

export class Pipeline {
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

export const stepOf = (steps: StepRecord[], name: RegExp) => steps.filter((s) => name.test(s.step));
