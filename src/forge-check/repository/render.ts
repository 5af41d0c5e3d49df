/**
 * forge-check over a repository: the report as outputs and the job summary,
 * and the policy — failing issues fail the step under fail-on-violation,
 * otherwise they are one warning.
 */
import type { ActionResult } from '../../common/runner.js';
import { markdownRepositoryReport } from '../../decision/report-render.js';
import type { RepositoryReport } from '../../decision/report.js';
import type { CheckOutputs } from '../render.js';

/** The same outputs for a repository: the type lists gather every failing issue's types. */
function repositoryOutputs(report: RepositoryReport, rechecked: number): CheckOutputs {
  const typesWith = (status: string) => [
    ...new Set(
      report.issues.flatMap((e) =>
        Object.entries(e.types)
          .filter(([, s]) => s === status)
          .map(([t]) => t),
      ),
    ),
  ];
  return {
    conforming: report.counts.failing === 0,
    // The repository report keeps each type's status: a blocked type is named, its verdict is in the report.
    blocked: typesWith('blocked').join(','),
    missing: typesWith('missing').join(','),
    incomplete: typesWith('incomplete').join(','),
    invalid: typesWith('invalid').join(','),
    state: 'none',
    terminal: false,
    report: JSON.stringify(report),
    checked: report.issues.length,
    rechecked,
    failing: report.counts.failing,
    'comment-url': '',
  };
}

/** At most this many failing issues are named in the failure line; the summary lists them all. */
const NAMED = 20;

export function repositoryResult(
  report: RepositoryReport,
  rechecked: number,
  notes: readonly string[],
  failOnViolation: boolean,
  info: readonly string[] = [],
): ActionResult {
  const failing = report.issues.filter((e) => e.status === 'failing');
  const shown = failing
    .slice(0, NAMED)
    .map((e) => `#${e.number}`)
    .join(', ');
  const line =
    failing.length === 0
      ? null
      : `${failing.length} of ${report.issues.length} issues do not conform: ${shown}${failing.length > NAMED ? `, and ${failing.length - NAMED} more` : ''} (see the job summary)`;
  return {
    outputs: repositoryOutputs(report, rechecked),
    summary: markdownRepositoryReport(report, rechecked, [...info, ...notes]),
    failure: line && failOnViolation ? `FORGE conformance failed: ${line}` : null,
    // Only what is wrong is a warning; what the run did and why is a notice.
    notices: [...info],
    warnings: [...notes, ...(line && !failOnViolation ? [line] : [])],
  };
}
