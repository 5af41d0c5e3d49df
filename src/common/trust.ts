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

/**
 * Repository roles, weakest first, as `GET /repos/{owner}/{repo}/collaborators/{username}/permission`
 * names them (`role_name`). `permission:write` trusts anyone whose role here is write or stronger.
 */
export const PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];
/** The levels a `permission:` entry may name: below write, anyone who can open an issue would pass. */
const TRUSTABLE: readonly Permission[] = ['write', 'maintain', 'admin'];

export interface TrustPolicy {
  everyone: boolean;
  associations: ReadonlySet<string>;
  /** Lower-cased: logins are case-insensitive on GitHub. */
  logins: ReadonlySet<string>;
  /**
   * `permission:write` (or maintain, admin): the weakest role on this
   * repository that is trusted; null when no such entry is given.
   */
  minPermission: Permission | null;
  /**
   * Roles on this repository resolved so far, by lower-cased login (the GitHub
   * layer fills it once per login per run; the decision only reads it).
   */
  permissions: Map<string, Permission | 'none'>;
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
  let minPermission: Permission | null = null;
  for (const entry of splitList(text)) {
    // A login cannot hold `:`, so `permission:…` is never a login.
    if (entry.toLowerCase().startsWith('permission:')) {
      const level = entry.slice('permission:'.length).trim().toLowerCase() as Permission;
      if (!TRUSTABLE.includes(level))
        throw new UsageError(`trusted-authors: ${quote(entry)} must be permission:write, permission:maintain or permission:admin`);
      if (minPermission === null || PERMISSIONS.indexOf(level) < PERMISSIONS.indexOf(minPermission)) minPermission = level;
      continue;
    }
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
  return { everyone, associations, logins, minPermission, permissions: new Map(), text };
}

/** Is `login`'s role on this repository, as resolved, at least the policy's `permission:` level? */
function permitted(policy: TrustPolicy, login: string): boolean {
  if (policy.minPermission === null) return false;
  const role = policy.permissions.get(login.toLowerCase());
  // An unread login and `none` are at index -1: below every level.
  return PERMISSIONS.indexOf(role as Permission) >= PERMISSIONS.indexOf(policy.minPermission);
}

/**
 * The logins whose role must be read before `policy` can decide about them:
 * none unless a `permission:` entry is given, and never one that an
 * association or a listed login already trusts, or one already resolved.
 */
export function unresolvedLogins(policy: TrustPolicy, authors: Iterable<Author>): string[] {
  if (policy.minPermission === null || policy.everyone) return [];
  const out = new Set<string>();
  for (const a of authors) {
    if (!a.login || matchesListed(policy, a)) continue;
    const key = a.login.toLowerCase();
    if (!policy.permissions.has(key)) out.add(key);
  }
  return [...out];
}

/** Who put a label on an item, as GitHub's label events record it, with their role here: what admits an item (decision/admission.ts). */
export interface Labelled {
  label: string;
  login: string;
  /** A bot's label is no person's decision. */
  bot: boolean;
  /** Their role on this repository ('none' when they have none). */
  role: Permission | 'none';
  at: string | null;
}

export interface Author {
  login: string | null;
  association: string;
}

/** Does `trusted-authors` name this author, by login or by association? */
function matchesListed(policy: TrustPolicy, author: Author): boolean {
  if (policy.everyone) return true;
  if (author.login && policy.logins.has(author.login.toLowerCase())) return true;
  return policy.associations.has(author.association);
}

/** The policy itself: listed, or holding the `permission:` role on this repository. */
function matches(policy: TrustPolicy, author: Author): boolean {
  return matchesListed(policy, author) || (author.login !== null && permitted(policy, author.login));
}

function whyUntrusted(author: Author, policy: TrustPolicy | undefined): string {
  const role = policy && policy.minPermission !== null && author.login ? policy.permissions.get(author.login.toLowerCase()) : undefined;
  const held = role === undefined ? '' : `, role ${role} here`;
  return `author ${author.login ?? '(unknown)'} (${author.association}${held}) is not in trusted-authors`;
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
      return policy !== undefined && matches(policy, source.author) ? COUNTS : { counts: false, why: whyUntrusted(source.author, policy) };
  }
}

/** trustOfSource for an authored source, as a yes or no. */
export function counts(kind: Ruled<'author'>, author: Author, policy: TrustPolicy): boolean {
  return trustOfSource({ kind, author }, policy).counts;
}
