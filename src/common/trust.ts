/**
 * Who may write annotations a gate or report believes. Entries are GitHub
 * `author_association` values or logins; `*` trusts everyone. Anyone who can
 * comment can type a tag, so an untrusted author's annotations are never counted.
 */
import { quote } from '../codec/index.js';
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

/**
 * A GitHub login: letters, digits and inner hyphens, up to 39 characters; an
 * Enterprise Managed User's adds `_` and the enterprise's short code
 * (`alice_acme`); an app's bot ends in `[bot]`.
 */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:_[A-Za-z0-9]{1,39})?(?:\[bot\])?$/;

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

/** The policy itself: does `trusted-authors` name this author, by login or by association? */
function matches(policy: TrustPolicy, author: Author): boolean {
  if (policy.everyone) return true;
  if (author.login && policy.logins.has(author.login.toLowerCase())) return true;
  return policy.associations.has(author.association);
}

function whyUntrusted(author: Author): string {
  return `author ${author.login ?? '(unknown)'} (${author.association}) is not in trusted-authors`;
}

/**
 * Every kind of text an action reads and may act on, and whose word it takes.
 * `author`: the text's author must be in trusted-authors. `always`: only people
 * GitHub already trusts can write it. `inherited`: as trusted as the text that
 * pointed to it. docs/implementation-notes.md §12 lists the same table, with
 * which action reads which source (a test holds the two together).
 */
export const SOURCE_RULES = {
  'issue-body': { rule: 'author', because: "an issue body counts as its author's" },
  'pull-body': { rule: 'author', because: "a PR body counts as its author's" },
  comment: { rule: 'author', because: 'anyone who can comment can type a tag' },
  review: { rule: 'author', because: 'anyone who can comment can submit a review body' },
  'closing-reference': { rule: 'author', because: "a closing keyword is typed by the PR's author, as easily as a tag" },
  'status-comment': { rule: 'author', because: 'anyone can copy the hidden marker into a comment of their own' },
  'milestone-description': { rule: 'always', because: 'only people with write access can edit a milestone' },
  'memory-index-gist': { rule: 'always', because: "it is the gist-token user's own gist" },
  'index-gist-file': {
    rule: 'inherited',
    because: 'an index gist is followed one level, as far as the reference that named it is trusted',
  },
} as const satisfies Record<string, { rule: 'author' | 'always' | 'inherited'; because: string }>;

export type SourceKind = keyof typeof SOURCE_RULES;
type Ruled<R> = { [K in SourceKind]: (typeof SOURCE_RULES)[K]['rule'] extends R ? K : never }[SourceKind];

/** A source whose author's word it is. */
export type AuthoredSource = { kind: Ruled<'author'>; author: Author };
/** A source GitHub already vouches for, or one as trusted as the reference that led to it. */
export type VouchedSource = { kind: Ruled<'always'> } | { kind: Ruled<'inherited'>; via: boolean };
export type Source = AuthoredSource | VouchedSource;

export type Trust = { counts: true } | { counts: false; why: string };

const COUNTS: Trust = { counts: true };
const NOT_INHERITED: Trust = { counts: false, why: 'the reference that led to it is not trusted' };

/** Does what this source says count, and if not, why not: the one place trust is decided. */
export function trustOfSource(source: AuthoredSource, policy: TrustPolicy): Trust;
export function trustOfSource(source: VouchedSource): Trust;
export function trustOfSource(source: Source, policy: TrustPolicy): Trust;
export function trustOfSource(source: Source, policy?: TrustPolicy): Trust {
  switch (source.kind) {
    case 'milestone-description':
    case 'memory-index-gist':
      return COUNTS;
    case 'index-gist-file':
      return source.via ? COUNTS : NOT_INHERITED;
    default:
      return policy !== undefined && matches(policy, source.author) ? COUNTS : { counts: false, why: whyUntrusted(source.author) };
  }
}

/** trustOfSource for an authored source, as a yes or no. */
export function counts(kind: Ruled<'author'>, author: Author, policy: TrustPolicy): boolean {
  return trustOfSource({ kind, author }, policy).counts;
}
