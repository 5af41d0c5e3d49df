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
  milestone: { number: number; title: string } | null;
  comments: ThreadComment[];
}
