/**
 * Who may write annotations a gate or report believes. Entries are GitHub
 * `author_association` values or logins; `*` trusts everyone. Anyone who can
 * comment can type a tag, so an untrusted author's annotations are never counted.
 */
import { quote } from '../codec/quote.js';
import { splitList } from './lists.js';
import { UsageError } from './errors.js';

export const ASSOCIATIONS = [
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIME_CONTRIBUTOR',
  'FIRST_TIMER',
  'MANNEQUIN',
  'NONE',
] as const;

export const DEFAULT_TRUSTED = 'OWNER, MEMBER, COLLABORATOR, github-actions[bot]';

export interface TrustPolicy {
  everyone: boolean;
  associations: ReadonlySet<string>;
  /** Lower-cased: logins are case-insensitive on GitHub. */
  logins: ReadonlySet<string>;
  text: string;
}

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;

export function parseTrustPolicy(input: string | undefined): TrustPolicy {
  const text = input === undefined || input.trim() === '' ? DEFAULT_TRUSTED : input;
  const associations = new Set<string>();
  const logins = new Set<string>();
  let everyone = false;
  for (const entry of splitList(text)) {
    // An entry that spells an author_association, in any letter case, is that
    // association: `owner, member` must never trust the user named "member".
    // A login that collides with one is written with its @: `@member`.
    const isLogin = entry.startsWith('@');
    const cleaned = isLogin ? entry.slice(1) : entry;
    if (cleaned === '*' && !isLogin) everyone = true;
    else if (!isLogin && (ASSOCIATIONS as readonly string[]).includes(cleaned.toUpperCase())) associations.add(cleaned.toUpperCase());
    else if (LOGIN.test(cleaned)) logins.add(cleaned.toLowerCase());
    else
      throw new UsageError(
        `trusted-authors: ${quote(entry)} is neither an author_association (${ASSOCIATIONS.join(', ')}) nor a GitHub login`,
      );
  }
  return { everyone, associations, logins, text };
}

export interface Author {
  login: string | null;
  association: string;
}

export function isTrusted(policy: TrustPolicy, author: Author): boolean {
  if (policy.everyone) return true;
  if (author.login && policy.logins.has(author.login.toLowerCase())) return true;
  return policy.associations.has(author.association);
}

export function whyUntrusted(author: Author): string {
  return `author ${author.login ?? '(unknown)'} (${author.association}) is not in trusted-authors`;
}
