/**
 * A full commit id: 40 hex digits (SHA-1), or 64 in a SHA-256 repository. A
 * shorter prefix binds nothing: another commit with the same 7 digits takes
 * seconds to make, so evidence that names a commit must name it whole.
 */
export const FULL_COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
