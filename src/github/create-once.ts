/**
 * Creating something on GitHub when the answer can be lost: a 5xx, or a
 * connection cut after the request was sent, may come back after GitHub made
 * it. The client's automatic retry would then make a second one (a second
 * draft release, secret gist copy, board issue or claim), so a create is sent
 * once with that retry off; when it fails in a way that can succeed later, what
 * landed is read back, and only when nothing did is it sent once more.
 */
import { ApiError, api } from './errors.js';

/** Octokit's per-request option that turns the retry plugin off for this request. */
export const NO_RETRY = { request: { retries: 0 } } as const;

const lostAnswer = (err: unknown) => err instanceof ApiError && err.transient && (err.status === null || err.status >= 500);

/**
 * `create` (sent with NO_RETRY), or — after a failure that can succeed later —
 * what `landed` finds of it; one more create when it finds nothing. `onReadBack`
 * says which way it went, for the log.
 */
export async function createOnce<T>(
  doing: string,
  create: (noRetry: typeof NO_RETRY) => Promise<T>,
  landed: () => Promise<T | null>,
  onReadBack: (line: string) => void = () => undefined,
): Promise<T> {
  try {
    return await api(doing, () => create(NO_RETRY));
  } catch (err) {
    if (!lostAnswer(err)) throw err;
    const found = await landed();
    if (found !== null) {
      onReadBack(`${doing}: GitHub's answer was lost (${(err as Error).message}), and the read-back found it made: not sent again`);
      return found;
    }
    onReadBack(`${doing}: GitHub's answer was lost, and the read-back found nothing: sent once more`);
    return await api(doing, () => create(NO_RETRY));
  }
}
