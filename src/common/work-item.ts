/**
 * The platform-neutral shape of an issue or PR thread. The GitHub layer reads
 * into it; the CLI reads a JSON export into it; evaluation only sees this.
 */
import type { Author } from './trust.js';

export interface ThreadComment {
  id: number;
  url: string;
  author: Author;
  body: string;
  createdAt: string | null;
  /** GitHub's global id (GraphQL), when read from GitHub. */
  nodeId?: string;
  /** Set when GitHub hides the comment (minimized): the reason, lower case (spam, outdated, …). */
  hidden?: string | null;
  /** Set when someone other than the author last edited it: who, and whether that editor is trusted. */
  editedBy?: { login: string; trusted: boolean } | null;
  /** Who last edited it when that is not its author, as GraphQL reads it (before trust is decided: editedBy). */
  editor?: string | null;
  /** Set when GitHub's (partial) answer left this comment out: why. Its hidden and edited state is unknown, so it does not count. */
  unverified?: string;
}

export interface WorkItem {
  number: number;
  kind: 'issue' | 'pull';
  url: string;
  title: string;
  author: Author;
  body: string;
  labels: string[];
  state: string | null;
  /** Why a closed issue was closed, as GitHub records it (completed, not_planned, reopened, duplicate). */
  stateReason?: string;
  milestone: { number: number; title: string } | null;
  /** When it was opened, when the reader knows (GitHub's created_at). */
  createdAt?: string | null;
  comments: ThreadComment[];
  /** Set when someone other than the author last edited the body (GraphQL reads it): who, and whether that editor is trusted. */
  bodyEditedBy?: { login: string; trusted: boolean } | null;
  /** Who last edited the body when that is not its author, as GraphQL reads it (before trust is decided: bodyEditedBy). */
  bodyEditor?: string | null;
  /** Set when GitHub's (partial) answer left the body out: why (as for a comment's `unverified`). */
  bodyUnverified?: string;
  /** GitHub's global id (GraphQL), when read through it. */
  nodeId?: string;
  /**
   * Set for an issue of another repository (a PR linked it): its
   * author_associations describe that repository, not this one, so they trust nobody here.
   */
  foreign?: string;
}

/** A workflow run as GitHub reports it: what a claim that names it is judged by (decision/claims.ts). */
export interface RunState {
  id: number;
  /** queued, in_progress, waiting, requested, pending, or completed. */
  status: string;
  /** Set once completed: success, failure, cancelled, timed_out, … */
  conclusion: string | null;
  url: string;
}

/** An approving review of a PR, as GitHub records it: who, and of which commit (what a sign-off is judged by). */
export interface Approval {
  author: Author;
  commit: string | null;
}
