/**
 * The text of forge-check's sticky comment: the verdict, each checked item's
 * status table, and the §5 context chain as a Mermaid flowchart coloured by
 * each stage's state. Found again by a hidden marker that is not a FORGE tag,
 * so the comment never reads as an annotation; everything taken from
 * annotations or issues is inert (no HTML, no tag or sentinel can form).
 */
import { inert } from '../../common/markdown.js';
import type { CheckResult, ItemReport } from '../../conformance/evaluate.js';
import { annotationStatus, RANK, STAGE_OF, STATUS_ICON, type StageState } from '../../conformance/status.js';

/** First line of the comment. Deliberately not `<!-- FORGE:… -->`: parse() must find nothing in it. */
export const STATUS_MARKER = '<!-- forge-check status comment: edited in place by the forge-check action -->';

export function isStatusComment(body: string): boolean {
  return body.startsWith(STATUS_MARKER);
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
  let best: keyof typeof STAGE_OF = 'missing';
  for (const a of item.annotations) {
    if (a.type !== type) continue;
    const s = annotationStatus(a.state, a.valid);
    if (RANK[s] > RANK[best]) best = s;
  }
  return STAGE_OF[best];
}

/** Mermaid class definitions: one colour per state (GitHub renders light and dark themes alike with these). */
const CLASSES: Record<StageState, string> = {
  complete: 'fill:#d3f9d8,stroke:#2b8a3e,color:#1b4332',
  partial: 'fill:#fff3bf,stroke:#e67700,color:#5c3c00',
  invalid: 'fill:#ffe3e3,stroke:#c92a2a,color:#5c0011',
  missing: 'fill:#f1f3f5,stroke:#868e96,color:#343a40,stroke-dasharray: 5 4',
};

/**
 * The chain as a Mermaid flowchart. Node ids and labels are fixed words (type
 * names and states), never text from a comment, so no author can break the
 * diagram's syntax or smuggle markup into it.
 */
export function chainDiagram(item: ItemReport): string {
  const stages = CHAIN.filter((s) => !s.optional || stageState(item, s.type) !== 'missing');
  const lines = ['flowchart TD', `  body["${item.kind === 'pull' ? 'PR' : 'Issue'} #${item.number} body"]`];
  let previous = 'body';
  for (const s of stages) {
    const state = stageState(item, s.type);
    lines.push(`  ${s.type}["FORGE:${s.type}${s.note ? ` (${s.note})` : ''}<br/>${state}"]:::${state}`);
    lines.push(`  ${previous} --> ${s.type}`);
    previous = s.type;
  }
  for (const [state, style] of Object.entries(CLASSES)) lines.push(`  classDef ${state} ${style}`);
  return lines.join('\n');
}

/** At most this many items get a table and a diagram; the rest are named. */
const MAX_ITEMS = 5;
/** GitHub refuses comments over 65,536 characters; error texts are cut well before. */
const MAX_ERRORS = 400;

function itemSection(item: ItemReport): string[] {
  const kind = item.kind === 'pull' ? 'PR' : 'Issue';
  const out = [`### ${kind} #${item.number} — \`${inert(item.state)}\`${item.terminal ? ' (terminal)' : ''}`, ''];
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

export function statusCommentBody(result: CheckResult, footer: string): string {
  const out = [STATUS_MARKER, `## FORGE conformance: ${result.conforming ? '✅ conforming' : '❌ not conforming'}`, ''];
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
    '<sub>Chain (spec §5): green complete · yellow partial · red invalid · grey dashed missing. ' +
      `Ignored (untrusted or foreign) annotations are listed in the job summary. ${inert(footer)}</sub>`,
  );
  return out.join('\n');
}
