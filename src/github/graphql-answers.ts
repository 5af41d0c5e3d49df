/**
 * Reading GraphQL answers as the rest of the code reads REST. GraphQL answers hold data and errors side by side: an unreadable node (an
 * issue in a private repository, a number with nothing behind it) comes back
 * as null with an error beside it, while every other node is there. Octokit
 * throws on any error; this keeps the data that came and hands the errors to
 * the caller as one line each.
 */

type GraphqlFailure<T> = { data?: T; errors?: Array<{ message?: string; type?: string }> };

/** The data of a GraphQL answer, errors or not; throws only when no data came at all. */
export async function withPartialData<T>(call: Promise<T>, onErrors: (messages: string[]) => void): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const e = err as GraphqlFailure<T>;
    if (e?.data === undefined || e.data === null || !Array.isArray(e.errors)) throw err;
    // NOT_FOUND is an answer (nothing is there), not a failure to read.
    const failures = e.errors
      .filter((x) => x.type !== 'NOT_FOUND')
      .map((x) => (x.message ?? 'an unknown error').split('\n')[0].slice(0, 300));
    if (failures.length > 0) onErrors(failures);
    return e.data;
  }
}

/** An actor as GraphQL gives one: a user, or a bot named by its app's slug. */
export type GraphqlActor = { __typename?: string; login: string } | null | undefined;

/** GraphQL names a bot by its app's slug (`my-agent`); REST, and so trusted-authors, by `my-agent[bot]`. */
export function restLogin(actor: GraphqlActor): string | null {
  if (!actor) return null;
  return actor.__typename === 'Bot' && !actor.login.endsWith('[bot]') ? `${actor.login}[bot]` : actor.login;
}
