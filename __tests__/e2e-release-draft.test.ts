/**
 * forge-trajectory-report's draft-release mode, from the bundle against the
 * loopback GitHub: one draft release per milestone kept complete, no commit,
 * the maintainer's text kept, races repaired by the next run, a published
 * release never edited, and GitHub's release body limit respected.
 */
import type { FakeGitHub, Issue } from './support/github-server.js';
import { runBundle } from './support/run-action.js';
import { investigator, trajectory } from './support/seed.js';
import { useFakeGitHub } from './support/use-fake-github.js';

const server = useFakeGitHub();
let gh: FakeGitHub;
beforeAll(() => {
  gh = server();
});

let n = 0;
function setup() {
  const repo = `octo/release${++n}`;
  gh.repo(repo, { maintainer: 'MEMBER', 'drive-by': 'NONE' });
  const milestone = gh.milestone(repo, { title: 'v1.2' });
  return { repo, milestone };
}

/** A closed issue of the milestone with a trajectory (and its task type from an INVESTIGATOR). */
function closedIssue(repo: string, milestone: number, title: string, withTrajectory = true): Issue {
  const issue = gh.issue(repo, { title, state: 'closed', milestone });
  gh.comment(repo, issue.number, 'maintainer', investigator());
  if (withTrajectory) gh.comment(repo, issue.number, 'maintainer', trajectory(100 + issue.number));
  return issue;
}

const closeEvent = (repo: string, issue: Issue, milestone: { number: number; title: string }) => ({
  name: 'issues',
  payload: { action: 'closed', issue: { number: issue.number, milestone }, repository: { full_name: repo } },
});

const run = (repo: string, event: { name: string; payload: unknown }, inputs: Record<string, string> = {}) =>
  runBundle('forge-trajectory-report', {
    apiUrl: gh.url,
    repository: repo,
    event,
    inputs: { 'github-token': 'ghs_actions', release: 'draft', ...inputs },
  });

const entries = (body: string | null) => [...(body ?? '').matchAll(/<!-- forge-release-note:begin #(\d+) -->/g)].map((m) => Number(m[1]));

test("each close keeps one draft with the complete set, grouped; the maintainer's text is kept byte for byte; the tag is sent every time", async () => {
  const { repo, milestone } = setup();
  const m = { number: milestone.number, title: milestone.title };
  const a = closedIssue(repo, milestone.number, 'Guard the null profile');
  const first = await run(repo, closeEvent(repo, a, m));
  expect(first.code).toBe(0);
  const state = gh.repo(repo);
  expect(state.releases).toHaveLength(1);
  expect(state.releases[0]).toMatchObject({ draft: true, tag_name: 'v1.2', name: 'v1.2' });
  expect(entries(state.releases[0].body)).toEqual([a.number]);
  expect(first.outputs['release-url']).toContain('/releases/');
  expect(state.releases[0].body).toContain('### Bug fixes');
  // The maintainer writes around the block.
  state.releases[0].body = `Intro by a human.\r\n\r\n${state.releases[0].body}\n\nThanks to everyone — ✨\n`;
  const b = closedIssue(repo, milestone.number, 'Second fix');
  const before = gh.requests.length;
  const second = await run(repo, closeEvent(repo, b, m));
  const cost = gh.requests.length - before;
  expect(second.code).toBe(0);
  expect(state.releases).toHaveLength(1);
  expect(entries(state.releases[0].body)).toEqual([a.number, b.number]);
  expect(state.releases[0].body?.startsWith('Intro by a human.\r\n\r\n<!-- forge-release-notes:begin')).toBe(true);
  expect(state.releases[0].body?.endsWith('\n\nThanks to everyone — ✨\n')).toBe(true);
  expect(state.releases[0].tag_name).toBe('v1.2');
  // The pipeline file (whose trajectory counts), the releases, the milestone's closed issues, the new issue's thread,
  // the update: 5 requests, no checkout, no push (4 when the step sets trusted-authors).
  expect(cost).toBeLessThanOrEqual(5);
  expect(
    gh.requests
      .slice(before)
      .filter((q) => q.method === 'PATCH')
      .map((q) => q.body.tag_name),
  ).toEqual(['v1.2']);
});

test('a run that lost a race is repaired by the next; not-planned and reopened issues leave; the milestone close writes the final set', async () => {
  const { repo, milestone } = setup();
  const m = { number: milestone.number, title: milestone.title };
  const a = closedIssue(repo, milestone.number, 'one');
  const b = closedIssue(repo, milestone.number, 'two');
  const c = closedIssue(repo, milestone.number, 'three');
  // Only the last close's run ran (the middle one was cancelled): it still writes all three.
  await run(repo, closeEvent(repo, c, m));
  const state = gh.repo(repo);
  expect(entries(state.releases[0].body)).toEqual([a.number, b.number, c.number]);
  const dropped = gh.repo(repo).issues.get(b.number);
  if (dropped) dropped.state_reason = 'not_planned';
  const reopened = gh.repo(repo).issues.get(a.number);
  if (reopened) reopened.state = 'open';
  const d = closedIssue(repo, milestone.number, 'four', false);
  const r = await run(repo, { name: 'milestone', payload: { action: 'closed', milestone: m } }, { scope: 'milestone' });
  expect(r.code).toBe(0);
  expect(entries(state.releases[0].body)).toEqual([c.number, d.number]);
  expect(state.releases[0].body).toContain('(no trajectory)');
  expect(r.summary).toContain(`removed #${a.number}, #${b.number}`);
  // Nothing changed: nothing is written.
  const before = gh.writes().length;
  await run(repo, { name: 'milestone', payload: { action: 'closed', milestone: m } }, { scope: 'milestone' });
  expect(gh.writes().length).toBe(before);
});

test('a published release is never edited and no second draft is made; a draft is found by its marker, not its name', async () => {
  const { repo, milestone } = setup();
  const m = { number: milestone.number, title: milestone.title };
  const a = closedIssue(repo, milestone.number, 'one');
  await run(repo, closeEvent(repo, a, m), { 'release-name': 'Version 1.2', 'release-tag': 'v1.2.0' });
  const state = gh.repo(repo);
  expect(state.releases[0]).toMatchObject({ name: 'Version 1.2', tag_name: 'v1.2.0' });
  state.releases[0].name = 'Renamed by a maintainer';
  const b = closedIssue(repo, milestone.number, 'two');
  await run(repo, closeEvent(repo, b, m), { 'release-tag': 'v1.2.0' });
  expect(state.releases).toHaveLength(1);
  expect(entries(state.releases[0].body)).toEqual([a.number, b.number]);
  state.releases[0].draft = false;
  const body = state.releases[0].body;
  const c = closedIssue(repo, milestone.number, 'three');
  const r = await run(repo, closeEvent(repo, c, m));
  expect(r.code).toBe(0);
  expect(state.releases).toHaveLength(1);
  expect(state.releases[0].body).toBe(body);
  expect(r.stdout).toContain('is published');
});

test('an issue with no milestone is a notice; bad inputs are one line before any request', async () => {
  const { repo } = setup();
  const loose = gh.issue(repo, { state: 'closed' });
  const r = await run(repo, { name: 'issues', payload: { action: 'closed', issue: { number: loose.number, milestone: null } } });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`::notice::#${loose.number} has no milestone: no draft release to keep`);
  const before = gh.requests.length;
  const bad = await run(repo, { name: 'issues', payload: { issue: { number: loose.number } } }, { 'release-tag': 'has space' });
  expect(bad.stdout).toContain('release-tag "has space" is not a tag name git accepts');
  const none = await run(repo, { name: 'issues', payload: { issue: { number: loose.number } } }, { release: 'none', 'release-name': 'x' });
  expect(none.stdout).toContain('release-name and release-tag apply to release: draft');
  expect(gh.requests.length).toBe(before);
});

test("a milestone of 250 issues fits GitHub's 125,000-character release body", async () => {
  const { repo, milestone } = setup();
  const m = { number: milestone.number, title: milestone.title };
  let last: Issue | null = null;
  for (let i = 0; i < 250; i++)
    last = gh.issue(repo, {
      title: `A long enough issue title for the release notes, number ${i} ${'x'.repeat(60)}`,
      state: 'closed',
      milestone: milestone.number,
    });
  if (!last) throw new Error('no issue');
  const r = await run(repo, closeEvent(repo, last, m));
  expect(r.code).toBe(0);
  const body = gh.repo(repo).releases[0].body ?? '';
  expect(entries(body)).toHaveLength(250);
  expect(body.length).toBeLessThanOrEqual(125000);
  expect(r.stdout).not.toContain('do not fit');
});

describe("GitHub's recorded payloads (@octokit/webhooks-examples)", () => {
  /** GitHub's own example of an event, with our repository, milestone and issue in it. */
  async function recorded(
    event: 'issues' | 'milestone',
    action: string,
    repo: string,
    milestone: { number: number; title: string },
    issue?: number,
  ) {
    const { default: examples } = (await import('@octokit/webhooks-examples')) as unknown as {
      default: Array<{ name: string; examples: Array<Record<string, any>> }>;
    };
    const example = examples.find((e) => e.name === event)?.examples.find((p) => p.action === action);
    if (!example) throw new Error(`no recorded ${event}.${action}`);
    const payload = structuredClone(example);
    payload.repository = {
      ...payload.repository,
      full_name: repo,
      name: repo.split('/')[1],
      owner: { ...payload.repository.owner, login: 'octo' },
    };
    payload.milestone = { ...payload.milestone, number: milestone.number, title: milestone.title };
    if (issue !== undefined) payload.issue = { ...payload.issue, number: issue };
    return { name: event, payload };
  }

  test('release: draft on a milestone event needs no scope: the milestone closing writes its final set', async () => {
    const { repo, milestone } = setup();
    const m = { number: milestone.number, title: milestone.title };
    const a = closedIssue(repo, milestone.number, 'Guard the null profile');
    const b = closedIssue(repo, milestone.number, 'Second fix');
    const r = await run(repo, await recorded('milestone', 'closed', repo, m));
    expect(r.code).toBe(0);
    expect(entries(gh.repo(repo).releases[0]?.body ?? null)).toEqual([a.number, b.number]);
  });

  test("demilestoned (its payload's issue has no milestone, its `milestone` the one left) removes the issue's entry", async () => {
    const { repo, milestone } = setup();
    const m = { number: milestone.number, title: milestone.title };
    const a = closedIssue(repo, milestone.number, 'Stays');
    const b = closedIssue(repo, milestone.number, 'Moves out');
    await run(repo, closeEvent(repo, b, m));
    expect(entries(gh.repo(repo).releases[0].body)).toEqual([a.number, b.number]);
    gh.repo(repo).issues.get(b.number)!.milestone = null;
    const event = await recorded('issues', 'demilestoned', repo, m, b.number);
    expect(event.payload.issue.milestone).toBeNull();
    const r = await run(repo, event);
    expect(r.code).toBe(0);
    expect(entries(gh.repo(repo).releases[0].body)).toEqual([a.number]);
  });
});

/** Two closed issues of a milestone and the draft a first run made for the first: `only(n)` is that draft's body for issue n alone. */
async function firstDraft() {
  const { repo, milestone } = setup();
  const m = { number: milestone.number, title: milestone.title };
  const a = closedIssue(repo, milestone.number, 'First');
  const b = closedIssue(repo, milestone.number, 'Second');
  await run(repo, closeEvent(repo, a, m));
  const state = gh.repo(repo);
  const first = state.releases[0];
  const only = (n: number) => (first.body ?? '').replace(new RegExp(`#${a.number}\\b`, 'g'), `#${n}`);
  return { repo, milestone, m, a, b, state, first, only };
}

test('two drafts made by racing closes are merged into the older by the next run; an extra one with text of yours is left and named', async () => {
  // Each racing run found no draft and made its own, with the one entry it read.
  const { repo, milestone, m, a, b, state, first, only } = await firstDraft();
  state.releases.push({ ...first, id: first.id + 1, body: only(b.number) });
  expect(state.releases.filter((x) => x.draft)).toHaveLength(2);
  const c = closedIssue(repo, milestone.number, 'Third');
  const r = await run(repo, closeEvent(repo, c, m));
  expect(r.code).toBe(0);
  expect(state.releases.map((x) => x.id)).toEqual([first.id]);
  expect(entries(state.releases[0].body)).toEqual([a.number, b.number, c.number]);
  expect(r.summary).toContain('merged and deleted 1 extra draft(s)');
  // An extra draft someone wrote in is never deleted: its entries are merged, and the step says so.
  state.releases.push({ ...state.releases[0], id: first.id + 5, body: `Notes of mine.\n\n${only(b.number)}` });
  const again = await run(repo, closeEvent(repo, c, m));
  expect(state.releases.map((x) => x.id)).toEqual([first.id, first.id + 5]);
  expect(again.stdout).toContain(`draft release ${first.id + 5} also holds the notes of milestone v1.2`);
});

test('the draft landed but its answer was a 502: it is read back, not created twice', async () => {
  const { repo, milestone } = setup();
  const a = closedIssue(repo, milestone.number, 'Guard the null profile');
  gh.fail('POST', new RegExp(`^/repos/${repo}/releases$`), 502, 1, { after: true });
  const r = await run(repo, closeEvent(repo, a, { number: milestone.number, title: milestone.title }));
  expect(r.code).toBe(0);
  expect(gh.repo(repo).releases).toHaveLength(1);
  expect(entries(gh.repo(repo).releases[0].body)).toEqual([a.number]);
  expect(r.outputs['release-url']).toContain(`/releases/tag/untagged-${gh.repo(repo).releases[0].id}`);
});

test('a racing draft CI uploaded its assets to is the one kept: the notes join the files, the other is merged and deleted', async () => {
  const { repo, m, a, b, state, first, only } = await firstDraft();
  state.releases.push({ ...first, id: first.id + 1, body: only(b.number), assets: ['forge-linux-x64.tar.gz'] });
  const r = await run(repo, closeEvent(repo, b, m));
  expect(r.code).toBe(0);
  expect(state.releases.map((x) => x.id)).toEqual([first.id + 1]);
  expect(state.releases[0].assets).toEqual(['forge-linux-x64.tar.gz']);
  expect(entries(state.releases[0].body)).toEqual([a.number, b.number]);

  // Two drafts both holding assets: the older with assets is kept, the other left and named, never deleted.
  state.releases.push({ ...state.releases[0], id: first.id + 7, body: only(b.number), assets: ['forge-darwin-arm64.tar.gz'] });
  const again = await run(repo, closeEvent(repo, b, m));
  expect(state.releases.map((x) => x.id)).toEqual([first.id + 1, first.id + 7]);
  expect(again.stdout).toContain(`draft release ${first.id + 7} also holds the notes of milestone v1.2`);
  expect(again.stdout).toContain('it holds 1 uploaded asset(s), so it is left for you to delete');
});

test("an issue moved from milestone A to B (only `milestoned` sent) leaves A's draft when B's is written", async () => {
  const { repo, milestone } = setup();
  const b = gh.milestone(repo, { title: 'v1.3' });
  const moved = closedIssue(repo, milestone.number, 'Moved later');
  const stays = closedIssue(repo, milestone.number, 'Stays');
  await run(repo, closeEvent(repo, stays, { number: milestone.number, title: milestone.title }));
  const state = gh.repo(repo);
  expect(entries(state.releases[0].body)).toEqual([moved.number, stays.number]);
  moved.milestone = b.number;
  const r = await run(repo, {
    name: 'issues',
    payload: {
      action: 'milestoned',
      issue: { number: moved.number, milestone: { number: b.number, title: b.title } },
      repository: { full_name: repo },
    },
  });
  expect(r.code).toBe(0);
  const byMilestone = (title: string) => state.releases.find((x) => x.name === title);
  expect(entries(byMilestone('v1.2')?.body ?? '')).toEqual([stays.number]);
  expect(byMilestone('v1.2')?.body).toContain('1 issue(s) closed as completed.');
  expect(byMilestone('v1.2')?.body).toContain('## v1.2');
  expect(entries(byMilestone('v1.3')?.body ?? '')).toEqual([moved.number]);
  expect(r.summary).toContain(`removed #${moved.number} from [the draft release]`);
});

test("an entry carries what the trajectory says — the investigation's verdict and the decisions — on one inert line", async () => {
  const { repo, milestone } = setup();
  const a = closedIssue(repo, milestone.number, 'Guard the null profile');
  const r = await run(repo, closeEvent(repo, a, { number: milestone.number, title: milestone.title }));
  expect(r.code).toBe(0);
  const line = (gh.repo(repo).releases[0].body ?? '').split('\n').find((l) => l.startsWith(`- [#${a.number}]`)) ?? '';
  expect(line).toContain(' · CONFIRMED');
  expect(line).toContain(' — Guard at the lookup site.');
  // A trajectory's decisions cannot open a tag, a mention or a second entry in the release.
  const b = gh.issue(repo, { title: 'Second', state: 'closed', milestone: milestone.number });
  gh.comment(
    repo,
    b.number,
    'maintainer',
    trajectory(200).replace('Guard at the lookup site.', 'ok <!-- forge-release-note:end #1 --> @everyone\n- [#9](https://evil.example)'),
  );
  await run(repo, closeEvent(repo, b, { number: milestone.number, title: milestone.title }));
  const body = gh.repo(repo).releases[0].body ?? '';
  expect(entries(body)).toEqual([a.number, b.number]);
  const second = body.split('\n').find((l) => l.startsWith(`- [#${b.number}]`)) ?? '';
  expect(second).not.toContain('<!--');
  expect(second).not.toMatch(/(^|[^`])@everyone/);
  expect(body).not.toContain('\n- [#9]');
});

test('found and trajectory describe the notes on every run: a run that finds the draft complete, and the milestone close', async () => {
  const { repo, milestone } = setup();
  const m = { number: milestone.number, title: milestone.title };
  const a = closedIssue(repo, milestone.number, 'Guard the null profile');
  expect((await run(repo, closeEvent(repo, a, m))).outputs.found).toBe('true');
  const again = await run(repo, closeEvent(repo, a, m));
  expect(again.outputs.found).toBe('true');
  expect(JSON.parse(again.outputs.trajectory)).toEqual([expect.objectContaining({ found: true, decisions: 'Guard at the lookup site.' })]);
  const closed = await run(repo, { name: 'milestone', payload: { action: 'closed', milestone: m, repository: { full_name: repo } } });
  expect(closed.outputs.found).toBe('true');
  expect(closed.outputs.issues).toBe('1');
});
