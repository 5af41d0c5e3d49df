/**
 * Two runs that post the same thing at once both succeed. Each re-reads the
 * thread after posting; when an older comment of the same kind is there, that
 * one stands and ours is deleted again, so exactly one is left whichever run
 * finishes first. Used by forge-emit (one complete annotation) and by the
 * status comment (one comment per gate).
 */
import { httpStatus } from '../common/errors.js';
import type { Repo } from '../common/repo.js';
import type { ThreadComment } from '../common/work-item.js';
import type { GitHub } from './client.js';
import { listComments } from './reads.js';
import { deleteComment } from './writes.js';

/** Another run may be removing the same comment: one that is already gone is what we wanted. */
export async function deleteIfThere(gh: GitHub, r: Repo, id: number): Promise<void> {
  try {
    await deleteComment(gh, r, id);
  } catch (err) {
    if (httpStatus(err) !== 404) throw err;
  }
}

/**
 * After posting `created` on #number: the oldest comment `same` accepts that is
 * older than ours wins and ours is deleted (returns the winner); null when
 * ours is the oldest and stands.
 */
export async function earliestWins(
  gh: GitHub,
  r: Repo,
  number: number,
  created: ThreadComment,
  same: (comment: ThreadComment) => boolean,
): Promise<ThreadComment | null> {
  const after = await listComments(gh, r, number);
  let first: ThreadComment | null = null;
  for (const c of after) if (c.id < created.id && same(c) && (first === null || c.id < first.id)) first = c;
  if (first === null) return null;
  await deleteIfThere(gh, r, created.id);
  return first;
}
