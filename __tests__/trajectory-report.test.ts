/** The trajectory report builder and the release-note Markdown, on plain annotations. */
import { parse } from '../src/codec/index.js';
import { buildReport } from '../src/forge-trajectory-report/logic.js';
import { issueMarkdown, milestoneMarkdown } from '../src/forge-trajectory-report/render.js';
import { builder, investigator, trajectory } from './support/seed.js';
import { located } from './support/work-items.js';

const issue = (n: number, title = `Issue ${n}`) => ({ number: n, title, url: `https://github.example/o/r/issues/${n}` });
const found = (text: string) => located(parse(text)[0], 7);

test('a report joins the trajectory, the INVESTIGATOR and the BUILDER', () => {
  const r = buildReport(issue(7), found(trajectory(131)), parse(investigator())[0], parse(builder('fix/x'))[0]);
  expect(r).toMatchObject({
    found: true,
    prNumber: 131,
    prUrl: 'https://github.example/o/r/pull/131',
    branch: 'fix/x',
    completed: '2026-01-15T09:30:00Z',
    investigator: { verdict: 'CONFIRMED', taskType: 'Bug Fix' },
    builder: { branch: 'fix/x', commits: 'a1b2c3d' },
    missing: [],
  });
});

test('without an INVESTIGATOR the task type comes from the phase table; gaps are named', () => {
  const bare = found(
    '<!-- FORGE:TRAJECTORY -->\n| Phase | Result | Notes |\n|---|---|---|\n| Investigation | CONFIRMED | Task type: Feature |',
  );
  const r = buildReport(issue(8), bare, null, null);
  expect(r.investigator?.taskType).toBe('Feature');
  expect(r.missing).toEqual(['Completed time']);
  expect(buildReport(issue(9), null, null, null)).toMatchObject({ found: false, phases: [] });
});

test('an entry is wrapped in its markers and carries nothing live', () => {
  const r = buildReport(issue(7, 'Fix <b>x</b> for @octocat'), found(trajectory()), null, null);
  const md = issueMarkdown(r);
  expect(md.split('\n')[0]).toBe('<!-- forge-release-note:begin #7 -->');
  expect(md.split('\n').pop()).toBe('<!-- forge-release-note:end #7 -->');
  expect(md).toContain('Fix &lt;b&gt;x&lt;/b&gt; for @&#8203;octocat');
  expect(md).toContain('| Review + Merge | merged | PR #131 |');
});

test('milestone notes group by task type, features first, with the PR and gaps', () => {
  const feature = buildReport(issue(3), found(trajectory(40).replace('Task type: Bug Fix', 'Task type: Feature')), null, null);
  const fix = buildReport(issue(2), found(trajectory(41)), null, null);
  const none = buildReport(issue(1), null, null, null);
  const md = milestoneMarkdown('v1.2', [fix, none, feature]);
  const order = ['### Features', '[#3]', '### Bug fixes', '[#2]', '### Other', '[#1]'].map((s) => md.indexOf(s));
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(md).toContain('3 closed issue(s).');
  expect(md).toContain('[PR #41](https://github.example/o/r/pull/41)');
  expect(md).toContain('[#1](https://github.example/o/r/issues/1) Issue 1 (no trajectory)');
});

test('a bulleted Decisions (or Anomalies) value renders as a nested list, one item a line', () => {
  const body =
    '<!-- FORGE:TRAJECTORY -->\n**Decisions**:\n- guard in validator\n- keep the old path\n**Anomalies**: None\n| Phase | Result | Notes |\n|---|---|---|\n| Close | done | x |';
  const r = buildReport(issue(5), found(body), null, null);
  expect(r.decisions).toBe('- guard in validator\n- keep the old path');
  const md = issueMarkdown(r);
  expect(md).toContain('- **Decisions**:\n  - guard in validator\n  - keep the old path\n- **Anomalies**: None');
});
