/** The workflow event an action runs for, and the issue or PR it is about. */

export interface EventInfo {
  name: string;
  payload: Record<string, unknown>;
  /** owner/name of the repository the workflow runs in. */
  repository: string;
  workspace: string;
}

/** The issue or PR an event is about: exactly one of the two, or neither. */
export interface EventSubject {
  issue: number | null;
  pull: number | null;
}

const PULL_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

export function eventSubject(event: EventInfo): EventSubject {
  const p = event.payload as { pull_request?: { number?: number }; issue?: { number?: number; pull_request?: unknown } };
  if (PULL_EVENTS.has(event.name) && typeof p.pull_request?.number === 'number') return { issue: null, pull: p.pull_request.number };
  if (typeof p.issue?.number === 'number') {
    return p.issue.pull_request ? { issue: null, pull: p.issue.number } : { issue: p.issue.number, pull: null };
  }
  return { issue: null, pull: null };
}
