/**
 * The writes: migrating a public gist to a secret copy without ever losing
 * content (copy, read back, compare, rewrite the references, and only then
 * delete), and labelling issues. Every failure says what was done before it.
 */
import { emit, parse } from '../../codec/index.js';
import { errorMessage } from '../../common/errors.js';
import type { Repo } from '../../common/repo.js';
import type { GitHub } from '../../github/client.js';
import { describeApiError } from '../../github/errors.js';
import { authenticatedLogin, createSecretGist, deleteGist, getGistRaw, updateGistFile, type GistInfo } from '../../github/gists.js';
import { getComment, getIssue, getMilestone } from '../../github/reads.js';
import { addLabels, ensureLabel, updateComment, updateIssueBody, updateMilestoneDescription } from '../../github/writes.js';
import type { AuditContext, AuditOptions } from './settings.js';
import type { Reference } from './collect.js';
import type { GistFinding, migrationPlan } from './findings.js';
import { fetchGist, type GistState } from './lookup.js';

async function rewriteReference(gh: GitHub, gists: GitHub, r: Repo, ref: Reference, newUrl: string): Promise<void> {
  const swap = (body: string): string => {
    // Through the codec: the annotation holding the old URL is re-emitted with the new one.
    for (const a of parse(body)) {
      if (a.type === ref.type && a.inlineValue === ref.url)
        return body.slice(0, a.start) + emit(a.type, { value: newUrl }) + body.slice(a.closeEnd);
    }
    throw new Error(`the ${ref.type} annotation pointing to ${ref.url} is no longer in ${ref.source}`);
  };
  const loc = ref.location;
  if (loc.kind === 'comment') {
    const comment = await getComment(gh, r, loc.commentId);
    await updateComment(gh, r, loc.commentId, swap(comment.body));
  } else if (loc.kind === 'issue-body') {
    const item = await getIssue(gh, r, loc.issue);
    await updateIssueBody(gh, r, loc.issue, swap(item.body));
  } else if (loc.kind === 'milestone') {
    const m = await getMilestone(gh, r, loc.number);
    await updateMilestoneDescription(gh, r, loc.number, swap(m.description));
  } else if (loc.kind === 'gist-file') {
    const index = await getGistRaw(gists, loc.gistId);
    const file = index.files.find((f) => f.filename === loc.filename);
    if (!file || file.content === null || !file.content.includes(ref.url)) throw new Error(`${ref.source} no longer lists ${ref.url}`);
    await updateGistFile(gists, loc.gistId, loc.filename, file.content.split(ref.url).join(newUrl));
  }
  // A gist-description reference is the memory-index gist itself: its copy keeps the description.
}

function sameFiles(a: GistInfo, b: GistInfo): boolean {
  if (a.files.length !== b.files.length) return false;
  const byName = new Map(b.files.map((f) => [f.filename, f.content]));
  return a.files.every((f) => byName.has(f.filename) && byName.get(f.filename) === f.content);
}

/**
 * The spec's migration, reordered so nothing is lost: read in full, create a
 * secret copy, read it back and compare every file, rewrite the references,
 * and only then delete the public gist. Returns what happened, one line.
 */
async function remediate(
  gh: GitHub,
  gists: GitHub,
  r: Repo,
  gist: GistInfo,
  refs: Reference[],
  me: string,
): Promise<{ ok: boolean; detail: string; replacement?: string }> {
  if (gist.owner && gist.owner.toLowerCase() !== me.toLowerCase())
    return { ok: false, detail: `not remediated: the gist belongs to ${gist.owner}, not to the gist-token user ${me}` };
  if (gist.truncated || gist.files.some((f) => f.truncated || f.content === null))
    return {
      ok: false,
      detail:
        'not remediated: too large to copy safely (the API response is truncated, so a copy would lose content); the public gist is unchanged',
    };
  const done: string[] = [];
  let copy: GistInfo;
  try {
    copy = await createSecretGist(gists, gist.description, gist.files);
  } catch (err) {
    return { ok: false, detail: `not remediated: ${errorMessage(err)}; the public gist is unchanged` };
  }
  done.push(`created secret copy ${copy.id}`);
  let back: GistInfo;
  try {
    back = await getGistRaw(gists, copy.id);
  } catch (err) {
    return {
      ok: false,
      detail: `not remediated: reading the copy back failed (${describeApiError(err, 'reading the copy').message}); ${done.join('; ')}; the public gist is unchanged`,
    };
  }
  if (back.public || !sameFiles(gist, back)) {
    let cleanup = 'removed the copy again';
    try {
      await deleteGist(gists, copy.id);
    } catch (err) {
      cleanup = `could not remove the copy ${copy.id}: ${errorMessage(err)}`;
    }
    return {
      ok: false,
      detail: `not remediated: the secret copy read back ${back.public ? 'as public' : 'with different files'}; ${cleanup}; the public gist is unchanged`,
    };
  }
  for (const ref of refs) {
    try {
      await rewriteReference(gh, gists, r, ref, back.url);
      done.push(`rewrote ${ref.source}`);
    } catch (err) {
      return {
        ok: false,
        detail: `not remediated: rewriting ${ref.source} failed (${errorMessage(err)}); ${done.join('; ')}; the public gist is unchanged`,
      };
    }
  }
  try {
    await deleteGist(gists, gist.id);
  } catch (err) {
    return {
      ok: false,
      detail: `not remediated: ${DELETE_FAILED} (${errorMessage(err)}); ${done.join('; ')} — the public gist is still there`,
    };
  }
  return { ok: true, replacement: back.url, detail: `migrated to secret gist ${back.url} (${done.join('; ')}; deleted the public gist)` };
}

/** How a failed DELETE of the public gist is worded: the step's error line looks for it. */
export const DELETE_FAILED = 'deleting the public gist failed';

interface Remediation {
  remediated: Set<string>;
  migrations: string[];
}

export async function remediateAll(
  ctx: AuditContext,
  plan: ReturnType<typeof migrationPlan>,
  states: ReadonlyMap<string, GistState>,
  findings: GistFinding[],
  opts: AuditOptions,
  steps: string[],
): Promise<Remediation> {
  const out: Remediation = { remediated: new Set(), migrations: [] };
  const note = (id: string, detail: string, ok: boolean, replacement: string | null) => {
    for (const f of findings)
      if (f.id === id && f.public) {
        f.remediated = ok;
        f.replacement = replacement;
        f.detail = `${f.detail}; ${detail}`;
      }
  };
  for (const id of plan.untrustedOnly) {
    steps.push(`gist ${id}: not remediated: only untrusted authors link to it`);
    note(id, 'not remediated: only untrusted authors link to it', false, null);
  }
  if (opts.dryRun) {
    for (const [id, refs] of plan.migrate)
      steps.push(`would migrate public gist ${id} to a secret copy and rewrite its ${refs.length} trusted reference(s)`);
    return out;
  }
  if (plan.migrate.size === 0) return out;
  const me = await authenticatedLogin(ctx.gists);
  for (const [id, refs] of plan.migrate) {
    if (states.get(id)?.kind !== 'found') continue;
    // Read in full now: a listing carries no file contents, and the gist may have changed since.
    const full = await fetchGist(ctx.gists, id);
    const result =
      full.kind === 'state' && full.state.kind === 'found'
        ? await remediate(ctx.gh, ctx.gists, ctx.repo, full.state.gist, refs, me)
        : {
            ok: false,
            detail: `not remediated: reading it in full failed (${full.kind === 'refused' ? errorMessage(full.err) : 'it is gone (404)'}); the public gist is unchanged`,
          };
    steps.push(`gist ${id}: ${result.detail}`);
    if (result.ok) {
      out.remediated.add(id);
      out.migrations.push(`gist ${id} → ${result.replacement}`);
    }
    note(id, result.detail, result.ok, result.replacement ?? null);
  }
  return out;
}

/** Label the issues; a failure stops here and says what had completed before it. */
export async function labelIssues(
  ctx: AuditContext,
  issues: number[],
  label: string,
  dryRun: boolean,
  migrations: string[],
  steps: string[],
): Promise<string | null> {
  const labelled: number[] = [];
  for (const n of issues) {
    steps.push(`${dryRun ? 'would label' : 'label'} #${n} ${label}`);
    if (dryRun) continue;
    try {
      await ensureLabel(ctx.gh, ctx.repo, label, 'd93f0b', 'A FORGE gist is public');
      await addLabels(ctx.gh, ctx.repo, n, [label]);
    } catch (err) {
      // Outputs and the summary are still written: what completed must not be hidden by what failed.
      const before = [...migrations.map((m) => `migrated ${m}`), ...labelled.map((l) => `labelled #${l}`)];
      return `labelling #${n} ${label} failed (${errorMessage(err)})${before.length ? `; completed before it: ${before.join('; ')}` : '; nothing had been written before it'}`;
    }
    labelled.push(n);
  }
  return null;
}
