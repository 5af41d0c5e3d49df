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
/** What a file error means, in words: the code a person would have to look up is said plainly. */
const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EMFILE: 'too many files open',
};

/** A file error said plainly, with its code: `no such file or folder (ENOENT)`. */
export function fileErrorText(err: unknown): string {
  const code = fileErrorCode(err);
  return FILE_ERRORS[code] ? `${FILE_ERRORS[code]} (${code})` : code;
}

export function fileErrorCode(err: unknown): string {
  const code = err !== null && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : errorMessage(err);
}
