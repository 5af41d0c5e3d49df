/**
 * docs/run-a-pipeline.md end to end when things go wrong: a run that dies, an
 * Enterprise Server that names no run, a stage that fails three times, two
 * dispatchers at once, a revised upstream (support/pipeline-harness.ts plays
 * GitHub's part, as in e2e-run-a-pipeline.test.ts).
 */
import { gh, Pipeline, usePipelineGitHub } from './support/pipeline-harness.js';

usePipelineGitHub();

describe('a pipeline run from the docs, as written: when runs die, fail or race', () => {
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
