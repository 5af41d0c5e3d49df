/** The issue or PR an event is about. */
import type { EventInfo } from './runner.js';

const PULL_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

export function eventTarget(event: EventInfo): { issue: number | null; pull: number | null } {
  const p = event.payload as { pull_request?: { number?: number }; issue?: { number?: number; pull_request?: unknown } };
  if (PULL_EVENTS.has(event.name) && typeof p.pull_request?.number === 'number') return { issue: null, pull: p.pull_request.number };
  if (typeof p.issue?.number === 'number') {
    return p.issue.pull_request ? { issue: null, pull: p.issue.number } : { issue: p.issue.number, pull: null };
  }
  return { issue: null, pull: null };
}
