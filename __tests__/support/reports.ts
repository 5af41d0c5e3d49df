/** A forge-check repository report as a test writes one to a file: the header every report carries, and its issues. */
export function repositoryReport(repository: string, issues: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    repository,
    generatedAt: '2026-01-01T00:00:00Z',
    required: ['BUILDER'],
    validation: 'strict',
    incremental: false,
    issues,
    ...extra,
  };
}
