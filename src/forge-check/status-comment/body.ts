/**
 * The text of forge-check's sticky comment: the verdict, each checked item's
 * status table, and the §5 context chain as a Mermaid flowchart coloured by
 * each stage's state. Found again by a hidden marker that is not a FORGE tag,
 * so the comment never reads as an annotation; everything taken from
 * annotations or issues is inert (no HTML, no tag or sentinel can form).
 */
import { inert, linkTarget } from '../../common/markdown.js';
import { DEFAULT_STATUS_CONTEXT } from '../inputs.js';
import type { CheckResult, ItemReport } from '../../decision/evaluate.js';
import { annotationStatus, RANK, STAGE_OF, STATUS_ICON, type StageState } from '../../decision/status.js';

/** First line of the comment. Deliberately not `<!-- FORGE:… -->`: parse() must find nothing in it. */
const STATUS_MARKER = '<!-- forge-check status comment: edited in place by the forge-check action -->';

/**
 * The marker of the gate named `name`: two gates (two `status-context`s) keep
 * two comments. The default gate keeps the marker earlier versions wrote.
 */
export function statusMarker(name: string): string {
  // The default gate keeps the marker earlier versions wrote.
  if (name === DEFAULT_STATUS_CONTEXT) return STATUS_MARKER;
  return `<!-- forge-check status comment (${markerName(name)}): edited in place by the forge-check action -->`;
}

/**
 * The gate's name inside the marker, losslessly: every character outside a
 * plain set is percent-encoded as UTF-8, so `FORGE 設計` and `FORGE 実装` stay
 * two names, and nothing can end the HTML comment (`>` is encoded, and a `-`
 * after another `-` too). A name of plain characters reads as it did before.
 */
function markerName(name: string): string {
  let out = '';
  for (const ch of name) {
    const plain = /^[A-Za-z0-9 ._:/-]$/.test(ch) && !(ch === '-' && out.endsWith('-'));
    out += plain ? ch : [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

export function isStatusComment(body: string, name = DEFAULT_STATUS_CONTEXT): boolean {
  return body.startsWith(statusMarker(name));
}

/** The §5 chain in order. DECOMPOSED appears only when the issue was decomposed; REVIEWER lives on the PR. */
export const CHAIN: ReadonlyArray<{ type: string; optional?: boolean; note?: string }> = [
  { type: 'INVESTIGATOR' },
  { type: 'DECOMPOSED', optional: true },
  { type: 'CONTRACT' },
  { type: 'CONTEXT' },
  { type: 'ARCHITECT' },
  { type: 'BUILDER' },
  { type: 'REVIEWER', note: 'on the PR' },
  { type: 'TRAJECTORY' },
];

/** A stage's state from the trusted annotations found: the best one decides, by the gate's own rank. */
export function stageState(item: ItemReport, type: string): StageState {
  // A verdict that blocks (CHANGES_REQUESTED, INVALID) shows as plainly as a missing stage.
  if (item.types.some((t) => t.type === type && t.status === 'blocked')) return 'blocked';
  let best: keyof typeof STAGE_OF = 'missing';
  for (const a of item.annotations) {
    if (a.type !== type) continue;
    const s = annotationStatus(a.state, a.valid);
    if (RANK[s] > RANK[best]) best = s;
  }
  return STAGE_OF[best];
}

/**
 * Mermaid class definitions, one per state. A required stage that is missing,
 * partial or invalid stands out (red or amber, a missing one dashed); a stage
 * found but not required is faint. GitHub renders light and dark themes alike with these.
 */
export const CLASSES: Record<StageState | 'extra', string> = {
  complete: 'fill:#d3f9d8,stroke:#2b8a3e,color:#1b4332',
  blocked: 'fill:#ffc9c9,stroke:#c92a2a,color:#5c0011,stroke-width:3px',
  partial: 'fill:#fff3bf,stroke:#e67700,color:#5c3c00,stroke-width:2px',
  invalid: 'fill:#ffe3e3,stroke:#c92a2a,color:#5c0011,stroke-width:2px',
  missing: 'fill:#fff5f5,stroke:#c92a2a,color:#5c0011,stroke-width:2px,stroke-dasharray: 5 4',
  extra: 'fill:#f8f9fa,stroke:#ced4da,color:#868e96',
};

/** The required types of an item (its verdict table), and whether it was exempt. */
function requiredOf(item: ItemReport): Set<string> {
  return new Set(item.types.filter((t) => t.status !== 'not-required').map((t) => t.type));
}

/**
 * The chain as a Mermaid flowchart, left to right: every required stage, and
 * the stages found although not required (faint); a stage neither required
 * nor found is left out. Node ids and labels are fixed words (type names and
 * states), never text from a comment, so no author can break the diagram's
 * syntax or smuggle markup into it.
 */
export function chainDiagram(item: ItemReport): string {
  const required = requiredOf(item);
  const stages = CHAIN.filter((s) => required.has(s.type) || stageState(item, s.type) !== 'missing');
  const lines = ['flowchart LR', `  body["${item.kind === 'pull' ? 'PR' : 'Issue'} #${item.number} body"]`];
  let previous = 'body';
  for (const s of stages) {
    const state = stageState(item, s.type);
    const style = required.has(s.type) ? state : 'extra';
    const label = `FORGE:${s.type}${s.note ? ` (${s.note})` : ''}<br/>${state}${required.has(s.type) ? '' : ' · not required'}`;
    lines.push(`  ${s.type}["${label}"]:::${style}`);
    lines.push(`  ${previous} --> ${s.type}`);
    previous = s.type;
  }
  for (const [state, css] of Object.entries(CLASSES)) lines.push(`  classDef ${state} ${css}`);
  return lines.join('\n');
}

/** At most this many items get a table and a diagram; the rest are named. */
const MAX_ITEMS = 5;
/** GitHub refuses comments over 65,536 characters; error texts are cut well before. */
const MAX_ERRORS = 400;

/** The workflow label in words: `workflow:in-review` is "in review"; none is said so. */
function labelInWords(state: string): string {
  if (!state.startsWith('workflow:')) return 'no workflow:* label';
  return `${state.slice('workflow:'.length).replace(/-/g, ' ')} (\`${inert(state)}\`)`;
}

function itemSection(item: ItemReport): string[] {
  const kind = item.kind === 'pull' ? 'PR' : 'Issue';
  const out = [`### ${kind} #${item.number} — label: ${labelInWords(item.state)}${item.terminal ? ' (terminal)' : ''}`, ''];
  if (item.exempt) out.push(`> ${inert(item.exempt)}`, '');
  out.push('| Type | Status | Author | Problems |', '|---|---|---|---|');
  for (const t of item.types) {
    const problems = inert(t.errors.join('; '));
    out.push(
      `| \`${t.type}\` | ${STATUS_ICON[t.status]} | ${t.author ? inert(t.author) : ''} | ${problems.length > MAX_ERRORS ? `${problems.slice(0, MAX_ERRORS)}…` : problems} |`,
    );
  }
  out.push('', '```mermaid', chainDiagram(item), '```', '');
  return out;
}

/** Where the comment stands: the PR it is on and the issues it was judged through. */
export interface CommentContext {
  /** The PR the verdict is for, or null when an issue was checked on its own. */
  pull: number | null;
  /** The run that wrote this text: linked, and left out when deciding whether the text changed. */
  runUrl: string | null;
  /** The gate's name (its status-context): the marker carries it. */
  gate?: string;
}

/** The line naming the run; ignored when comparing bodies, so a run that changes nothing edits nothing. */
const RUN_LINE = '<sub>Last changed by ';

export function withoutRunLine(body: string): string {
  return body
    .split(/\r?\n/)
    .filter((l) => !l.startsWith(RUN_LINE))
    .join('\n');
}

export function statusCommentBody(result: CheckResult, footer: string, context: CommentContext = { pull: null, runUrl: null }): string {
  if (result.exempt) {
    // An exempt PR is asked for nothing: no table of missing types, no chain.
    const what = context.pull !== null ? `PR #${context.pull}` : `#${result.items[0]?.number ?? ''}`;
    const lines = [
      statusMarker(context.gate ?? DEFAULT_STATUS_CONTEXT),
      '## FORGE conformance: ✅ exempt',
      '',
      `**${what}** is ${inert(result.exempt)}: the gate asks it for no FORGE annotations.`,
      '',
      `<sub>${inert(footer)}</sub>`,
    ];
    if (context.runUrl) lines.push('', `${RUN_LINE}[this run](${linkTarget(context.runUrl)}).</sub>`);
    return lines.join('\n');
  }
  const out = [
    statusMarker(context.gate ?? DEFAULT_STATUS_CONTEXT),
    `## FORGE conformance: ${result.conforming ? '✅ conforming' : '❌ not conforming'}`,
    '',
  ];
  const judged = result.items.filter((i) => i.number !== context.pull).map((i) => `#${i.number}`);
  const required = result.items[0]?.types.map((t) => `\`${t.type}\``).join(', ') ?? '';
  if (context.pull !== null)
    out.push(
      `**PR #${context.pull}**, judged ${judged.length > 0 ? `through ${judged.join(', ')} (the issues it closes) and its own thread` : 'on its own thread (it closes no issue that counts)'}. Required: ${required}.`,
      '',
    );
  for (const n of result.notes) out.push(`> ${inert(n)}`, '');
  for (const item of result.items.slice(0, MAX_ITEMS)) out.push(...itemSection(item));
  if (result.items.length > MAX_ITEMS)
    out.push(
      `… and ${result.items.length - MAX_ITEMS} more checked item(s): ${result.items
        .slice(MAX_ITEMS)
        .map((i) => `#${i.number}`)
        .join(', ')}`,
      '',
    );
  out.push(
    '<sub>Chain (spec §5), left to right: green complete · red bold blocked (its verdict stops the merge) · amber partial · red invalid · red dashed missing — all required; ' +
      `grey: found but not required; stages neither required nor found are left out. Ignored (untrusted or foreign) annotations are listed in the job summary. ${inert(footer)}</sub>`,
  );
  if (context.runUrl) out.push('', `${RUN_LINE}[this run](${linkTarget(context.runUrl)}).</sub>`);
  return out.join('\n');
}
