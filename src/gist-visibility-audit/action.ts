/** gist-visibility-audit — enforces the spec's rule that every FORGE gist is secret (§4.2). */
import { quote } from '../codec/quote.js';
import { eventTarget } from '../common/event.js';
import { bool, oneOf, optional, positiveInt, readInputs, required, type Getter } from '../common/inputs.js';
import { UsageError } from '../common/errors.js';
import type { ActionDefinition, EventInfo } from '../common/runner.js';
import { parseTrustPolicy, type TrustPolicy } from '../common/trust.js';
import { createClient } from '../github/client.js';
import { parseRepository, type Repo } from '../github/repo.js';
import { runAudit, type AuditResult } from './audit.js';
import { collectReferences, type Collected } from './collect.js';
import { inert, tableCell } from '../common/markdown.js';

interface Inputs {
  token: string;
  gistToken: string | null;
  repo: Repo;
  scope: 'issue' | 'milestone' | 'repository';
  issue: number | null;
  milestone: string | null;
  trust: TrustPolicy;
  failOnPublic: boolean;
  label: string | null;
  remediate: boolean;
  dryRun: boolean;
}

const schema = {
  token: { input: 'github-token', parse: required() },
  gistToken: { input: 'gist-token', parse: optional() },
  repository: { input: 'repository', parse: optional() },
  scope: { input: 'scope', parse: optional() },
  issueNumber: { input: 'issue-number', parse: positiveInt() },
  milestone: { input: 'milestone', parse: optional() },
  trusted: { input: 'trusted-authors', parse: optional() },
  failOnPublic: { input: 'fail-on-public', parse: bool(true) },
  label: { input: 'label-on-violation', parse: optional() },
  remediate: { input: 'remediate', parse: bool(false) },
  dryRun: { input: 'dry-run', parse: bool(false) },
};

function readAuditInputs(get: Getter, event: EventInfo): Inputs {
  const raw = readInputs(schema, get);
  const target = eventTarget(event);
  const issue = raw.issueNumber ?? target.issue ?? target.pull;
  // Default: the issue on issue events, the whole repository otherwise (a nightly schedule).
  const scope = raw.scope ?? (issue !== null ? 'issue' : 'repository');
  if (scope !== 'issue' && scope !== 'milestone' && scope !== 'repository')
    throw new UsageError(`input "scope" must be one of issue, milestone, repository, got "${scope}"`);
  if (scope === 'issue' && issue === null) throw new UsageError(`scope: issue needs issue-number (the "${event.name}" event carries no issue)`);
  if (scope === 'milestone' && raw.milestone === null && issue === null) throw new UsageError('scope: milestone needs the "milestone" input or an issue-number');
  if (raw.remediate && raw.gistToken === null) throw new UsageError('remediate: true needs gist-token (a user token with the gist scope)');
  if (raw.label !== null && !/^[^,\n]{1,50}$/.test(raw.label)) throw new UsageError(`label-on-violation: ${quote(raw.label)} is not a label name`);
  return {
    token: raw.token,
    gistToken: raw.gistToken,
    repo: parseRepository(raw.repository ?? event.repository),
    scope,
    issue,
    milestone: raw.milestone,
    trust: parseTrustPolicy(raw.trusted ?? undefined),
    failOnPublic: raw.failOnPublic,
    label: raw.label,
    remediate: raw.remediate,
    dryRun: raw.dryRun,
  };
}

const MAX_FINDING_ROWS = 200;

/** The gist column: URLs come from anyone's comment, so the link target is the parsed URL and any text is inert. */
function gistCell(f: AuditResult['findings'][number]): string {
  if (f.id === null) return inert(f.url);
  try {
    return `[${f.id}](${new URL(f.url).href.replace(/[()\s|]/g, encodeURIComponent)})`;
  } catch {
    return inert(f.url);
  }
}

function summary(inputs: Inputs, collected: Collected, result: AuditResult): string {
  const verdict = result.unfinished
    ? '⚠️ unfinished'
    : result.publicRemaining > 0
      ? `❌ ${result.publicRemaining} public gist(s)`
      : result.publicCount > 0
        ? '✅ all public gists remediated'
        : '✅ no public gists';
  const out = [`## FORGE gist visibility audit — ${verdict}`, ''];
  out.push(`Scope: ${inputs.scope} (${collected.searched.join('; ')}). Gists checked: ${result.checked}; public: ${result.publicCount}; missing: ${result.missingCount}.`, '');
  if (result.unfinished) out.push(`> The audit could not finish: ${result.unfinished}. Only the gists listed were checked.`, '');
  if (result.writeFailure) out.push(`> A write failed: ${tableCell(result.writeFailure)}`, '');
  for (const n of collected.notes) out.push(`> ${n}`, '');
  if (result.findings.length > 0) {
    out.push('| Severity | Gist | Type | Source | Trusted | Remediated | Detail |', '|---|---|---|---|---|---|---|');
    // Strangers can post links by the thousand: the table is capped, the outputs hold every finding.
    for (const f of result.findings.slice(0, MAX_FINDING_ROWS))
      out.push(`| ${f.severity} | ${gistCell(f)} | \`${f.type}\` | ${inert(f.source)} | ${f.trusted ? 'yes' : 'no'} | ${f.remediated ? 'yes' : 'no'} | ${inert(f.detail)} |`);
    if (result.findings.length > MAX_FINDING_ROWS) out.push('', `… and ${result.findings.length - MAX_FINDING_ROWS} more findings (all of them are in the \`findings\` output).`);
    out.push('');
  }
  if (result.actions.length > 0) out.push(`${inputs.dryRun ? 'Plan (dry run, nothing written)' : 'Actions'}:`, '', ...result.actions.map((a) => `- ${tableCell(a)}`), '');
  return out.join('\n');
}

export const gistVisibilityAudit: ActionDefinition<Inputs> = {
  name: 'gist-visibility-audit',
  secrets: ['github-token', 'gist-token'],
  readInputs: readAuditInputs,
  async execute(inputs, _event, log) {
    const gh = createClient(inputs.token, { log });
    const anonymous = inputs.gistToken === null;
    const gists = createClient(inputs.gistToken ?? '', { log, anonymous });
    const notices: string[] = [];
    if (anonymous) notices.push('No gist-token: reading gists anonymously (60 requests an hour). The workflow GITHUB_TOKEN cannot read gists.');
    const collected = await collectReferences(gh, gists, inputs.repo, inputs.scope, { issue: inputs.issue, milestone: inputs.milestone }, inputs.trust, !anonymous);
    const result = await runAudit(gh, gists, inputs.repo, collected.refs, { remediate: inputs.remediate, dryRun: inputs.dryRun, label: inputs.label, anonymous }, log);
    for (const a of result.actions) log(`${inputs.dryRun ? '[dry-run] ' : ''}${a}`);
    let failure: string | null = null;
    if (result.writeFailure) failure = `gist audit: ${result.writeFailure}`;
    else if (result.unfinished) failure = `gist audit unfinished after ${result.checked} gist(s): ${result.unfinished}`;
    else if (result.publicRemaining > 0 && inputs.failOnPublic) {
      const ids = [...new Set(result.findings.filter((f) => f.severity === 'CRITICAL' && !f.remediated).map((f) => f.id))];
      failure = `${result.publicRemaining} public FORGE gist(s): ${ids.join(', ')} — FORGE gists must be secret (spec §4.2)`;
    }
    return {
      outputs: {
        checked: result.checked,
        public: result.publicCount,
        missing: result.missingCount,
        findings: JSON.stringify(result.findings),
      },
      summary: summary(inputs, collected, result),
      failure,
      notices: [...notices, ...collected.notes],
      warnings: result.findings.filter((f) => f.severity === 'WARNING').map((f) => `${f.url}: ${f.detail} (${f.source})`),
    };
  },
};
