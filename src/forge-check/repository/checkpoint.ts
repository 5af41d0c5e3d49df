/**
 * The checkpoint of an incremental repository check: when the last run read
 * the repository (GitHub's clock), when it last read everything, under which
 * settings and which version of these rules, and every issue's status, stamp
 * and comment count then. A checkpoint made under other settings or rules, one
 * older than `full-every`, or one that cannot be read, is not an error: the
 * run audits everything and writes a fresh one, and says why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeWorkspaceFile } from '../../common/paths.js';
import { ISSUE_STATUSES, type IssueEntry } from '../../decision/report.js';
import type { IssueFilter } from '../../github/repo-reads.js';

export interface CheckSettings {
  repository: string;
  required: string[];
  validation: string;
  trustedAuthors: string;
  filter: IssueFilter;
  /** Whether entries hold titles (report-titles): entries kept under the other choice would disagree. */
  titles: boolean;
}

export interface Checkpoint {
  version: 2;
  /** The rules the statuses were decided by (the actions' version): another version means a full read. */
  rules: string;
  settings: CheckSettings;
  /** Issues updated at or after this instant are read again on the next run. */
  lastRun: string;
  /** When every issue was last read (the start of that run, GitHub's clock). */
  fullAt: string;
  issues: IssueEntry[];
}

export type CheckpointRead = { checkpoint: Checkpoint } | { checkpoint: null; why: string };

/** When a checkpoint must not be used although it reads: other rules, or a full read is due. */
export interface CheckpointPolicy {
  rules: string;
  /** `full-every` in milliseconds, or null for never. */
  fullEveryMs: number | null;
  now: number;
}

function sameSettings(a: CheckSettings, b: CheckSettings): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function describeChange(a: CheckSettings, b: CheckSettings): string {
  const changed = (Object.keys(b) as Array<keyof CheckSettings>).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return changed.join(', ');
}

const isTime = (v: unknown) => typeof v === 'string' && !Number.isNaN(Date.parse(v));

function wellFormed(data: unknown): data is Checkpoint {
  const c = data as Checkpoint;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.version === 2 &&
    typeof c.rules === 'string' &&
    isTime(c.lastRun) &&
    isTime(c.fullAt) &&
    typeof c.settings === 'object' &&
    c.settings !== null &&
    Array.isArray(c.issues) &&
    c.issues.every((e) => typeof e?.number === 'number' && (ISSUE_STATUSES as readonly string[]).includes(e?.status))
  );
}

/** The checkpoint at `path` if it can be used for a run with `settings` under `policy`; otherwise why not. */
/** A first run's reason: information, not a problem. */
export const NO_CHECKPOINT_YET = 'no checkpoint yet';

export function readCheckpoint(path: string, settings: CheckSettings, policy: CheckpointPolicy): CheckpointRead {
  if (!existsSync(path)) return { checkpoint: null, why: NO_CHECKPOINT_YET };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { checkpoint: null, why: `the checkpoint could not be read (${(e as Error).message})` };
  }
  if (!wellFormed(data)) return { checkpoint: null, why: 'the checkpoint is not one this version of forge-check wrote' };
  if (!sameSettings(data.settings, settings))
    return { checkpoint: null, why: `the checkpoint was made with other settings (${describeChange(data.settings, settings)})` };
  if (data.rules !== policy.rules)
    return { checkpoint: null, why: `the checkpoint was made by ${data.rules}, and this is ${policy.rules} (its rules may differ)` };
  if (policy.fullEveryMs !== null && policy.now - Date.parse(data.fullAt) >= policy.fullEveryMs)
    return { checkpoint: null, why: `the last full read (${data.fullAt}) is older than full-every` };
  return { checkpoint: data };
}

/** Replaced whole, never left half written (see writeWorkspaceFile). */
export function writeCheckpoint(path: string, checkpoint: Checkpoint): void {
  writeWorkspaceFile(path, `${JSON.stringify(checkpoint)}\n`);
}
