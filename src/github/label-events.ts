/**
 * Who put a label on an issue: GitHub's record of the label event (REST
 * `GET /repos/{owner}/{repo}/issues/{n}/events`), never the issue's text.
 * Read only for an item that carries an admitting label and whose author does
 * not already admit it, so a sweep of a thousand items asks this of the few a
 * maintainer labelled.
 */
import type { Labelled, Permission } from '../common/trust.js';
import type { Repo } from '../common/repo.js';
import type { GitHub } from './client.js';
import { api } from './errors.js';
import { readRole } from './permissions.js';

interface IssueEvent {
  event?: string;
  created_at?: string;
  actor?: { login?: string; type?: string } | null;
  label?: { name?: string } | null;
}

async function eventsOf(gh: GitHub, r: Repo, number: number): Promise<IssueEvent[]> {
  return (await api(`reading the label events of #${number}`, () =>
    gh.paginate(gh.rest.issues.listEvents, { ...r, issue_number: number, per_page: 100 }),
  )) as IssueEvent[];
}

/**
 * When a person last removed `label` from the issue (a bot's removal is no
 * person's decision); null when nobody did. The dispatcher counts a stage's
 * attempts from then: removing `needs-human` resumes the item with a fresh budget.
 */
export async function lastRemovedByPerson(gh: GitHub, r: Repo, number: number, label: string): Promise<string | null> {
  const events = await eventsOf(gh, r, number);
  const removed = events.filter(
    (e) =>
      e.event === 'unlabeled' &&
      (e.label?.name ?? '').toLowerCase() === label.toLowerCase() &&
      e.actor?.type !== 'Bot' &&
      !(e.actor?.login ?? '').endsWith('[bot]'),
  );
  return (
    removed
      .map((e) => e.created_at ?? '')
      .sort()
      .at(-1) || null
  );
}

/**
 * The newest `labeled` event of each of `labels` the issue carries now, with
 * the labeller's role here (read once per login per run, into `roles`),
 * newest first.
 */
export async function whoLabelled(
  gh: GitHub,
  r: Repo,
  number: number,
  labels: readonly string[],
  roles: Map<string, Permission | 'none'>,
): Promise<Labelled[]> {
  if (labels.length === 0) return [];
  const events = await eventsOf(gh, r, number);
  const wanted = new Set(labels.map((l) => l.toLowerCase()));
  // Events come oldest first: the last `labeled` of a label it still carries is the one that put it there.
  const newest = new Map<string, IssueEvent>();
  for (const e of events) {
    const name = (e.label?.name ?? '').toLowerCase();
    if (e.event === 'labeled' && wanted.has(name)) newest.set(name, e);
  }
  const out: Labelled[] = [];
  for (const e of [...newest.values()].sort((a, b) => ((a.created_at ?? '') < (b.created_at ?? '') ? 1 : -1))) {
    const login = e.actor?.login ?? '';
    if (login === '') continue;
    const bot = e.actor?.type === 'Bot' || login.endsWith('[bot]');
    out.push({
      label: e.label?.name ?? '',
      login,
      bot,
      role: bot ? 'none' : await readRole(gh, r, login, roles),
      at: e.created_at ?? null,
    });
  }
  return out;
}
