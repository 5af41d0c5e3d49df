/**
 * The audit's pure decisions: what each reference's gist state means (a
 * finding, or none), which public gists trusted references allow migrating,
 * and which issues to label.
 */
import { gistHostOf } from '../../common/gist-urls.js';
import type { GistState } from './lookup.js';
import type { Reference } from './collect.js';

export interface GistFinding {
  id: string | null;
  /** The secret copy a remediation made, when it did. */
  replacement: string | null;
  url: string;
  public: boolean | null;
  type: string;
  source: string;
  trusted: boolean;
  severity: 'CRITICAL' | 'WARNING';
  remediated: boolean;
  /** Why: dangling, not a gist URL, public; and what remediation did or could not do. */
  detail: string;
}

/**
 * The findings for what was learned: public gists (CRITICAL), dangling
 * references and non-gist URLs (WARNING). Secret gists are no finding. Pure.
 */
export function findingsFor(refs: readonly Reference[], states: ReadonlyMap<string, GistState>): GistFinding[] {
  const findings: GistFinding[] = [];
  const finding = (ref: Reference, severity: GistFinding['severity'], isPublic: boolean | null, detail: string): GistFinding => ({
    id: ref.id,
    replacement: null,
    url: ref.url,
    public: isPublic,
    type: ref.type,
    source: ref.source,
    trusted: ref.trusted,
    severity,
    remediated: false,
    detail,
  });
  for (const ref of refs) {
    const state = ref.id === null ? null : states.get(ref.id);
    if (ref.id === null) findings.push(finding(ref, 'WARNING', null, 'not a gist URL'));
    else if (!state)
      continue; // not reached: the audit stopped first
    else if (state.kind === 'missing') findings.push(finding(ref, 'WARNING', null, 'dangling reference: the gist does not exist (404)'));
    else if (state.gist.public)
      findings.push(
        finding(
          ref,
          'CRITICAL',
          true,
          `public gist: FORGE gists must be secret (§4.2)${ref.trusted ? '' : ' — linked by an untrusted author: reported, never remediated on their word'}`,
        ),
      );
  }
  return findings;
}

/** Gists on another GitHub host: WARNING, not checked — whether they are secret is for a person to see. Pure. */
export function notCheckedFindings(refs: readonly Reference[], serverUrl: string): GistFinding[] {
  let server = serverUrl;
  try {
    server = new URL(serverUrl).hostname;
  } catch {
    /* keep as given */
  }
  return refs.map((ref) => ({
    id: ref.id,
    replacement: null,
    url: ref.url,
    public: null,
    type: ref.type,
    source: ref.source,
    trusted: ref.trusted,
    severity: 'WARNING' as const,
    remediated: false,
    detail: `not checked: a gist on ${gistHostOf(ref.url) ?? 'another host'}, not on ${server}, whose API this run uses — check by hand that it is secret`,
  }));
}

/**
 * Trust decides every write: only trusted references start a migration, are
 * rewritten by one, or label an issue. A stranger cannot get a maintainer's
 * deliberately public gist deleted, nor block a migration with their own
 * index gist. Pure: which public gists may be migrated, with the references
 * to rewrite, and which only strangers link to.
 */
export function migrationPlan(
  publicIds: readonly string[],
  refs: readonly Reference[],
): { migrate: Map<string, Reference[]>; untrustedOnly: string[] } {
  const migrate = new Map<string, Reference[]>();
  const untrustedOnly: string[] = [];
  for (const id of publicIds) {
    const trusted = refs.filter((x) => x.id === id && x.trusted);
    if (trusted.length > 0) migrate.set(id, trusted);
    else untrustedOnly.push(id);
  }
  return { migrate, untrustedOnly };
}

/** The issues to label: those with a trusted reference to a public gist still public. Pure. */
export function issuesToLabel(refs: readonly Reference[], stillPublic: ReadonlySet<string>): number[] {
  const issues = new Set<number>();
  for (const x of refs) if (x.trusted && x.id !== null && stillPublic.has(x.id) && x.issue !== null) issues.add(x.issue);
  return [...issues];
}
