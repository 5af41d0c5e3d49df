/**
 * A loopback HTTP server imitating the GitHub REST endpoints the actions use:
 * issues, comments (per issue and per repository), labels, milestones, pulls
 * and gists — with GitHub's pagination (`Link`, per_page ≤ 100), status codes
 * and error bodies, rate-limit headers, CRLF comment bodies, and fault
 * injection (5xx, secondary rate limit with retry-after, primary exhaustion,
 * latency). Every request is checked against GitHub's OpenAPI description and
 * every response against its response schema; problems land in `violations`.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { validate as validateGraphql } from '@octokit/graphql-schema';
import { buildSchema, parse as parseGraphql, validate as validateAgainst, type GraphQLSchema } from 'graphql';
import { executeQuery, GitHubGraphqlError, queryCost, unboundedConnections } from './graphql-exec.js';
import { closingIssues } from '../../src/common/closing.js';
import { conform, ghesVersions, OpenApiDescription } from './openapi.js';
import YAML from 'yaml';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface User {
  login: string;
  id: number;
  type: 'User' | 'Bot';
}

export interface Comment {
  id: number;
  issue: number;
  user: string;
  body: string;
  created_at: string;
  updated_at: string;
  /** Minimized on GitHub: the reason (SPAM, OUTDATED, …). */
  hidden?: string;
  /** Who last edited it (GraphQL `editor`), when someone did. */
  editor?: string;
}

export interface Review {
  id: number;
  pull: number;
  user: string;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  /** The PR's head commit when the review was submitted; null when GitHub no longer knows it. */
  commit: string | null;
  /** Null while the review is pending. */
  submitted_at: string | null;
}

export interface Issue {
  number: number;
  title: string;
  body: string | null;
  user: string;
  labels: string[];
  state: 'open' | 'closed';
  milestone: number | null;
  /**
   * Set for a PR: its body, head branch and (defaults below) head commit, the
   * repository the head lives in (a fork's), and the branch it targets.
   */
  pull: {
    body: string | null;
    head: string;
    sha?: string;
    headRepository?: string;
    base?: string;
    /** How many commits it holds (GraphQL commits.totalCount); 1 unless said. */
    commits?: number;
    /** Force pushes to its head branch, oldest first: when, and the commit after. */
    forcePushes?: Array<{ at: string; sha: string }>;
  } | null;
  created_at: string;
  /** Moved on by every change GitHub counts: a comment, a label, an edit (the `since` filter reads it). */
  updated_at: string;
  closed_at: string | null;
  /** Why it was closed (completed, not_planned); GitHub's state_reason. */
  state_reason?: 'completed' | 'not_planned' | 'reopened' | null;
  /** A sub-issue's parent (GraphQL `Issue.parent`). */
  parent?: { repository: string; number: number };
  /** Who last edited the body, when someone other than its author did (GraphQL `editor`). */
  bodyEditor?: string;
}

export interface Milestone {
  number: number;
  title: string;
  description: string | null;
  state: 'open' | 'closed';
}

export interface GistFile {
  content: string;
}

export interface Gist {
  id: string;
  owner: string;
  description: string | null;
  public: boolean;
  files: Record<string, GistFile>;
  created_at: string;
}

export interface CommitStatusRecord {
  id: number;
  sha: string;
  state: string;
  description: string | null;
  context: string;
  target_url: string | null;
  creator: string;
  created_at: string;
}

export interface ReleaseRecord {
  id: number;
  tag_name: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  created_at: string;
  /** Names of the files uploaded to it (CI's build artefacts). */
  assets?: string[];
}

export interface RepoState {
  owner: string;
  /** Releases, drafts included, oldest first. */
  releases: ReleaseRecord[];
  name: string;
  /** Commit statuses, oldest first. */
  statuses: CommitStatusRecord[];
  /** Links made in a PR's Development sidebar: PR number → issues (any repository). */
  sidebar: Map<number, Array<{ repository: string; number: number }>>;
  issues: Map<number, Issue>;
  comments: Comment[];
  reviews: Review[];
  labels: Map<string, { name: string; color: string; description: string | null }>;
  milestones: Map<number, Milestone>;
  associations: Map<string, string>;
  /** Roles on the repository (read, triage, write, maintain, admin) for the collaborator-permission endpoint. */
  roles: Map<string, string>;
  /** The default branch: GitHub links closing keywords only for PRs into it. */
  defaultBranch: string;
  /** PR number → how many more link queries answer with no keyword links yet (GitHub fills them after a PR opens). */
  linkDelay: Map<number, number>;
  /** Per PR: how many more link queries list its body's keywords without the last one (GitHub links them one by one). */
  lastLinkDelay: Map<number, number>;
  /** The merge queue of each base branch, in order: each entry's PR and the commit of the merge group built for it. */
  mergeQueue: Map<string, Array<{ pull: number; head: string }>>;
  /** The repository activity GitHub records (GET /repos/{o}/{r}/activity): pushes and force pushes, oldest first. */
  activity: Array<{ id: number; before: string; after: string; ref: string; timestamp: string; activity_type: string; actor: string }>;
  /** Set when the activity endpoint refuses this token (403), as for a fork it cannot see. */
  activityRefused?: boolean;
  /** Files on the default branch, by path (the pipeline file `.github/forge.yml`): what `object(expression: "HEAD:path")` finds. */
  files: Map<string, string>;
  /** Label events, oldest first (GET …/issues/{n}/events): who added or removed which label, and when. */
  labelEvents: Array<{ id: number; issue: number; event: 'labeled' | 'unlabeled'; label: string; actor: string; created_at: string }>;
  /** workflow_dispatch events made through the API (POST …/actions/workflows/{id}/dispatches), in order. */
  dispatches: Array<{ workflow: string; ref: string; inputs: Record<string, string>; by: string }>;
  /** Workflow runs, oldest first: one for each dispatch; a test moves its status and conclusion. */
  runs: Array<{
    id: number;
    workflow: string;
    status: string;
    conclusion: string | null;
    created_at: string;
    actor: string;
    inputs: Record<string, string>;
  }>;
  /** A workflow's state by file name (GitHub's: active unless said, disabled_manually, disabled_inactivity, …). */
  workflowStates: Map<string, string>;
  /** As an older GitHub Enterprise Server: a dispatch asking return_run_details is refused with 400. */
  noRunDetails?: boolean;
  nextNumber: number;
  nextMilestone: number;
}

export interface Fault {
  method?: string;
  path: RegExp;
  status: number;
  times: number;
  headers?: Record<string, string>;
  body?: Json;
  /** Applied after the real handler ran (the write happened, the response is lost). */
  after?: boolean;
  /** For POST /graphql: only a query this matches (e.g. /query ForgeGate\b/). */
  operation?: RegExp;
  /** Instead of failing, rewrite the successful response body (e.g. a corrupted read-back). */
  mutate?: (data: Json) => Json;
}

export interface RequestRecord {
  /** Sent to GitHub Enterprise Server's paths (/api/v3, /api/graphql). */
  enterprise?: boolean;
  method: string;
  path: string;
  query: string;
  body: Json;
  status: number;
  token: string | null;
}

const HTML = 'https://github.example';

let sdl: GraphQLSchema | null = null;
/** A query's errors against GitHub's published SDL (schema.graphql in @octokit/graphql-schema), built once. */
function sdlErrors(query: string): readonly Error[] {
  if (sdl === null) {
    sdl = buildSchema(readFileSync(new URL('../../node_modules/@octokit/graphql-schema/schema.graphql', import.meta.url), 'utf8'), {
      // The published SDL defines one field twice (EnterpriseOwnerInfo.repositoryDeployKeySetting): read it as GitHub serves it.
      assumeValidSDL: true,
    });
  }
  return validateAgainst(sdl, parseGraphql(query));
}

/** A PR's global id: unique across repositories, as GitHub's are. */
const pullNodeId = (full: string, number: number) => `PR_${Buffer.from(`${full}#${number}`).toString('base64url')}`;
/** An issue's global id, likewise. */
const issueNodeId = (full: string, number: number) => `I_${Buffer.from(`${full}#${number}`).toString('base64url')}`;
/** The repository and number behind an issue's or PR's global id. */
const fromNodeId = (id: string): [string, number] => {
  const [full, n] = Buffer.from(id.replace(/^(?:PR|I)_/, ''), 'base64url')
    .toString('utf8')
    .split('#');
  return [full, Number(n)];
};

export class FakeGitHub {
  url = '';
  readonly repos = new Map<string, RepoState>();
  readonly users = new Map<string, User>();
  readonly tokens = new Map<string, { login: string; kind: 'app' | 'user'; readOnly?: boolean }>();
  readonly gists = new Map<string, Gist>();
  /** Repositories GraphQL cannot show this token: their nodes come back null with an error beside the data. */
  readonly unreadableRepos = new Set<string>();
  /** Global ids the evidence query answers with null and an error beside the data (a partial answer). */
  readonly droppedNodes = new Set<string>();
  /** Comment ids the reader's query (ForgeContext) answers with null and an error beside the data, once each. */
  readonly droppedOnce = new Set<string>();
  readonly requests: RequestRecord[] = [];
  readonly violations: string[] = [];
  readonly faults: Fault[] = [];
  latencyMs = 0;
  /** GraphQL points charged so far (GitHub's formula, for the snapshot queries). */
  points = 0;
  /** As a GitHub Enterprise Server with rate limiting off: a query asking `rateLimit` (at /api/graphql) fails. */
  ghesRateLimitOff = false;
  /** Added to the Date header only: a server whose clock disagrees with its own updated_at stamps. */
  dateSkewMs = 0;
  /** Requests being answered right now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** Remaining core requests per token (and for anonymous callers). */
  rateLimit = new Map<string, number>();
  anonymousLimit = 60;
  private server: Server | null = null;
  private nextId = 1000;
  private clock = Date.parse('2026-01-01T00:00:00Z');
  private specs: OpenApiDescription[];
  readonly ghes: string;

  constructor() {
    const versions = ghesVersions();
    this.ghes = versions[0];
    this.specs = [
      new OpenApiDescription('api.github.com.deref.json', 'api.github.com'),
      new OpenApiDescription(`ghes-${this.ghes}.deref.json`, `GHES ${this.ghes}`),
    ];
    this.user('github-actions[bot]', 'Bot');
    this.token('ghs_actions', 'github-actions[bot]', 'app');
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  // ---- seeding -----------------------------------------------------------

  user(login: string, type: 'User' | 'Bot' = 'User'): User {
    let u = this.users.get(login);
    if (!u) {
      u = { login, id: this.nextId++, type };
      this.users.set(login, u);
    }
    return u;
  }

  /** `readOnly`: the token a fork's pull_request run gets — every write is refused with 403. */
  token(token: string, login: string, kind: 'app' | 'user' = 'user', readOnly = false): void {
    this.user(login, login.endsWith('[bot]') ? 'Bot' : 'User');
    this.tokens.set(token, { login, kind, readOnly });
  }

  repo(full: string, associations: Record<string, string> = {}): RepoState {
    let r = this.repos.get(full);
    if (!r) {
      const [owner, name] = full.split('/');
      r = {
        owner,
        name,
        statuses: [],
        releases: [],
        dispatches: [],
        runs: [],
        workflowStates: new Map(),
        labelEvents: [],
        sidebar: new Map(),
        issues: new Map(),
        comments: [],
        reviews: [],
        labels: new Map(),
        milestones: new Map(),
        associations: new Map(),
        roles: new Map(),
        defaultBranch: 'main',
        linkDelay: new Map(),
        lastLinkDelay: new Map(),
        mergeQueue: new Map(),
        activity: [],
        files: new Map(),
        nextNumber: 1,
        nextMilestone: 1,
      };
      this.repos.set(full, r);
    }
    for (const [login, a] of Object.entries(associations)) {
      this.user(login);
      r.associations.set(login, a);
    }
    return r;
  }

  private tick(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString().replace('.000Z', 'Z');
  }

  issue(full: string, init: Partial<Omit<Issue, 'number'>> & { number?: number } = {}): Issue {
    const r = this.repo(full);
    const number = init.number ?? r.nextNumber;
    r.nextNumber = Math.max(r.nextNumber, number + 1);
    const issue: Issue = {
      number,
      title: init.title ?? `Issue ${number}`,
      body: init.body ?? null,
      user: init.user ?? 'octo-owner',
      labels: init.labels ?? [],
      state: init.state ?? 'open',
      milestone: init.milestone ?? null,
      pull: init.pull ?? null,
      created_at: this.tick(),
      updated_at: '',
      closed_at: init.state === 'closed' ? this.tick() : null,
      ...(init.parent ? { parent: init.parent } : {}),
      ...(init.bodyEditor ? { bodyEditor: init.bodyEditor } : {}),
      ...(init.state_reason !== undefined ? { state_reason: init.state_reason } : {}),
    };
    issue.updated_at = issue.closed_at ?? issue.created_at;
    if (issue.pull) issue.pull = { base: 'main', headRepository: full, sha: defaultSha(full, number), ...issue.pull };
    this.user(issue.user);
    for (const l of issue.labels) if (!r.labels.has(l)) r.labels.set(l, { name: l, color: 'ededed', description: null });
    r.issues.set(number, issue);
    return issue;
  }

  /** Seeded comments are stored with CRLF line breaks, as GitHub returns bodies typed in its UI. */
  comment(full: string, issue: number, user: string, body: string, crlf = true): Comment {
    const r = this.repo(full);
    this.user(user);
    const at = this.tick();
    const c: Comment = {
      id: this.nextId++,
      issue,
      user,
      body: crlf ? body.replace(/\r?\n/g, '\r\n') : body,
      created_at: at,
      updated_at: at,
    };
    r.comments.push(c);
    this.touch(r, issue, at);
    return c;
  }

  /** An issue's updated_at moves with its comments and labels, as on GitHub. */
  touch(r: RepoState, number: number, at = this.tick()): void {
    const issue = r.issues.get(number);
    if (issue) issue.updated_at = at;
  }

  /** Time passes on GitHub: what is written next, and the Date header, are `ms` later. */
  advance(ms: number): void {
    this.clock += ms;
  }

  /** The server's clock as GitHub reports it in the Date header: seeded events are stamped with it. */
  now(): string {
    return new Date(this.clock).toISOString().replace('.000Z', 'Z');
  }

  /** `actor` adds `label` to an issue (in the web UI, say): the label and its event, as GitHub records them. */
  label(full: string, issue: number, label: string, actor: string): void {
    const r = this.repo(full);
    const i = r.issues.get(issue);
    if (!i) throw new Error(`no issue #${issue} in ${full}`);
    this.user(actor, actor.endsWith('[bot]') ? 'Bot' : 'User');
    if (!r.labels.has(label)) r.labels.set(label, { name: label, color: 'ededed', description: null });
    if (!i.labels.includes(label)) i.labels.push(label);
    r.labelEvents.push({ id: this.nextId++, issue, event: 'labeled', label, actor, created_at: this.tick() });
    this.touch(r, issue);
  }

  /** `actor` removes `label` from an issue: the label goes, and GitHub records the event. */
  unlabel(full: string, issue: number, label: string, actor: string): void {
    const r = this.repo(full);
    const i = r.issues.get(issue);
    if (!i) throw new Error(`no issue #${issue} in ${full}`);
    this.user(actor, actor.endsWith('[bot]') ? 'Bot' : 'User');
    i.labels = i.labels.filter((l) => l !== label);
    r.labelEvents.push({ id: this.nextId++, issue, event: 'unlabeled', label, actor, created_at: this.tick() });
    this.touch(r, issue);
  }

  review(full: string, pull: number, user: string, body: string, state: Review['state'] = 'COMMENTED'): Review {
    const r = this.repo(full);
    this.user(user);
    const commit = r.issues.get(pull)?.pull?.sha ?? 'a'.repeat(40);
    const rv: Review = {
      id: this.nextId++,
      pull,
      user,
      body: body.replace(/\r?\n/g, '\r\n'),
      state,
      commit,
      submitted_at: state === 'PENDING' ? null : this.tick(),
    };
    r.reviews.push(rv);
    return rv;
  }

  /** A maintainer dismisses a review: GitHub keeps it, with state DISMISSED. */
  dismiss(full: string, id: number): void {
    const rv = this.repo(full).reviews.find((x) => x.id === id);
    if (!rv) throw new Error(`no review ${id}`);
    rv.state = 'DISMISSED';
  }

  milestone(full: string, init: Partial<Omit<Milestone, 'number'>> = {}): Milestone {
    const r = this.repo(full);
    const m: Milestone = {
      number: r.nextMilestone++,
      title: init.title ?? `v${r.nextMilestone}`,
      description: init.description ?? null,
      state: init.state ?? 'open',
    };
    r.milestones.set(m.number, m);
    return m;
  }

  gist(owner: string, init: Partial<Omit<Gist, 'owner'>> = {}): Gist {
    this.user(owner);
    const id = init.id ?? (this.nextId++).toString(16).padStart(32, 'a');
    const g: Gist = {
      id,
      owner,
      description: init.description ?? null,
      public: init.public ?? false,
      files: init.files ?? { 'notes.md': { content: 'x' } },
      created_at: this.tick(),
    };
    this.gists.set(id, g);
    return g;
  }

  /** A link made in PR #pull's Development sidebar to an issue (`owner/name#n` for another repository). */
  link(full: string, pull: number, issue: number | string): void {
    const r = this.repo(full);
    const ref =
      typeof issue === 'number'
        ? { repository: full, number: issue }
        : { repository: issue.split('#')[0], number: Number(issue.split('#')[1]) };
    r.sidebar.set(pull, [...(r.sidebar.get(pull) ?? []), ref]);
  }

  /**
   * A new commit on PR #pull's head branch. GitHub records the push in the
   * head repository's activity (GET /repos/{o}/{r}/activity), not on the PR.
   */
  push(full: string, pull: number, sha: string, type: 'push' | 'force_push' = 'push'): string {
    const pr = this.repo(full).issues.get(pull);
    if (!pr?.pull) throw new Error(`#${pull} is not a PR`);
    const before = pr.pull.sha ?? '';
    pr.pull.sha = sha;
    // A push adds a commit; a force push may replace them all (GraphQL's commits.totalCount is left as it is).
    if (type === 'push') pr.pull.commits = (pr.pull.commits ?? 1) + 1;
    const at = this.tick();
    const head = this.repo(pr.pull.headRepository ?? full);
    head.activity.push({
      id: this.nextId++,
      before,
      after: sha,
      ref: `refs/heads/${pr.pull.head}`,
      timestamp: at,
      activity_type: type,
      actor: pr.user,
    });
    return at;
  }

  /** A force push to PR #pull's head branch: GitHub records when, and the commit after it (the PR's timeline and the activity). */
  forcePush(full: string, pull: number, sha: string): void {
    const at = this.push(full, pull, sha, 'force_push');
    const pr = this.repo(full).issues.get(pull);
    if (pr?.pull) pr.pull.forcePushes = [...(pr.pull.forcePushes ?? []), { at, sha }];
  }

  statusesOn(full: string, sha: string): CommitStatusRecord[] {
    return this.repo(full).statuses.filter((s) => s.sha === sha);
  }

  commentsOn(full: string, issue: number): Comment[] {
    return this.repo(full).comments.filter((c) => c.issue === issue);
  }

  /** Fail the next `times` requests matching `path` (and `method`). */
  fail(method: string | undefined, path: RegExp, status: number, times = 1, extra: Partial<Fault> = {}): void {
    this.faults.push({ method, path, status, times, ...extra });
  }

  secondaryRateLimit(method: string | undefined, path: RegExp, retryAfter = 1, times = 1, operation?: RegExp): void {
    this.fail(method, path, 403, times, {
      operation,
      headers: { 'retry-after': String(retryAfter) },
      body: {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      },
    });
  }

  /** Rewrite the next successful response to a matching request. */
  mutateNext(method: string, path: RegExp, mutate: (data: Json) => Json, times = 1, operation?: RegExp): void {
    this.faults.push({ method, path, status: 200, times, after: true, mutate, operation });
  }

  /** The PR numbers the gate's snapshot queries (ForgeGate) asked for since request `from`, in order. */
  pullsRead(from = 0): number[] {
    return this.requests
      .slice(from)
      .filter((q) => q.path === '/graphql' && /query ForgeGate\b/.test(String((q.body as Json)?.query ?? '')))
      .flatMap((q) =>
        Object.entries(((q.body as Json).variables ?? {}) as Json)
          .filter(([k]) => /^p\d+$/.test(k))
          .map(([, v]) => Number(v)),
      );
  }

  primaryExhausted(method: string | undefined, path: RegExp, resetInSeconds: number, times = 1, operation?: RegExp): void {
    this.fail(method, path, 403, times, {
      operation,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + resetInSeconds) },
      body: {
        message: 'API rate limit exceeded for installation.',
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      },
    });
  }

  /** The GraphQL operations asked since request `from` (their names: ForgeGate, IssuePulls, …), in order. */
  operations(from = 0): string[] {
    return this.requests
      .slice(from)
      .filter((q) => q.path === '/graphql')
      .map((q) => /(?:query|mutation)\s+(\w+)/.exec(String((q.body as Json)?.query ?? ''))?.[1] ?? '(anonymous)');
  }

  /** Every request that can change something: a GraphQL query is a read sent as a POST. */
  writes(): RequestRecord[] {
    return this.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql');
  }

  // ---- JSON shapes -------------------------------------------------------

  private workflowJson(r: RepoState, file: string): Json {
    const id = hash(`${r.owner}/${r.name}/${file}`);
    return {
      id,
      node_id: `W_${id}`,
      name: file.replace(/\.ya?ml$/, ''),
      path: `.github/workflows/${file}`,
      state: r.workflowStates.get(file) ?? 'active',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      url: `${this.url}/repos/${r.owner}/${r.name}/actions/workflows/${id}`,
      html_url: `${HTML}/${r.owner}/${r.name}/blob/${r.defaultBranch}/.github/workflows/${file}`,
      badge_url: `${HTML}/${r.owner}/${r.name}/workflows/${file}/badge.svg`,
    };
  }

  /** The repository as a response names it in passing (id, names, owner, visibility). */
  private minimalRepository(r: RepoState): Json {
    return { id: 1, node_id: 'R_1', name: r.name, full_name: `${r.owner}/${r.name}`, owner: this.userJson(r.owner), private: false };
  }

  private runJson(r: RepoState, x: RepoState['runs'][number]): Json {
    const api = `${this.url}/repos/${r.owner}/${r.name}`;
    const repo = {
      ...this.minimalRepository(r),
      html_url: `${HTML}/${r.owner}/${r.name}`,
      description: null,
      fork: false,
      url: api,
    };
    return {
      id: x.id,
      name: x.workflow,
      node_id: `WFR_${x.id}`,
      head_branch: r.defaultBranch,
      head_sha: 'c'.repeat(40),
      path: `.github/workflows/${x.workflow}`,
      run_number: x.id,
      event: 'workflow_dispatch',
      display_title: x.workflow,
      status: x.status,
      conclusion: x.conclusion,
      workflow_id: hash(`${r.owner}/${r.name}/${x.workflow}`),
      url: `${api}/actions/runs/${x.id}`,
      html_url: `${HTML}/${r.owner}/${r.name}/actions/runs/${x.id}`,
      pull_requests: [],
      created_at: x.created_at,
      updated_at: x.created_at,
      actor: this.userJson(x.actor),
      triggering_actor: this.userJson(x.actor),
      run_attempt: 1,
      run_started_at: x.created_at,
      jobs_url: `${api}/actions/runs/${x.id}/jobs`,
      logs_url: `${api}/actions/runs/${x.id}/logs`,
      check_suite_url: `${api}/check-suites/${x.id}`,
      artifacts_url: `${api}/actions/runs/${x.id}/artifacts`,
      cancel_url: `${api}/actions/runs/${x.id}/cancel`,
      rerun_url: `${api}/actions/runs/${x.id}/rerun`,
      workflow_url: `${api}/actions/workflows/${hash(`${r.owner}/${r.name}/${x.workflow}`)}`,
      head_commit: null,
      repository: repo,
      head_repository: repo,
    };
  }

  private userJson(login: string): Json {
    const u = this.user(login);
    const api = `${this.url}/users/${encodeURIComponent(login)}`;
    return {
      login: u.login,
      id: u.id,
      node_id: `U_${u.id}`,
      avatar_url: `${HTML}/avatars/${u.id}`,
      gravatar_id: '',
      url: api,
      html_url: `${HTML}/${encodeURIComponent(login)}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: u.type,
      site_admin: false,
    };
  }

  private association(r: RepoState, login: string): string {
    return r.associations.get(login) ?? 'NONE';
  }

  private labelJson(r: RepoState, name: string): Json {
    const l = r.labels.get(name) ?? { name, color: 'ededed', description: null };
    return {
      id: hash(name),
      node_id: `LA_${hash(name)}`,
      url: `${this.url}/repos/${r.owner}/${r.name}/labels/${encodeURIComponent(name)}`,
      name,
      color: l.color,
      default: false,
      description: l.description,
    };
  }

  private milestoneJson(r: RepoState, m: Milestone): Json {
    const base = `${this.url}/repos/${r.owner}/${r.name}/milestones/${m.number}`;
    const issues = [...r.issues.values()].filter((i) => i.milestone === m.number);
    return {
      url: base,
      html_url: `${HTML}/${r.owner}/${r.name}/milestone/${m.number}`,
      labels_url: `${base}/labels`,
      id: 5000 + m.number,
      node_id: `MI_${m.number}`,
      number: m.number,
      state: m.state,
      title: m.title,
      description: m.description,
      creator: this.userJson(r.owner),
      open_issues: issues.filter((i) => i.state === 'open').length,
      closed_issues: issues.filter((i) => i.state === 'closed').length,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      closed_at: null,
      due_on: null,
    };
  }

  private issueJson(r: RepoState, i: Issue): Json {
    const base = `${this.url}/repos/${r.owner}/${r.name}/issues/${i.number}`;
    const kind = i.pull ? 'pull' : 'issues';
    const data: Json = {
      id: 100000 + i.number,
      node_id: i.pull ? pullNodeId(`${r.owner}/${r.name}`, i.number) : issueNodeId(`${r.owner}/${r.name}`, i.number),
      url: base,
      repository_url: `${this.url}/repos/${r.owner}/${r.name}`,
      labels_url: `${base}/labels{/name}`,
      comments_url: `${base}/comments`,
      events_url: `${base}/events`,
      html_url: `${HTML}/${r.owner}/${r.name}/${kind}/${i.number}`,
      number: i.number,
      state: i.state,
      title: i.title,
      body: i.body,
      user: this.userJson(i.user),
      labels: i.labels.map((l) => this.labelJson(r, l)),
      assignee: null,
      assignees: [],
      milestone: i.milestone && r.milestones.has(i.milestone) ? this.milestoneJson(r, r.milestones.get(i.milestone)!) : null,
      locked: false,
      active_lock_reason: null,
      comments: r.comments.filter((c) => c.issue === i.number).length,
      created_at: i.created_at,
      updated_at: i.updated_at,
      closed_at: i.closed_at,
      state_reason: i.state_reason ?? (i.state === 'closed' ? 'completed' : null),
      author_association: this.association(r, i.user),
    };
    if (i.pull) {
      data.pull_request = {
        url: `${this.url}/repos/${r.owner}/${r.name}/pulls/${i.number}`,
        html_url: `${HTML}/${r.owner}/${r.name}/pull/${i.number}`,
        diff_url: `${HTML}/${r.owner}/${r.name}/pull/${i.number}.diff`,
        patch_url: `${HTML}/${r.owner}/${r.name}/pull/${i.number}.patch`,
        merged_at: null,
      };
    }
    return data;
  }

  private commentJson(r: RepoState, c: Comment): Json {
    const issue = r.issues.get(c.issue);
    const kind = issue?.pull ? 'pull' : 'issues';
    return {
      id: c.id,
      node_id: `IC_${c.id}`,
      url: `${this.url}/repos/${r.owner}/${r.name}/issues/comments/${c.id}`,
      html_url: `${HTML}/${r.owner}/${r.name}/${kind}/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${this.url}/repos/${r.owner}/${r.name}/issues/${c.issue}`,
      body: c.body,
      user: this.userJson(c.user),
      created_at: c.created_at,
      updated_at: c.updated_at,
      author_association: this.association(r, c.user),
    };
  }

  private gistJson(g: Gist, withContent: boolean): Json {
    const files: Json = {};
    for (const [name, f] of Object.entries(g.files)) {
      files[name] = {
        filename: name,
        type: 'text/markdown',
        language: 'Markdown',
        raw_url: `https://gist.githubusercontent.example/${g.owner}/${g.id}/raw/${encodeURIComponent(name)}`,
        size: Buffer.byteLength(f.content),
        ...(withContent ? { content: f.content, truncated: false } : {}),
      };
    }
    return {
      url: `${this.url}/gists/${g.id}`,
      forks_url: `${this.url}/gists/${g.id}/forks`,
      commits_url: `${this.url}/gists/${g.id}/commits`,
      id: g.id,
      node_id: `G_${g.id}`,
      git_pull_url: `https://gist.github.example/${g.id}.git`,
      git_push_url: `https://gist.github.example/${g.id}.git`,
      html_url: `https://gist.github.example/${g.owner}/${g.id}`,
      files,
      public: g.public,
      created_at: g.created_at,
      updated_at: g.created_at,
      description: g.description,
      comments: 0,
      user: null,
      comments_url: `${this.url}/gists/${g.id}/comments`,
      owner: this.userJson(g.owner),
      truncated: false,
    };
  }

  private pullJson(r: RepoState, pr: Issue): Json {
    const pull = pr.pull ?? { body: null, head: '' };
    const headRepo = pull.headRepository ?? `${r.owner}/${r.name}`;
    const data = {
      ...this.issueJson(r, pr),
      node_id: pullNodeId(`${r.owner}/${r.name}`, pr.number),
      body: pull.body,
      head: {
        ref: pull.head,
        sha: pull.sha,
        label: `${headRepo.split('/')[0]}:${pull.head}`,
        user: this.userJson(pr.user),
        repo: { full_name: headRepo, name: headRepo.split('/')[1], fork: headRepo !== `${r.owner}/${r.name}` },
      },
      base: { ref: pull.base ?? 'main', sha: 'b'.repeat(40), label: `${r.owner}:${pull.base ?? 'main'}`, user: this.userJson(r.owner) },
    };
    delete data.pull_request;
    return data;
  }

  private statusJson(r: RepoState, x: CommitStatusRecord): Json {
    return {
      url: `${this.url}/repos/${r.owner}/${r.name}/statuses/${x.sha}`,
      avatar_url: null,
      id: x.id,
      node_id: `SC_${x.id}`,
      state: x.state,
      description: x.description,
      target_url: x.target_url,
      context: x.context,
      created_at: x.created_at,
      updated_at: x.created_at,
      creator: this.userJson(x.creator),
    };
  }

  /**
   * The two GraphQL queries the gate sends, each first held to GitHub's
   * published schema: a PR's closingIssuesReferences (keywords in its body
   * when it targets the default branch, plus sidebar links; `userLinkedOnly`
   * the sidebar's alone) and an issue's closedByPullRequestsReferences.
   */
  private graphqlQuery(body: Json, who: { login: string } | undefined): [number, Json] {
    const query = typeof body?.query === 'string' ? body.query : '';
    for (const e of validateGraphql(query)) {
      // The package's introspection JSON lags its SDL (schema.graphql): a field the SDL has is checked there instead.
      if (/^Cannot query field/.test(e.message) && sdlErrors(query).length === 0) continue;
      this.violations.push(`GraphQL: ${e.message ?? String(e)}`);
    }
    for (const c of unboundedConnections(query)) this.violations.push(`GraphQL: connection ${c} asked without first or last`);
    if (!who) return [401, { message: 'This endpoint requires you to be authenticated.' }];
    const v = body.variables ?? {};
    this.points += queryCost(query, v);
    const r = this.repos.get(`${v.owner}/${v.repo}`);
    const page = <T>(items: T[]) => {
      const start = v.after ? Number(v.after) : 0;
      const nodes = items.slice(start, start + 100);
      const end = start + nodes.length;
      return { pageInfo: { hasNextPage: end < items.length, endCursor: nodes.length ? String(end) : null }, nodes };
    };
    const issueNode = (x: { repository: string; number: number }) => ({ number: x.number, repository: { nameWithOwner: x.repository } });
    if (query.includes('query ForgeContextPage')) return this.contextPage(v);
    if (query.includes('query ForgeContext')) return this.contextQuery(v, page, query);
    if (query.includes('query ForgeSweep')) return this.sweepQuery(v, query, who.login);
    // `viewer` is a User: for an App installation token GitHub answers with the bot's login, `[bot]` and all.
    if (query.includes('query ForgeViewer')) return [200, { data: { viewer: { login: who.login } } }];
    if (query.includes('query Evidence')) {
      const data: Json = { nodes: [] };
      const errors: Json[] = [];
      if (v.withPull) {
        const [full, n] = Buffer.from(String(v.pull).replace(/^PR_/, ''), 'base64url').toString('utf8').split('#');
        const pr = this.repos.get(full)?.issues.get(Number(n));
        data.pull = pr?.pull
          ? {
              createdAt: pr.created_at,
              commits: { totalCount: pr.pull.commits ?? 1 },
              timelineItems: {
                nodes: (pr.pull.forcePushes ?? []).slice(-50).map((f) => ({ createdAt: f.at, afterCommit: { oid: f.sha } })),
              },
            }
          : null;
      }
      const comments = [...this.repos.values()].flatMap((repo) => repo.comments);
      const reviews = [...this.repos.values()].flatMap((repo) => repo.reviews);
      data.nodes = (v.ids as string[]).map((id) => {
        if (id.startsWith('I_') || id.startsWith('PR_')) {
          const [full, number] = fromNodeId(id);
          const found = this.repos.get(full)?.issues.get(number);
          if (!found) return null;
          const bot = (l: string) =>
            this.users.get(l)?.type === 'Bot' ? { __typename: 'Bot', login: l.replace(/\[bot\]$/, '') } : { __typename: 'User', login: l };
          return {
            id,
            lastEditedAt: found.bodyEditor ? found.updated_at : null,
            editor: found.bodyEditor ? bot(found.bodyEditor) : null,
            author: bot(found.user),
          };
        }
        if (this.droppedNodes.has(id)) {
          errors.push({ type: 'INTERNAL', path: ['nodes'], message: `Something went wrong while executing your query (${id})` });
          return null;
        }
        const c = id.startsWith('IC_') ? comments.find((x) => x.id === Number(id.slice(3))) : undefined;
        const rv = id.startsWith('PRR_') ? reviews.find((x) => x.id === Number(id.slice(4))) : undefined;
        const user = c?.user ?? rv?.user;
        if (!user) return null;
        // GraphQL names a bot by its app's slug, without REST's [bot].
        const actor = (l: string) =>
          this.users.get(l)?.type === 'Bot' ? { __typename: 'Bot', login: l.replace(/\[bot\]$/, '') } : { __typename: 'User', login: l };
        return {
          id,
          isMinimized: !!c?.hidden,
          minimizedReason: c?.hidden ?? null,
          lastEditedAt: c?.editor ? c.updated_at : null,
          editor: c?.editor ? actor(c.editor) : null,
          author: actor(user),
        };
      });
      return [200, errors.length ? { data, errors } : { data }];
    }
    if (query.includes('mergeQueue')) {
      if (!r) return [200, { data: { repository: null } }];
      const queue = r.mergeQueue.get(v.branch);
      if (!queue) return [200, { data: { repository: { mergeQueue: null } } }];
      const entries = page(queue.map((e, i) => ({ position: i + 1, headCommit: { oid: e.head }, pullRequest: { number: e.pull } })));
      return [200, { data: { repository: { mergeQueue: { entries } } } }];
    }
    if (query.includes('closingIssuesReferences')) {
      const pr = r?.issues.get(v.number);
      const defaultBranchRef = r ? { name: r.defaultBranch } : null;
      if (!r || !pr?.pull) return [200, { data: { repository: r ? { defaultBranchRef, pullRequest: null } : null } }];
      const full = `${r.owner}/${r.name}`;
      const sidebar = r.sidebar.get(pr.number) ?? [];
      // A new PR's keyword links arrive some seconds after it opens: until then GitHub lists none.
      const delay = r.linkDelay.get(pr.number) ?? 0;
      if (delay > 0) r.linkDelay.set(pr.number, delay - 1);
      const lag = r.lastLinkDelay.get(pr.number) ?? 0;
      if (lag > 0) r.lastLinkDelay.set(pr.number, lag - 1);
      const keyword =
        delay === 0 && (pr.pull.base ?? 'main') === r.defaultBranch
          ? closingIssues(pr.pull.body ?? '', full)
              .slice(0, lag > 0 ? -1 : undefined)
              .map((number) => ({ repository: full, number }))
          : [];
      const all = [...keyword, ...sidebar.filter((s) => !keyword.some((k) => k.number === s.number && k.repository === s.repository))];
      // A node the token cannot see is null, with an error beside the data; every other node is there.
      const errors: Json[] = [];
      const nodeOrNull = (x: { repository: string; number: number }) => {
        if (!this.unreadableRepos.has(x.repository)) return issueNode(x);
        errors.push({
          type: 'FORBIDDEN',
          path: ['repository', 'pullRequest', 'closingIssuesReferences', 'nodes'],
          message: `Resource not accessible: ${x.repository}`,
        });
        return null;
      };
      const pullRequest: Json = { closingIssuesReferences: page(all.map(nodeOrNull)) };
      // `linked: closingIssuesReferences(userLinkedOnly: true) @include(if: $withLinked)`: the sidebar's links alone.
      if (v.withLinked)
        pullRequest.linked = {
          pageInfo: { hasNextPage: sidebar.length > 100, endCursor: null },
          nodes: sidebar.slice(0, 100).map(nodeOrNull),
        };
      return [200, { data: { repository: { defaultBranchRef, pullRequest } }, ...(errors.length ? { errors } : {}) }];
    }
    if (query.includes('closedByPullRequestsReferences')) {
      const found = r?.issues.get(v.number);
      // The pipeline file when the query asks for it (IssuePulls' first page), from the default branch.
      const file =
        r && query.includes('pipelineFile:')
          ? { defaultBranchRef: { name: r.defaultBranch }, pipelineFile: this.blobAt(r, 'HEAD:.github/forge.yml') }
          : {};
      // GitHub answers a number with nothing behind it with null and a NOT_FOUND error beside the data.
      if (!r || !found)
        return [
          200,
          {
            data: { repository: r ? { ...file, issueOrPullRequest: null } : null },
            errors: [
              {
                type: 'NOT_FOUND',
                path: ['repository', r ? 'issueOrPullRequest' : ''],
                message: `Could not resolve to an issue or pull request with the number of ${v.number}.`,
              },
            ],
          },
        ];
      if (found.pull) return [200, { data: { repository: { ...file, issueOrPullRequest: { __typename: 'PullRequest' } } } }];
      const full = `${r.owner}/${r.name}`;
      const closing = [...this.repos.values()].flatMap((repo) =>
        [...repo.issues.values()]
          .filter((i) => i.pull && i.state === 'open')
          .map((i) => {
            const sidebar = (repo.sidebar.get(i.number) ?? []).some((s) => s.repository === full && s.number === v.number);
            // A new PR's keyword links arrive some seconds after it opens, on the issue's side too.
            const delay = repo.linkDelay.get(i.number) ?? 0;
            if (delay > 0) repo.linkDelay.set(i.number, delay - 1);
            const keyword =
              delay === 0 && `${repo.owner}/${repo.name}` === full && (i.pull?.base ?? 'main') === repo.defaultBranch
                ? closingIssues(i.pull?.body ?? '', full)
                : [];
            return { i, repo, sidebar, closes: sidebar || keyword.includes(v.number) };
          })
          .filter((x) => x.closes),
      );
      const node = (x: (typeof closing)[number]) => {
        const bot = this.users.get(x.i.user)?.type === 'Bot';
        return {
          number: x.i.number,
          state: 'OPEN',
          // GraphQL names a bot by its app's slug, without REST's [bot].
          author: { __typename: bot ? 'Bot' : 'User', login: bot ? x.i.user.replace(/\[bot\]$/, '') : x.i.user },
          authorAssociation: this.association(x.repo, x.i.user),
          repository: { nameWithOwner: `${x.repo.owner}/${x.repo.name}` },
        };
      };
      const issue: Json = { __typename: 'Issue', closedByPullRequestsReferences: page(closing.map(node)) };
      if (v.withLinked)
        issue.linked = {
          pageInfo: { hasNextPage: false, endCursor: null },
          nodes: closing
            .filter((x) => x.sidebar)
            .map((x) => ({ number: x.i.number, repository: { nameWithOwner: `${x.repo.owner}/${x.repo.name}` } })),
        };
      return [200, { data: { repository: { ...file, issueOrPullRequest: issue } } }];
    }
    return [200, { errors: [{ message: 'this fake answers two queries only' }] }];
  }

  /**
   * The gate's snapshot queries (ForgeGate, ForgeGateIssue), executed against
   * GitHub's published SDL over this fake's records: what a field is asked
   * with (aliases, fragments, arguments) decides what comes back, as on
   * GitHub. Points are charged by GitHub's formula and reported in
   * rateLimit { cost }; `points` sums them.
   */
  private async gateAnswer(body: Json, who: { login: string; kind: 'app' | 'user' } | undefined): Promise<[number, Json]> {
    const query = String(body?.query ?? '');
    for (const e of validateGraphql(query)) {
      if (/^Cannot query field/.test(e.message) && sdlErrors(query).length === 0) continue;
      this.violations.push(`GraphQL: ${e.message ?? String(e)}`);
    }
    for (const c of unboundedConnections(query)) this.violations.push(`GraphQL: connection ${c} asked without first or last`);
    if (!who) return [401, { message: 'This endpoint requires you to be authenticated.' }];
    const variables = (body.variables ?? {}) as Json;
    const cost = queryCost(query, variables);
    this.points += cost;
    const fail = (type: string, message: string) => {
      throw new GitHubGraphqlError(type, message);
    };
    // An item of a list that GitHub could not answer: null in the list, its error beside the data.
    const refused = (type: string, message: string) => ({
      // biome-ignore lint/suspicious/noThenProperty: graphql-js completes a list item that is a thenable; this one rejects.
      then: (_ok: unknown, no: (e: unknown) => void) => no(new GitHubGraphqlError(type, message)),
    });
    // Cursors are indexes: `after` starts a page there, `before` ends one there.
    const conn = <T>(items: T[], args: Json) => {
      const backward = !!args.last && !args.first;
      const size = Number(args.first ?? args.last ?? 100);
      const end = backward ? Math.min(items.length, args.before != null ? Number(args.before) : items.length) : 0;
      const start = backward ? Math.max(0, end - size) : args.after ? Number(args.after) : 0;
      const nodes = backward ? items.slice(start, end) : items.slice(start, start + size);
      const stop = start + nodes.length;
      return {
        totalCount: items.length,
        pageInfo: {
          hasNextPage: stop < items.length,
          endCursor: nodes.length ? String(stop) : null,
          hasPreviousPage: start > 0,
          startCursor: nodes.length ? String(start) : null,
        },
        nodes,
      };
    };
    const statusOf = (r: RepoState, sha: string) => {
      const newest = new Map<string, CommitStatusRecord>();
      for (const x of r.statuses.filter((st) => st.sha === sha).reverse())
        if (!newest.has(x.context.toLowerCase())) newest.set(x.context.toLowerCase(), x);
      if (newest.size === 0) return null;
      return {
        contexts: [...newest.values()].map((x) => ({
          context: x.context,
          state: x.state.toUpperCase(),
          description: x.description,
          targetUrl: x.target_url,
          createdAt: x.created_at,
        })),
      };
    };
    const comments = (r: RepoState, number: number) =>
      r.comments
        .filter((c) => c.issue === number)
        .map((c) =>
          this.droppedNodes.has(`IC_${c.id}`)
            ? refused('INTERNAL', `Something went wrong while executing your query (IC_${c.id})`)
            : this.commentNode(r, c),
        );
    const thread = (r: RepoState, i: Issue) => {
      const base = this.threadNode(r, i, (x) => x);
      return {
        ...base,
        labels: (args: Json) =>
          conn(
            i.labels.map((name) => ({ name })),
            args,
          ),
        comments: (args: Json) => conn(comments(r, i.number), args),
        milestone: i.milestone !== null ? { number: i.milestone, title: r.milestones.get(i.milestone)?.title ?? '' } : null,
      };
    };
    const issueObj = (r: RepoState, i: Issue) => ({
      ...thread(r, i),
      state: i.state.toUpperCase(),
      stateReason: i.state_reason ? i.state_reason.toUpperCase() : null,
    });
    const ref = (x: { repository: string; number: number }) => {
      const repo = this.repos.get(x.repository);
      const issue = repo?.issues.get(x.number);
      if (this.unreadableRepos.has(x.repository)) return refused('FORBIDDEN', `Resource not accessible: ${x.repository}`);
      if (!repo || !issue) return refused('NOT_FOUND', `Could not resolve ${x.repository}#${x.number}`);
      return issueObj(repo, issue);
    };
    const pullObj = (r: RepoState, i: Issue) => {
      const pull = i.pull as NonNullable<Issue['pull']>;
      const full = `${r.owner}/${r.name}`;
      const sha = pull.sha ?? '';
      // A new PR's keyword links arrive some seconds after it opens: each query for its links finds none until then.
      const refs = this.closingRefs(r, i);
      const delay = r.linkDelay.get(i.number) ?? 0;
      if (delay > 0) r.linkDelay.set(i.number, delay - 1);
      const lag = r.lastLinkDelay.get(i.number) ?? 0;
      if (lag > 0) r.lastLinkDelay.set(i.number, lag - 1);
      const sidebar = r.sidebar.get(i.number) ?? [];
      return {
        ...thread(r, i),
        state: i.state === 'open' ? 'OPEN' : 'CLOSED',
        headRefName: pull.head,
        headRefOid: sha,
        baseRefName: pull.base ?? 'main',
        headRepository: { nameWithOwner: pull.headRepository ?? full },
        reviews: (args: Json) =>
          conn(
            r.reviews
              .filter((x) => x.pull === i.number)
              .map((x) => ({ ...this.reviewNode(r, x), commit: x.commit ? { oid: x.commit } : null })),
            args,
          ),
        commits: (args: Json) =>
          args.last
            ? { totalCount: pull.commits ?? 1, nodes: [{ commit: { oid: sha, status: statusOf(r, sha) } }] }
            : { totalCount: pull.commits ?? 1, nodes: [] },
        timelineItems: (args: Json) =>
          conn(
            (pull.forcePushes ?? []).map((f) => ({ __typename: 'HeadRefForcePushedEvent', createdAt: f.at, afterCommit: { oid: f.sha } })),
            args,
          ),
        closingIssuesReferences: (args: Json) => conn((args.userLinkedOnly ? sidebar : refs).map(ref), args),
      };
    };
    const repository = (args: Json) => {
      const full = `${args.owner}/${args.name}`;
      const r = this.repos.get(full);
      if (!r || this.unreadableRepos.has(full)) return fail('NOT_FOUND', `Could not resolve to a Repository with the name '${full}'.`);
      return {
        nameWithOwner: full,
        defaultBranchRef: { name: r.defaultBranch },
        pullRequest: (a: Json) => {
          const i = r.issues.get(Number(a.number));
          return i?.pull ? pullObj(r, i) : fail('NOT_FOUND', `Could not resolve to a PullRequest with the number of ${a.number}.`);
        },
        issue: (a: Json) => {
          const i = r.issues.get(Number(a.number));
          return i && !i.pull ? issueObj(r, i) : fail('NOT_FOUND', `Could not resolve to an Issue with the number of ${a.number}.`);
        },
        issueOrPullRequest: (a: Json) => {
          const i = r.issues.get(Number(a.number));
          if (!i) return fail('NOT_FOUND', `Could not resolve to an issue or pull request with the number of ${a.number}.`);
          return i.pull ? { __typename: 'PullRequest', ...pullObj(r, i) } : { __typename: 'Issue', ...issueObj(r, i) };
        },
        pullRequests: (a: Json) =>
          conn(
            [...r.issues.values()]
              .filter((i) => i.pull && i.state === 'open')
              .map((i) => ({
                number: i.number,
                headRefOid: i.pull?.sha ?? '',
                author: this.actorNode(i.user),
                authorAssociation: this.association(r, i.user),
              })),
            a,
          ),
        object: (a: Json) =>
          a.expression !== undefined && a.expression !== null
            ? this.blobAt(r, String(a.expression))
            : { __typename: 'Commit', oid: String(a.oid), status: statusOf(r, String(a.oid)) },
      };
    };
    const root = {
      // A thread by its global id (reading a thread from its end, 100 comments a request).
      node: (a: Json) => {
        const [full, number] = fromNodeId(String(a.id));
        const r = this.repos.get(full);
        const i = r?.issues.get(number);
        if (!r || !i) return null;
        return i.pull ? { __typename: 'PullRequest', ...pullObj(r, i) } : { __typename: 'Issue', ...issueObj(r, i) };
      },
      rateLimit: { cost, remaining: 4999 },
      // `viewer` is a User: for an App installation token GitHub answers with the bot's login, `[bot]` and all.
      viewer: { __typename: 'User', login: who.login },
      repository,
    };
    return [200, await executeQuery(query, variables, root)];
  }

  /** GraphQL's actor: a bot is named by its app's slug, without REST's [bot]. */
  private actorNode(login: string): Json {
    return this.users.get(login)?.type === 'Bot'
      ? { __typename: 'Bot', login: login.replace(/\[bot\]$/, '') }
      : { __typename: 'User', login };
  }

  private commentNode(r: RepoState, c: Comment): Json {
    const json = this.commentJson(r, c);
    return {
      id: `IC_${c.id}`,
      fullDatabaseId: String(c.id),
      url: json.html_url,
      body: c.body,
      createdAt: c.created_at,
      author: this.actorNode(c.user),
      authorAssociation: this.association(r, c.user),
      isMinimized: !!c.hidden,
      minimizedReason: c.hidden ?? null,
      editor: c.editor ? this.actorNode(c.editor) : null,
    };
  }

  private reviewNode(r: RepoState, rv: Review): Json {
    return {
      id: `PRR_${rv.id}`,
      fullDatabaseId: String(rv.id),
      url: `${HTML}/${r.owner}/${r.name}/pull/${rv.pull}#pullrequestreview-${rv.id}`,
      body: rv.body,
      state: rv.state,
      submittedAt: rv.submitted_at,
      createdAt: rv.submitted_at ?? this.now(),
      author: this.actorNode(rv.user),
      authorAssociation: this.association(r, rv.user),
      isMinimized: false,
      minimizedReason: null,
      editor: null,
    };
  }

  /** An issue or PR as the ForgeContext query's thread fields ask for it: body, labels and the first 100 comments. */
  private threadNode(r: RepoState, i: Issue, page: <T>(items: T[]) => Json, errors?: { list: Json[]; path: string[] }): Json {
    const full = `${r.owner}/${r.name}`;
    // The reader's query: a comment GitHub fails to resolve is null, with an error naming where (a partial answer).
    const node = (c: Comment, index: number) => {
      const id = `IC_${c.id}`;
      if (!errors || !(this.droppedNodes.has(id) || this.droppedOnce.has(id))) return this.commentNode(r, c);
      this.droppedOnce.delete(id);
      errors.list.push({
        type: 'INTERNAL',
        path: [...errors.path, 'comments', 'nodes', index],
        message: `Something went wrong while executing your query (${id})`,
      });
      return null;
    };
    return {
      id: i.pull ? pullNodeId(full, i.number) : issueNodeId(full, i.number),
      number: i.number,
      url: `${HTML}/${full}/${i.pull ? 'pull' : 'issues'}/${i.number}`,
      title: i.title,
      body: (i.pull ? i.pull.body : i.body) ?? '',
      createdAt: i.created_at,
      state: i.pull ? (i.state === 'open' ? 'OPEN' : 'CLOSED') : i.state.toUpperCase(),
      author: this.actorNode(i.user),
      authorAssociation: this.association(r, i.user),
      editor: i.bodyEditor ? this.actorNode(i.bodyEditor) : null,
      labels: { nodes: i.labels.map((name) => ({ name })) },
      comments: page(r.comments.filter((c) => c.issue === i.number).map(node)),
      repository: { nameWithOwner: full },
    };
  }

  /**
   * The reader's query: an issue (with its parent) or a PR (with its reviews
   * and the issues it closes, each with its thread). A node the token cannot
   * see is null with an error beside the data, as GitHub answers.
   */
  private contextQuery(v: Json, page: <T>(items: T[]) => Json, query = ''): [number, Json] {
    const r = this.repos.get(`${v.owner}/${v.repo}`);
    const found = r?.issues.get(v.number);
    const rateLimit = { cost: 1, remaining: 4999 };
    if (!r || !found)
      return [
        200,
        {
          data: { rateLimit, repository: r ? { nameWithOwner: `${r.owner}/${r.name}`, issueOrPullRequest: null } : null },
          errors: [
            {
              type: 'NOT_FOUND',
              path: ['repository', 'issueOrPullRequest'],
              message: `Could not resolve to an issue or pull request with the number of ${v.number}.`,
            },
          ],
        },
      ];
    const full = `${r.owner}/${r.name}`;
    const errors: Json[] = [];
    const readable = (repo: string, path: string[]) => {
      if (!this.unreadableRepos.has(repo)) return true;
      errors.push({ type: 'FORBIDDEN', path, message: `Resource not accessible: ${repo}` });
      return false;
    };
    const node: Json = {
      __typename: found.pull ? 'PullRequest' : 'Issue',
      ...this.threadNode(r, found, page, { list: errors, path: ['repository', 'issueOrPullRequest'] }),
    };
    if (!found.pull) Object.assign(node, this.issueExtras(r, found, page, query, readable));
    else {
      node.reviews = page(r.reviews.filter((x) => x.pull === found.number).map((x) => this.reviewNode(r, x)));
      const refs = this.closingRefs(r, found);
      const nodes = refs.slice(0, v.first ?? 21).map((ref) => {
        const repo = this.repos.get(ref.repository);
        const issue = repo?.issues.get(ref.number);
        if (!repo || !issue || !readable(ref.repository, ['repository', 'issueOrPullRequest', 'closingIssuesReferences', 'nodes']))
          return null;
        return this.threadNode(repo, issue, page);
      });
      node.closingIssuesReferences = { totalCount: refs.length, nodes: nodes.slice(0, 21) };
      node.linked = {
        nodes: (r.sidebar.get(found.number) ?? [])
          .slice(0, 21)
          .map((x) => ({ number: x.number, repository: { nameWithOwner: x.repository } })),
      };
    }
    const data = {
      rateLimit,
      repository: {
        nameWithOwner: full,
        defaultBranchRef: { name: r.defaultBranch },
        pipelineFile: this.blobAt(r, 'HEAD:.github/forge.yml'),
        issueOrPullRequest: node,
      },
    };
    return [200, errors.length ? { data, errors } : { data }];
  }

  /** An issue's fields beyond its thread, as the reader asks them: its parent's thread and the open PRs that close it. */
  private issueExtras(
    r: RepoState,
    found: Issue,
    page: <T>(items: T[]) => Json,
    query: string,
    readable: (repo: string, path: string[]) => boolean,
    path: Array<string | number> = ['repository', 'issueOrPullRequest'],
  ): Json {
    const full = `${r.owner}/${r.name}`;
    const node: Json = {};
    const p = found.parent;
    const pr = p ? this.repos.get(p.repository) : undefined;
    const parent = p && pr ? pr.issues.get(p.number) : undefined;
    node.parent = p && pr && parent && readable(p.repository, [...path, 'parent'] as string[]) ? this.threadNode(pr, parent, page) : null;
    // The open PRs that close the issue (keyword or sidebar), each with its thread and reviews, as `closedBy` asks.
    if (/closedBy:/.test(query)) {
      const closing = [...r.issues.values()].filter(
        (i) => i.pull && i.state === 'open' && this.closingRefs(r, i).some((x) => x.repository === full && x.number === found.number),
      );
      const first = Number(/closedBy: closedByPullRequestsReferences\(first: (\d+)/.exec(query)?.[1] ?? 100);
      node.closedBy = {
        totalCount: closing.length,
        nodes: closing.slice(0, first).map((i) => ({
          ...this.threadNode(r, i, page),
          reviews: page(r.reviews.filter((x) => x.pull === i.number).map((x) => this.reviewNode(r, x))),
        })),
      };
      node.closedByLinked = {
        nodes: closing
          .filter((i) => (r.sidebar.get(i.number) ?? []).some((x) => x.repository === full && x.number === found.number))
          .slice(0, first)
          .map((i) => ({ number: i.number, repository: { nameWithOwner: full } })),
      };
    }
    return node;
  }

  /**
   * The dispatcher's sweep: the repository's open issues, a page at a time,
   * each with what the reader's query asks of one issue; and, alongside, the
   * open PRs (number, body, author) while `withPulls` says so.
   */
  private sweepQuery(v: Json, query: string, viewer: string): [number, Json] {
    const r = this.repos.get(`${v.owner}/${v.repo}`);
    const rateLimit = { cost: 1, remaining: 4999 };
    if (!r)
      return [
        200,
        {
          data: { rateLimit, repository: null },
          errors: [{ type: 'NOT_FOUND', path: ['repository'], message: 'Could not resolve to a Repository.' }],
        },
      ];
    const full = `${r.owner}/${r.name}`;
    const errors: Json[] = [];
    const nested = <T>(items: T[]) => {
      const nodes = items.slice(0, 100);
      return { pageInfo: { hasNextPage: items.length > 100, endCursor: nodes.length ? String(nodes.length) : null }, nodes };
    };
    const slice = <T>(items: T[], after: unknown, first: number) => {
      const start = after ? Number(after) : 0;
      const nodes = items.slice(start, start + first);
      const end = start + nodes.length;
      return { nodes, pageInfo: { hasNextPage: end < items.length, endCursor: nodes.length ? String(end) : null } };
    };
    const open = [...r.issues.values()].filter((i) => !i.pull && i.state === 'open').sort((a, b) => a.number - b.number);
    const first = Number(v.first);
    const issues = slice(open, v.after, first);
    const readable = (repo: string, path: string[]) => {
      if (!this.unreadableRepos.has(repo)) return true;
      errors.push({ type: 'FORBIDDEN', path, message: `Resource not accessible: ${repo}` });
      return false;
    };
    const nodes = issues.nodes.map((i, index) => {
      const path = ['repository', 'issues', 'nodes', index];
      return {
        ...this.threadNode(r, i, nested, { list: errors, path: path as string[] }),
        ...this.issueExtras(r, i, nested, query, readable, path),
      };
    });
    const repository: Json = {
      nameWithOwner: full,
      defaultBranchRef: { name: r.defaultBranch },
      pipelineFile: this.blobAt(r, 'HEAD:.github/forge.yml'),
      issues: { pageInfo: issues.pageInfo, totalCount: open.length, nodes },
    };
    if (v.withPulls) {
      const pulls = [...r.issues.values()].filter((i) => i.pull && i.state === 'open').sort((a, b) => a.number - b.number);
      const listed = slice(pulls, v.pullsAfter, 100);
      repository.openPulls = {
        pageInfo: listed.pageInfo,
        nodes: listed.nodes.map((i) => ({
          number: i.number,
          body: i.pull?.body ?? '',
          author: this.actorNode(i.user),
          authorAssociation: this.association(r, i.user),
        })),
      };
    }
    const data = { rateLimit, viewer: { login: viewer }, repository };
    return [200, errors.length ? { data, errors } : { data }];
  }

  /** `object(expression: "HEAD:path")`: a file of the default branch as a Blob (HEAD is the default branch); null when absent. */
  private blobAt(r: RepoState, expression: string): Json | null {
    const m = /^(?:HEAD|([^:]+)):(.+)$/.exec(expression);
    if (!m || (m[1] !== undefined && m[1] !== r.defaultBranch)) return null;
    const text = r.files.get(m[2]);
    if (text === undefined) return null;
    return { __typename: 'Blob', text, isBinary: false, isTruncated: false, byteSize: Buffer.byteLength(text) };
  }

  /** The reader's next page of one thread's comments or reviews, by the thread's global id. */
  private contextPage(v: Json): [number, Json] {
    const [full, number] = fromNodeId(String(v.id));
    const r = this.repos.get(full);
    const issue = r?.issues.get(number);
    if (!r || !issue) return [200, { data: { rateLimit: { cost: 1, remaining: 4999 }, node: null } }];
    const start = v.after ? Number(v.after) : 0;
    const items: Json[] = v.reviews
      ? r.reviews.filter((x) => x.pull === number).map((x) => this.reviewNode(r, x))
      : r.comments.filter((c) => c.issue === number).map((c) => this.commentNode(r, c));
    const nodes = items.slice(start, start + 100);
    const end = start + nodes.length;
    const connection = { pageInfo: { hasNextPage: end < items.length, endCursor: nodes.length ? String(end) : null }, nodes };
    return [
      200,
      { data: { rateLimit: { cost: 1, remaining: 4999 }, node: v.reviews ? { reviews: connection } : { comments: connection } } },
    ];
  }

  /** Keyword links as GitHub lists them while the last one still lags (lastLinkDelay). */
  private lagging<T>(r: RepoState, pr: number, keyword: T[]): T[] {
    return (r.lastLinkDelay.get(pr) ?? 0) > 0 ? keyword.slice(0, -1) : keyword;
  }

  /** The issues a PR closes as GitHub links them: keywords in its body (into the default branch), then sidebar links. */
  private closingRefs(r: RepoState, pr: Issue): Array<{ repository: string; number: number }> {
    const full = `${r.owner}/${r.name}`;
    const delay = r.linkDelay.get(pr.number) ?? 0;
    const keyword = this.lagging(
      r,
      pr.number,
      delay === 0 && (pr.pull?.base ?? 'main') === r.defaultBranch
        ? closingIssues(pr.pull?.body ?? '', full).map((number) => ({ repository: full, number }))
        : [],
    );
    const sidebar = r.sidebar.get(pr.number) ?? [];
    return [...keyword, ...sidebar.filter((s) => !keyword.some((k) => k.number === s.number && k.repository === s.repository))];
  }

  // ---- HTTP --------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    // GitHub Enterprise Server's paths: REST under /api/v3, GraphQL at /api/graphql (both recorded as GitHub.com's).
    const enterprise = url.pathname.startsWith('/api/');
    if (enterprise) url.pathname = url.pathname === '/api/graphql' ? '/graphql' : url.pathname.replace(/^\/api\/v3(?=\/)/, '');
    const method = (req.method ?? 'GET').toUpperCase();
    let body: Json;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const auth = req.headers.authorization ?? '';
    const token = auth.replace(/^(token|bearer)\s+/i, '') || null;
    // GraphQL is held to GitHub's published schema instead (graphqlQuery below).
    if (url.pathname !== '/graphql')
      for (const spec of this.specs) this.violations.push(...spec.checkRequest(method, url.pathname, url.searchParams, body, raw !== ''));
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));

    const record: RequestRecord = { method, path: url.pathname, query: url.search, body, status: 0, token, enterprise };
    this.requests.push(record);
    const send = (status: number, data?: Json, headers: Record<string, string> = {}) => {
      this.inFlight--;
      record.status = status;
      // Time passes while GitHub answers: each response is a second after the last event.
      this.clock += 1000;
      const rate = this.rateHeaders(token);
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        date: new Date(this.clock + this.dateSkewMs).toUTCString(),
        ...rate,
        ...headers,
      });
      if (data !== undefined && status !== 204) {
        if (status < 300 && url.pathname !== '/graphql')
          this.violations.push(...this.specs[0].checkResponse(method, url.pathname, status, data));
        res.end(JSON.stringify(data));
      } else res.end();
    };

    // A GitHub Enterprise Server with rate limiting off answers `rateLimit` with an error beside the data.
    if (enterprise && this.ghesRateLimitOff && url.pathname === '/graphql' && /\brateLimit\b/.test(String((body as Json)?.query ?? '')))
      return send(200, {
        data: null,
        errors: [{ type: 'RATE_LIMITING_DISABLED', path: ['rateLimit'], message: 'Rate limiting is not enabled on this instance.' }],
      });
    const fault = this.takeFault(method, url.pathname, false, body);
    if (fault)
      return send(
        fault.status,
        fault.body ?? { message: `Injected ${fault.status}`, documentation_url: 'https://docs.github.com/rest' },
        fault.headers,
      );

    const who = token ? this.tokens.get(token) : undefined;
    if (token && !who) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    // A read-only token still reads through GraphQL: a query is a POST, not a write.
    if (who?.readOnly && method !== 'GET' && method !== 'HEAD' && url.pathname !== '/graphql')
      return send(403, {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
        status: '403',
      });
    const key = token ?? 'anonymous';
    const left = this.rateLimit.get(key) ?? (token ? 5000 : this.anonymousLimit);
    if (left <= 0) {
      return send(
        403,
        { message: 'API rate limit exceeded.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' },
        {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
        },
      );
    }
    this.rateLimit.set(key, left - 1);

    try {
      const [status, data, headers] =
        url.pathname === '/graphql' &&
        method === 'POST' &&
        /query Forge(?:Gate|GateIssue|Thread|ThreadBefore|Pipeline)\b/.test(String(body?.query ?? ''))
          ? await this.gateAnswer(body, who)
          : this.route(method, url, body, who);
      const after = this.takeFault(method, url.pathname, true, body);
      if (after?.mutate) return send(status, after.mutate(data), headers);
      if (after) return send(after.status, after.body ?? { message: `Injected ${after.status}` }, after.headers);
      send(status, data, headers);
    } catch (e) {
      send(500, { message: `test server error: ${(e as Error).message}` });
    }
  }

  private takeFault(method: string, path: string, after: boolean, body?: Json): Fault | null {
    const query = typeof body?.query === 'string' ? body.query : '';
    const f = this.faults.find(
      (x) =>
        x.times > 0 &&
        !!x.after === after &&
        (!x.method || x.method === method) &&
        x.path.test(path) &&
        (!x.operation || x.operation.test(query)),
    );
    if (!f) return null;
    f.times--;
    return f;
  }

  private rateHeaders(token: string | null): Record<string, string> {
    const key = token ?? 'anonymous';
    const limit = token ? 5000 : this.anonymousLimit;
    const left = this.rateLimit.get(key) ?? limit;
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, left)),
      'x-ratelimit-used': String(limit - left),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
    };
  }

  private page<T>(url: URL, items: T[]): { slice: T[]; headers: Record<string, string> } {
    const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30)));
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const link = (p: number) => {
      const u = new URL(url.toString());
      u.searchParams.set('page', String(p));
      u.searchParams.set('per_page', String(perPage));
      return u.toString();
    };
    const rels: string[] = [];
    if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`);
    if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`);
    if (page < last) rels.push(`<${link(last)}>; rel="last"`);
    if (page > 1) rels.push(`<${link(1)}>; rel="first"`);
    return { slice, headers: rels.length ? { link: rels.join(', ') } : {} };
  }

  private notFound(): [number, Json] {
    return [404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }];
  }

  private route(
    method: string,
    url: URL,
    body: Json,
    who: { login: string; kind: 'app' | 'user' } | undefined,
  ): [number, Json, Record<string, string>?] {
    const p = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const conformed = (status: number, data: Json, headers?: Record<string, string>): [number, Json, Record<string, string>?] => {
      const schema = this.specs[0].responseSchema(method, url.pathname, status);
      return [status, schema ? conform(schema, data) : data, headers];
    };

    if (p[0] === 'gists') return this.routeGists(method, url, p, body, who, conformed);
    if (p[0] === 'graphql' && p.length === 1 && method === 'POST') return this.graphqlQuery(body, who);
    if (p[0] === 'user' && p.length === 1 && method === 'GET') {
      if (!who) return [401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' }];
      // An App installation token (the workflow's GITHUB_TOKEN) cannot read /user.
      if (who.kind === 'app')
        return [
          403,
          {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
            status: '403',
          },
        ];
      return conformed(200, {
        ...this.userJson(who.login),
        name: null,
        company: null,
        blog: null,
        location: null,
        email: null,
        hireable: null,
        bio: null,
        public_repos: 0,
        public_gists: 0,
        followers: 0,
        following: 0,
        created_at: '2020-01-01T00:00:00Z',
        updated_at: '2020-01-01T00:00:00Z',
      });
    }
    if (p[0] !== 'repos' || p.length < 3) return this.notFound();
    const r = this.repos.get(`${p[1]}/${p[2]}`);
    if (!r) return this.notFound();
    const rest = p.slice(3);
    const writer = who?.login ?? 'anonymous';

    // /repos/o/r/issues/comments[/id]
    if (rest[0] === 'issues' && rest[1] === 'comments') {
      if (rest.length === 2 && method === 'GET') {
        // `since`: comments created or edited at or after it (GitHub compares updated_at).
        const since = url.searchParams.get('since');
        const list = since ? r.comments.filter((c) => Date.parse(c.updated_at) >= Date.parse(since)) : r.comments;
        const { slice, headers } = this.page(url, list);
        return conformed(
          200,
          slice.map((c) => this.commentJson(r, c)),
          headers,
        );
      }
      const c = r.comments.find((x) => x.id === Number(rest[2]));
      if (!c) return this.notFound();
      if (method === 'GET') return conformed(200, this.commentJson(r, c));
      if (method === 'PATCH') {
        if (typeof body?.body !== 'string')
          return [422, { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }] }];
        if (body.body.length > 65536)
          return [
            422,
            {
              message: 'Validation Failed',
              errors: [
                { resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' },
              ],
            },
          ];
        c.body = body.body;
        c.updated_at = this.tick();
        this.touch(r, c.issue, c.updated_at);
        return conformed(200, this.commentJson(r, c));
      }
      if (method === 'DELETE') {
        r.comments.splice(r.comments.indexOf(c), 1);
        this.touch(r, c.issue);
        return [204, undefined];
      }
    }

    // POST /repos/{o}/{r}/issues: a new issue by the token's identity.
    if (rest[0] === 'issues' && rest.length === 1 && method === 'POST') {
      if (typeof body?.title !== 'string' || body.title === '')
        return [422, { message: 'Validation Failed', errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }] }];
      if (typeof body?.body === 'string' && body.body.length > 65536) return [422, { message: 'Validation Failed' }];
      const created = this.issue(`${r.owner}/${r.name}`, {
        title: body.title,
        body: typeof body.body === 'string' ? body.body : null,
        user: writer,
        labels: Array.isArray(body.labels) ? body.labels : [],
      });
      return conformed(201, this.issueJson(r, created));
    }

    if (rest[0] === 'issues' && rest.length === 1 && method === 'GET') {
      const state = url.searchParams.get('state') ?? 'open';
      const ms = url.searchParams.get('milestone');
      const since = url.searchParams.get('since');
      const labels = (url.searchParams.get('labels') ?? '').split(',').filter((l) => l !== '');
      let list = [...r.issues.values()].filter((i) => state === 'all' || i.state === state);
      if (ms === 'none') list = list.filter((i) => i.milestone === null);
      else if (ms === '*') list = list.filter((i) => i.milestone !== null);
      else if (ms) list = list.filter((i) => i.milestone === Number(ms));
      if (since) list = list.filter((i) => Date.parse(i.updated_at) >= Date.parse(since));
      // GitHub matches label names whatever their letter case.
      list = list.filter((i) => labels.every((l) => i.labels.some((x) => x.toLowerCase() === l.toLowerCase())));
      list.sort((a, b) => b.number - a.number);
      const { slice, headers } = this.page(url, list);
      return conformed(
        200,
        slice.map((i) => this.issueJson(r, i)),
        headers,
      );
    }

    if (rest[0] === 'issues' && rest.length >= 2) {
      const issue = r.issues.get(Number(rest[1]));
      if (!issue) return this.notFound();
      if (rest.length === 2) {
        if (method === 'GET') return conformed(200, this.issueJson(r, issue));
        if (method === 'PATCH') {
          if (typeof body?.body === 'string') {
            if (body.body.length > 65536) return [422, { message: 'Validation Failed' }];
            issue.body = body.body;
          }
          if (typeof body?.state === 'string') issue.state = body.state;
          if (typeof body?.state_reason === 'string') issue.state_reason = body.state_reason;
          // `labels` replaces the whole set, as GitHub's PATCH does (each change recorded as a label event).
          if (Array.isArray(body?.labels)) {
            const next = (body.labels as Json[]).map((l) => (typeof l === 'string' ? l : String(l?.name ?? '')));
            for (const n of next) if (!r.labels.has(n)) r.labels.set(n, { name: n, color: 'ededed', description: null });
            for (const gone of issue.labels.filter((l) => !next.includes(l)))
              r.labelEvents.push({
                id: this.nextId++,
                issue: issue.number,
                event: 'unlabeled',
                label: gone,
                actor: writer,
                created_at: this.tick(),
              });
            for (const added of next.filter((l) => !issue.labels.includes(l)))
              r.labelEvents.push({
                id: this.nextId++,
                issue: issue.number,
                event: 'labeled',
                label: added,
                actor: writer,
                created_at: this.tick(),
              });
            issue.labels = next;
          }
          this.touch(r, issue.number);
          return conformed(200, this.issueJson(r, issue));
        }
      }
      if (rest[2] === 'comments' && rest.length === 3) {
        if (method === 'GET') {
          const { slice, headers } = this.page(
            url,
            r.comments.filter((c) => c.issue === issue.number),
          );
          return conformed(
            200,
            slice.map((c) => this.commentJson(r, c)),
            headers,
          );
        }
        if (method === 'POST') {
          if (typeof body?.body !== 'string') return [422, { message: 'Validation Failed' }];
          if (body.body.length > 65536)
            return [
              422,
              { message: 'Validation Failed', errors: [{ code: 'custom', message: 'body is too long (maximum is 65536 characters)' }] },
            ];
          const at = this.tick();
          const c: Comment = { id: this.nextId++, issue: issue.number, user: writer, body: body.body, created_at: at, updated_at: at };
          r.comments.push(c);
          this.touch(r, issue.number, at);
          return conformed(201, this.commentJson(r, c));
        }
      }
      if (rest[2] === 'labels') {
        if (rest.length === 3 && method === 'POST') {
          const names: string[] = Array.isArray(body) ? body : (body?.labels ?? []);
          for (const n of names) {
            if (!r.labels.has(n)) r.labels.set(n, { name: n, color: 'ededed', description: null });
            if (!issue.labels.includes(n)) {
              issue.labels.push(n);
              r.labelEvents.push({
                id: this.nextId++,
                issue: issue.number,
                event: 'labeled',
                label: n,
                actor: writer,
                created_at: this.tick(),
              });
            }
          }
          this.touch(r, issue.number);
          return conformed(
            200,
            issue.labels.map((l) => this.labelJson(r, l)),
          );
        }
        if (rest.length === 4 && method === 'DELETE') {
          const name = rest[3];
          if (!issue.labels.includes(name))
            return [404, { message: 'Label does not exist', documentation_url: 'https://docs.github.com/rest' }];
          issue.labels = issue.labels.filter((l) => l !== name);
          r.labelEvents.push({
            id: this.nextId++,
            issue: issue.number,
            event: 'unlabeled',
            label: name,
            actor: writer,
            created_at: this.tick(),
          });
          this.touch(r, issue.number);
          return conformed(
            200,
            issue.labels.map((l) => this.labelJson(r, l)),
          );
        }
      }
    }

    // An issue's events, oldest first: here the label events (GitHub lists many kinds; a reader filters by `event`).
    if (rest[0] === 'issues' && rest[2] === 'events' && rest.length === 3 && method === 'GET') {
      const n = Number(rest[1]);
      if (!r.issues.has(n)) return this.notFound();
      const { slice, headers } = this.page(
        url,
        r.labelEvents.filter((e) => e.issue === n),
      );
      return conformed(
        200,
        slice.map((e) => ({
          id: e.id,
          node_id: `LE_${e.id}`,
          url: `${this.url}/repos/${r.owner}/${r.name}/issues/events/${e.id}`,
          actor: this.userJson(e.actor),
          event: e.event,
          commit_id: null,
          commit_url: null,
          created_at: e.created_at,
          performed_via_github_app: null,
          label: { name: e.label, color: r.labels.get(e.label)?.color ?? 'ededed' },
        })),
        headers,
      );
    }

    if (rest[0] === 'pulls' && rest[2] === 'reviews' && rest.length === 3 && method === 'GET') {
      const n = Number(rest[1]);
      if (!r.issues.get(n)?.pull) return this.notFound();
      const { slice, headers } = this.page(
        url,
        r.reviews.filter((x) => x.pull === n),
      );
      const html = `${HTML}/${r.owner}/${r.name}/pull/${n}`;
      return conformed(
        200,
        slice.map((x) => ({
          id: x.id,
          node_id: `PRR_${x.id}`,
          user: this.userJson(x.user),
          body: x.body,
          state: x.state,
          html_url: `${html}#pullrequestreview-${x.id}`,
          pull_request_url: `${this.url}/repos/${r.owner}/${r.name}/pulls/${n}`,
          _links: {
            html: { href: `${html}#pullrequestreview-${x.id}` },
            pull_request: { href: `${this.url}/repos/${r.owner}/${r.name}/pulls/${n}` },
          },
          // A pending review has no submitted_at at all.
          ...(x.submitted_at ? { submitted_at: x.submitted_at } : {}),
          commit_id: x.commit,
          author_association: this.association(r, x.user),
        })),
        headers,
      );
    }

    if (rest[0] === 'pulls' && rest.length === 2 && method === 'GET') {
      const pr = r.issues.get(Number(rest[1]));
      if (!pr?.pull) return this.notFound();
      return conformed(200, this.pullJson(r, pr));
    }

    if (rest[0] === 'pulls' && rest.length === 1 && method === 'GET') {
      const state = url.searchParams.get('state') ?? 'open';
      const head = url.searchParams.get('head');
      const list = [...r.issues.values()].filter(
        (i) =>
          i.pull &&
          (state === 'all' || i.state === state) &&
          (!head || `${(i.pull.headRepository ?? '').split('/')[0]}:${i.pull.head}`.toLowerCase() === head.toLowerCase()),
      );
      const { slice, headers } = this.page(url, list);
      return conformed(
        200,
        slice.map((i) => this.pullJson(r, i)),
        headers,
      );
    }

    // GitHub lists the PRs of a commit of this repository; a commit only a fork holds is in none.
    // workflow_dispatch (POST /repos/{o}/{r}/actions/workflows/{id}/dispatches): the workflow file must be on the ref
    // and declare every input given, as GitHub checks; 204 and no body.
    if (rest[0] === 'actions' && rest[1] === 'workflows' && rest[3] === 'dispatches' && rest.length === 4 && method === 'POST') {
      const file = r.files.get(`.github/workflows/${rest[2]}`);
      if (file === undefined) return this.notFound();
      if (typeof body?.ref !== 'string' || body.ref === '')
        return [422, { message: 'Invalid request.\n\n"ref" wasn\'t supplied.', documentation_url: 'https://docs.github.com/rest' }];
      if (body.ref !== r.defaultBranch)
        return [422, { message: `No ref found for: ${body.ref}`, documentation_url: 'https://docs.github.com/rest' }];
      const declared = Object.keys(YAML.parse(file)?.on?.workflow_dispatch?.inputs ?? {});
      const given = (body.inputs ?? {}) as Record<string, string>;
      const unexpected = Object.keys(given).filter((k) => !declared.includes(k));
      if (unexpected.length > 0)
        return [
          422,
          { message: `Unexpected inputs provided: ${JSON.stringify(unexpected)}`, documentation_url: 'https://docs.github.com/rest' },
        ];
      if (body.return_run_details !== undefined && r.noRunDetails)
        return [
          400,
          {
            message: 'Invalid request.\n\n"return_run_details" is not a permitted key.',
            documentation_url: 'https://docs.github.com/enterprise-server@3.17/rest',
          },
        ];
      if ((r.workflowStates.get(rest[2]) ?? 'active') !== 'active')
        return [
          422,
          { message: `Cannot trigger a 'workflow_dispatch' on a disabled workflow`, documentation_url: 'https://docs.github.com/rest' },
        ];
      r.dispatches.push({ workflow: rest[2], ref: body.ref, inputs: given, by: writer });
      const created = {
        id: this.nextId++,
        workflow: rest[2],
        status: 'queued',
        conclusion: null,
        created_at: this.tick(),
        actor: writer,
        inputs: given,
      };
      r.runs.push(created);
      if (body.return_run_details !== true) return [204, undefined];
      return conformed(200, {
        workflow_run_id: created.id,
        run_url: `${this.url}/repos/${r.owner}/${r.name}/actions/runs/${created.id}`,
        html_url: `${HTML}/${r.owner}/${r.name}/actions/runs/${created.id}`,
      });
    }

    // A workflow (GET …/actions/workflows/{file}): its state decides whether it takes a dispatch.
    if (rest[0] === 'actions' && rest[1] === 'workflows' && rest.length === 3 && method === 'GET') {
      if (!r.files.has(`.github/workflows/${rest[2]}`)) return this.notFound();
      return conformed(200, this.workflowJson(r, rest[2]));
    }
    // A workflow's runs, newest first, filtered by creation time (`created=>=ISO`) when asked.
    if (rest[0] === 'actions' && rest[1] === 'workflows' && rest[3] === 'runs' && rest.length === 4 && method === 'GET') {
      if (!r.files.has(`.github/workflows/${rest[2]}`)) return this.notFound();
      const created = (url.searchParams.get('created') ?? '').replace(/^>=/, '');
      const list = r.runs
        .filter((x) => x.workflow === rest[2] && (created === '' || Date.parse(x.created_at) >= Date.parse(created)))
        .reverse();
      const { slice } = this.page(url, list);
      return conformed(200, { total_count: list.length, workflow_runs: slice.map((x) => this.runJson(r, x)) });
    }
    // One run.
    if (rest[0] === 'actions' && rest[1] === 'runs' && rest.length === 3 && method === 'GET') {
      const x = r.runs.find((y) => y.id === Number(rest[2]));
      return x ? conformed(200, this.runJson(r, x)) : this.notFound();
    }

    // A file's contents (GET /repos/{o}/{r}/contents/{path}): the default branch unless ref names another.
    if (rest[0] === 'contents' && rest.length >= 2 && method === 'GET') {
      const path = rest.slice(1).join('/');
      const ref = url.searchParams.get('ref');
      const text = ref && ref !== r.defaultBranch ? undefined : r.files.get(path);
      if (text === undefined) return this.notFound();
      const api = `${this.url}/repos/${r.owner}/${r.name}`;
      const html = `https://github.example/${r.owner}/${r.name}/blob/${r.defaultBranch}/${path}`;
      const sha = createHash('sha1')
        .update(`blob ${Buffer.byteLength(text)}\0${text}`)
        .digest('hex');
      return conformed(200, {
        type: 'file',
        encoding: 'base64',
        size: Buffer.byteLength(text),
        name: path.split('/').pop() ?? path,
        path,
        content: Buffer.from(text)
          .toString('base64')
          .replace(/(.{60})/g, '$1\n'),
        sha,
        url: `${api}/contents/${path}`,
        git_url: `${api}/git/blobs/${sha}`,
        html_url: html,
        download_url: null,
        _links: { git: `${api}/git/blobs/${sha}`, html, self: `${api}/contents/${path}` },
      });
    }
    if (rest[0] === 'activity' && rest.length === 1 && method === 'GET') {
      if (r.activityRefused)
        return [403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' }];
      const ref = url.searchParams.get('ref');
      const type = url.searchParams.get('activity_type');
      const wanted = r.activity.filter(
        (a) => (!ref || a.ref === ref || a.ref === `refs/heads/${ref}`) && (!type || a.activity_type === type),
      );
      // Newest first unless direction=asc, as GitHub lists it.
      const ordered = url.searchParams.get('direction') === 'asc' ? wanted : [...wanted].reverse();
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100);
      return conformed(
        200,
        ordered.slice(0, perPage).map((a) => ({
          id: a.id,
          node_id: `A_${a.id}`,
          before: a.before,
          after: a.after,
          ref: a.ref,
          timestamp: a.timestamp,
          activity_type: a.activity_type,
          actor: this.userJson(a.actor),
        })),
      );
    }
    if (rest[0] === 'commits' && rest[2] === 'pulls' && rest.length === 3 && method === 'GET') {
      const full = `${r.owner}/${r.name}`.toLowerCase();
      const list = [...r.issues.values()].filter((i) => i.pull?.sha === rest[1] && (i.pull.headRepository ?? full).toLowerCase() === full);
      return conformed(
        200,
        list.map((i) => this.pullJson(r, i)),
      );
    }

    if (rest[0] === 'commits' && rest[2] === 'statuses' && rest.length === 3 && method === 'GET') {
      const list = r.statuses.filter((x) => x.sha === rest[1]).reverse();
      const { slice, headers } = this.page(url, list);
      return conformed(
        200,
        slice.map((x) => this.statusJson(r, x)),
        headers,
      );
    }

    // The combined status: the newest status of each context, newest context first.
    if (rest[0] === 'commits' && rest[2] === 'status' && rest.length === 3 && method === 'GET') {
      const newest = new Map<string, CommitStatusRecord>();
      for (const x of r.statuses.filter((s) => s.sha === rest[1]).reverse()) if (!newest.has(x.context)) newest.set(x.context, x);
      const list = [...newest.values()];
      const { slice } = this.page(url, list);
      const state = list.some((x) => x.state === 'failure' || x.state === 'error')
        ? 'failure'
        : list.length > 0 && list.every((x) => x.state === 'success')
          ? 'success'
          : 'pending';
      return conformed(200, {
        state,
        sha: rest[1],
        total_count: list.length,
        statuses: slice.map((x) => this.statusJson(r, x)),
        repository: this.minimalRepository(r),
        commit_url: `${this.url}/repos/${r.owner}/${r.name}/commits/${rest[1]}`,
        url: `${this.url}/repos/${r.owner}/${r.name}/commits/${rest[1]}/status`,
      });
    }

    if (rest[0] === 'collaborators' && rest[2] === 'permission' && rest.length === 3 && method === 'GET') {
      const role = r.roles.get(rest[1]);
      if (!this.users.has(rest[1])) return this.notFound();
      const base = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : (role ?? 'read');
      return conformed(200, { permission: base, role_name: role ?? 'read', user: this.userJson(rest[1]) });
    }

    if (rest[0] === 'statuses' && rest.length === 2 && method === 'POST') {
      if (!['error', 'failure', 'pending', 'success'].includes(body?.state))
        return [422, { message: 'Validation Failed', errors: [{ resource: 'Status', code: 'custom', field: 'state' }] }];
      if (r.statuses.filter((x) => x.sha === rest[1] && x.context === (body.context ?? 'default')).length >= 1000)
        return [
          422,
          {
            message: 'Validation Failed',
            errors: [{ resource: 'Status', code: 'custom', message: 'This SHA and context has reached the maximum number of statuses.' }],
            documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
          },
        ];
      if (typeof body.description === 'string' && body.description.length > 140)
        return [
          422,
          {
            message: 'Validation Failed',
            errors: [
              { resource: 'Status', code: 'custom', field: 'description', message: 'description is too long (maximum is 140 characters)' },
            ],
          },
        ];
      const x: CommitStatusRecord = {
        id: this.nextId++,
        sha: rest[1],
        state: body.state,
        description: body.description ?? null,
        context: body.context ?? 'default',
        target_url: body.target_url ?? null,
        creator: writer,
        created_at: this.tick(),
      };
      r.statuses.push(x);
      return conformed(201, this.statusJson(r, x));
    }

    if (rest[0] === 'releases') {
      const json = (x: ReleaseRecord) => ({
        id: x.id,
        node_id: `RE_${x.id}`,
        url: `${this.url}/repos/${r.owner}/${r.name}/releases/${x.id}`,
        html_url: `${HTML}/${r.owner}/${r.name}/releases/${x.draft ? `tag/untagged-${x.id}` : `tag/${encodeURIComponent(x.tag_name)}`}`,
        assets_url: `${this.url}/repos/${r.owner}/${r.name}/releases/${x.id}/assets`,
        upload_url: `${this.url}/repos/${r.owner}/${r.name}/releases/${x.id}/assets{?name,label}`,
        tarball_url: null,
        zipball_url: null,
        tag_name: x.tag_name,
        target_commitish: 'main',
        name: x.name,
        body: x.body,
        draft: x.draft,
        prerelease: false,
        created_at: x.created_at,
        published_at: x.draft ? null : x.created_at,
        author: this.userJson(writer),
        assets: (x.assets ?? []).map((name, i) => ({
          url: `${this.url}/repos/${r.owner}/${r.name}/releases/assets/${x.id * 100 + i}`,
          browser_download_url: `${HTML}/${r.owner}/${r.name}/releases/download/untagged-${x.id}/${encodeURIComponent(name)}`,
          id: x.id * 100 + i,
          node_id: `RA_${x.id * 100 + i}`,
          name,
          label: null,
          state: 'uploaded',
          content_type: 'application/octet-stream',
          size: 1024,
          download_count: 0,
          created_at: x.created_at,
          updated_at: x.created_at,
          uploader: this.userJson(writer),
        })),
      });
      if (rest.length === 1 && method === 'GET') {
        const { slice, headers } = this.page(url, [...r.releases].reverse());
        return conformed(200, slice.map(json), headers);
      }
      if (rest.length === 1 && method === 'POST') {
        if (typeof body?.tag_name !== 'string' || body.tag_name === '')
          return [422, { message: 'Validation Failed', errors: [{ resource: 'Release', code: 'missing_field', field: 'tag_name' }] }];
        if (typeof body.body === 'string' && body.body.length > 125000)
          return [
            422,
            {
              message: 'Validation Failed',
              errors: [{ resource: 'Release', code: 'custom', field: 'body', message: 'body is too long (maximum is 125000 characters)' }],
            },
          ];
        const x: ReleaseRecord = {
          id: this.nextId++,
          tag_name: body.tag_name,
          name: body.name ?? null,
          body: body.body ?? null,
          draft: !!body.draft,
          created_at: this.tick(),
        };
        r.releases.push(x);
        return conformed(201, json(x));
      }
      const x = r.releases.find((y) => y.id === Number(rest[1]));
      if (!x) return this.notFound();
      if (rest.length === 2 && method === 'PATCH') {
        if (typeof body?.body === 'string' && body.body.length > 125000)
          return [
            422,
            {
              message: 'Validation Failed',
              errors: [{ resource: 'Release', code: 'custom', field: 'body', message: 'body is too long (maximum is 125000 characters)' }],
            },
          ];
        if (typeof body?.body === 'string') x.body = body.body;
        if (typeof body?.name === 'string') x.name = body.name;
        if (typeof body?.draft === 'boolean') x.draft = body.draft;
        // As users report: an edit of a draft that leaves the tag out resets it.
        x.tag_name = typeof body?.tag_name === 'string' ? body.tag_name : x.draft ? `untagged-${x.id}` : x.tag_name;
        return conformed(200, json(x));
      }
      if (rest.length === 2 && method === 'DELETE') {
        r.releases = r.releases.filter((y) => y.id !== x.id);
        return [204, {}];
      }
    }

    if (rest[0] === 'labels') {
      if (rest.length === 2 && method === 'GET') {
        return r.labels.has(rest[1]) ? conformed(200, this.labelJson(r, rest[1])) : this.notFound();
      }
      if (rest.length === 1 && method === 'POST') {
        if (r.labels.has(body?.name))
          return [422, { message: 'Validation Failed', errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }] }];
        r.labels.set(body.name, { name: body.name, color: body.color ?? 'ededed', description: body.description ?? null });
        return conformed(201, this.labelJson(r, body.name));
      }
    }

    if (rest[0] === 'milestones') {
      if (rest.length === 1 && method === 'GET') {
        const state = url.searchParams.get('state') ?? 'open';
        const list = [...r.milestones.values()].filter((m) => state === 'all' || m.state === state);
        const { slice, headers } = this.page(url, list);
        return conformed(
          200,
          slice.map((m) => this.milestoneJson(r, m)),
          headers,
        );
      }
      const m = r.milestones.get(Number(rest[1]));
      if (!m) return this.notFound();
      if (method === 'GET') return conformed(200, this.milestoneJson(r, m));
      if (method === 'PATCH') {
        if (typeof body?.description === 'string') m.description = body.description;
        return conformed(200, this.milestoneJson(r, m));
      }
    }
    return this.notFound();
  }

  private routeGists(
    method: string,
    url: URL,
    p: string[],
    body: Json,
    who: { login: string; kind: 'app' | 'user' } | undefined,
    conformed: (status: number, data: Json, headers?: Record<string, string>) => [number, Json, Record<string, string>?],
  ): [number, Json, Record<string, string>?] {
    // Gist endpoints refuse GitHub App installation tokens (NOTES.md §5).
    if (who?.kind === 'app')
      return [
        403,
        { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/gists/gists', status: '403' },
      ];
    if (p.length === 1) {
      if (method === 'GET') {
        if (!who) return [401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' }];
        const mine = [...this.gists.values()].filter((g) => g.owner === who.login);
        const { slice, headers } = this.page(url, mine);
        return conformed(
          200,
          slice.map((g) => this.gistJson(g, false)),
          headers,
        );
      }
      if (method === 'POST') {
        if (!who) return [401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' }];
        const files: Record<string, GistFile> = {};
        for (const [name, f] of Object.entries<Json>(body?.files ?? {})) files[name] = { content: f.content };
        if (Object.keys(files).length === 0) return [422, { message: 'Validation Failed' }];
        const g = this.gist(who.login, {
          description: body.description ?? null,
          public: body.public === true || body.public === 'true',
          files,
        });
        return conformed(201, this.gistJson(g, true));
      }
    }
    const g = this.gists.get(p[1]);
    if (p.length === 2) {
      if (!g) return this.notFound();
      if (method === 'GET') return conformed(200, this.gistJson(g, true));
      if (method === 'DELETE') {
        if (!who || who.login !== g.owner) return this.notFound();
        this.gists.delete(g.id);
        return [204, undefined];
      }
      if (method === 'PATCH') {
        if (!who || who.login !== g.owner) return this.notFound();
        for (const [name, f] of Object.entries<Json>(body?.files ?? {})) {
          if (f === null) delete g.files[name];
          else g.files[name] = { content: f.content };
        }
        if (typeof body?.description === 'string') g.description = body.description;
        return conformed(200, this.gistJson(g, true));
      }
    }
    return this.notFound();
  }
}

/** A PR's first head commit: 40 hex digits of its own, so commit → PR lookups have something to find. */
function defaultSha(full: string, number: number): string {
  return `${hash(`${full}#${number}`).toString(16)}${number.toString(16)}`.padEnd(40, '0').slice(0, 40);
}

function hash(s: string): number {
  let h = 7;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) % 1_000_000_007;
  return h;
}
