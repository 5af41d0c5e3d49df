/**
 * The checkpoint of an incremental repository check: when the last run read
 * the repository (GitHub's clock), under which settings, and every issue's
 * status then. A checkpoint made under other settings, or unreadable, is not
 * an error: the run audits everything and writes a fresh one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeWorkspaceFile } from '../../common/paths.js';
import { ISSUE_STATUSES, type IssueEntry } from '../../conformance/report.js';
import type { IssueFilter } from '../../github/repo-reads.js';

export interface CheckSettings {
  repository: string;
  required: string[];
  validation: string;
  trustedAuthors: string;
  filter: IssueFilter;
}

export interface Checkpoint {
  version: 1;
  settings: CheckSettings;
  /** Issues updated at or after this instant are read again on the next run. */
  lastRun: string;
  issues: IssueEntry[];
}

export type CheckpointRead = { checkpoint: Checkpoint } | { checkpoint: null; why: string };

function sameSettings(a: CheckSettings, b: CheckSettings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function describeChange(a: CheckSettings, b: CheckSettings): string {
  const changed = (Object.keys(b) as Array<keyof CheckSettings>).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return changed.join(', ');
}

function wellFormed(data: unknown): data is Checkpoint {
  const c = data as Checkpoint;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.version === 1 &&
    typeof c.lastRun === 'string' &&
    !Number.isNaN(Date.parse(c.lastRun)) &&
    typeof c.settings === 'object' &&
    c.settings !== null &&
    Array.isArray(c.issues) &&
    c.issues.every((e) => typeof e?.number === 'number' && (ISSUE_STATUSES as readonly string[]).includes(e?.status))
  );
}

/** The checkpoint at `path` if it can be used for a run with `settings`; otherwise why not. */
export function readCheckpoint(path: string, settings: CheckSettings): CheckpointRead {
  if (!existsSync(path)) return { checkpoint: null, why: 'no checkpoint yet' };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { checkpoint: null, why: `the checkpoint could not be read (${(e as Error).message})` };
  }
  if (!wellFormed(data)) return { checkpoint: null, why: 'the checkpoint is not one forge-check wrote' };
  if (!sameSettings(data.settings, settings))
    return { checkpoint: null, why: `the checkpoint was made with other settings (${describeChange(data.settings, settings)})` };
  return { checkpoint: data };
}

/** Replaced whole, never left half written (see writeWorkspaceFile). */
export function writeCheckpoint(path: string, checkpoint: Checkpoint): void {
  writeWorkspaceFile(path, `${JSON.stringify(checkpoint)}\n`);
}
