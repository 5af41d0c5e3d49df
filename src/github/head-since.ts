/**
 * When a PR's head commit reached it, from what GitHub's GraphQL answer
 * records: the newest force push onto it, or — for a PR of one commit never
 * force-pushed — its opening. The opening is only a fallback: `commits` counts
 * the commits not in the base, so after a retarget or a stacked merge a
 * one-commit PR may have had other heads since it opened; the gate asks the
 * repository's activity record first (gather.ts, dateHead).
 */
export type HeadSince = { at: string; by: 'force-push' | 'opening' } | null;

type Push = { createdAt?: string | null; afterCommit?: { oid: string } | null } | null;

export function headSinceFrom(pushes: ReadonlyArray<Push>, head: string, commits: number | undefined, openedAt: string): HeadSince {
  const dated = pushes.filter((x): x is { createdAt: string; afterCommit?: { oid: string } | null } => !!x?.createdAt);
  const onto = dated
    .filter((x) => x.afterCommit?.oid === head)
    .map((x) => x.createdAt)
    .sort();
  if (onto.length > 0) return { at: onto.at(-1) as string, by: 'force-push' };
  return dated.length === 0 && commits === 1 ? { at: openedAt, by: 'opening' } : null;
}
