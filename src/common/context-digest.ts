/**
 * The form of a Context digest, shared by whoever makes one (forge-context),
 * records one (forge-emit) and compares one (the route, the gate, the reader).
 *
 * A digest has two parts because two kinds of reader compare it:
 * - `sha256:<64 hex>`: the upstream annotations. Every decider reads these
 *   (the gate, the dispatcher's sweep, forge-context), so this part alone
 *   decides whether a stage is stale, and they all decide alike.
 * - `+gists:<64 hex>`, only when the pack quoted gist files: those files as
 *   read. Only forge-context reads gists (their endpoints refuse the workflow
 *   token the gate runs with), so only it compares this part, and says what
 *   changed; it never moves the shared route.
 * A digest without the second part (a pack that quoted no gist, or one written
 * before gists were digested) is the first part alone, exactly as before.
 */

/** The field an annotation records its upstream context in (forge-context's digest output). */
export const CONTEXT_DIGEST_FIELD = 'Context digest';

/** One whole digest: the annotations' part, then the gists' part when gist files were quoted. */
export const CONTEXT_DIGEST = /^sha256:[0-9a-f]{64}(?:\+gists:[0-9a-f]{64})?$/;

/** What a digest says of each kind of upstream: `gists` is null when no gist file was quoted. */
export interface DigestParts {
  annotations: string;
  gists: string | null;
}

/** What a stage's recorded gists' part says against the gists a reader quotes now. */
export type GistDrift = 'same' | 'changed' | 'not checked';

const GISTS_MARK = '+gists:';

/** The two parts of a well-formed digest (CONTEXT_DIGEST); null for anything else. */
export function digestParts(digest: string): DigestParts | null {
  if (!CONTEXT_DIGEST.test(digest)) return null;
  const at = digest.indexOf(GISTS_MARK);
  return at < 0 ? { annotations: digest, gists: null } : { annotations: digest.slice(0, at), gists: digest.slice(at + GISTS_MARK.length) };
}

/** One digest from its parts: `annotations` is `sha256:<hex>`, `gists` the bare hex of the gists' part or null. */
export function composeDigest(annotations: string, gists: string | null): string {
  return gists === null ? annotations : `${annotations}${GISTS_MARK}${gists}`;
}
