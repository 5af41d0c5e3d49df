/**
 * Error kinds every part shares, and the two safe readers of a thrown value.
 * A UsageError is the user's mistake: reported as one line, never a stack.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The HTTP status a thrown value carries (Octokit's RequestError, our ApiError), or null. */
export function httpStatus(err: unknown): number | null {
  const status = err !== null && typeof err === 'object' ? (err as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : null;
}

/** A thrown value's message, whatever was thrown. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** A file-system error's code (ENOENT, EACCES), else its message. */
export function fileErrorCode(err: unknown): string {
  const code = err !== null && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : errorMessage(err);
}
