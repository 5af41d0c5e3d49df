/**
 * GitHub REST JSON → the neutral thread shapes. Used by the GitHub layer for
 * live reads and by `forge check` for a `gh api` export, so both read alike.
 */
import type { ThreadComment, WorkItem } from '../common/work-item.js';

type Json = Record<string, unknown>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function login(user: unknown): string | null {
  return user && typeof user === 'object' && typeof (user as Json).login === 'string' ? ((user as Json).login as string) : null;
}

export function toComment(raw: unknown): ThreadComment {
  const c = (raw ?? {}) as Json;
  return {
    id: typeof c.id === 'number' ? c.id : 0,
    url: str(c.html_url) || str(c.url),
    author: { login: login(c.user), association: str(c.author_association) || 'NONE' },
    // GitHub returns CRLF; the codec reads it as it comes.
    body: str(c.body),
    createdAt: typeof c.created_at === 'string' ? c.created_at : null,
    ...(typeof c.node_id === 'string' ? { nodeId: c.node_id } : {}),
  };
}

export function labelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  return labels.map((l) => (typeof l === 'string' ? l : l && typeof l === 'object' ? str((l as Json).name) : '')).filter((l) => l !== '');
}

export function toWorkItem(raw: unknown, comments: ThreadComment[]): WorkItem {
  const i = (raw ?? {}) as Json;
  const m = i.milestone as Json | null | undefined;
  return {
    number: typeof i.number === 'number' ? i.number : 0,
    kind: i.pull_request || str(i.html_url).includes('/pull/') ? 'pull' : 'issue',
    url: str(i.html_url) || str(i.url),
    title: str(i.title),
    author: { login: login(i.user), association: str(i.author_association) || 'NONE' },
    body: str(i.body),
    labels: labelNames(i.labels),
    state: typeof i.state === 'string' ? i.state : null,
    ...(typeof i.state_reason === 'string' ? { stateReason: i.state_reason } : {}),
    milestone: m && typeof m.number === 'number' ? { number: m.number, title: str(m.title) } : null,
    ...(typeof i.created_at === 'string' ? { createdAt: i.created_at } : {}),
    ...(typeof i.node_id === 'string' ? { nodeId: i.node_id } : {}),
    comments,
  };
}
