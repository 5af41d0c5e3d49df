/**
 * The pipeline board: one issue, kept current in place the way a dependency
 * dashboard is, written from what this sweep read and decided — never edited
 * by hand (the next sweep rewrites it), and rewritten only when its text
 * changes (it holds times, not ages, so an unchanged pipeline gives the same
 * text). Pure: the items in, the Markdown out.
 */
import { inert, tableCell } from '../common/markdown.js';

/** The marker the board's body starts with: how a sweep finds its own board among the open issues. */
export const BOARD_MARKER = '<!-- forge:board -->';

export interface BoardItem {
  number: number;
  title: string;
  url: string;
  /** The workflow:* label, or none. */
  state: string;
  next: string;
  /** Why it waits, or what the sweep did: one line. */
  why: string;
  action: string;
  /** When its newest trusted stage annotation was written; null when none. */
  lastStageAt: string | null;
  /** Whether any trusted BUILDER (complete or not) is on the work item. */
  hasBuilder: boolean;
  /** The open PRs that close it, read with it. */
  openPulls: number[];
  /** Whether it has sat in its workflow:* label longer than stall-after (by the last stage's time, else its opening). */
  stuck: boolean;
}

/** The doctor's checks, each a section: the items it finds. */
const CHECKS: ReadonlyArray<{ heading: string; finds: (i: BoardItem) => boolean }> = [
  { heading: 'Stuck in a label longer than stall-after', finds: (i) => i.stuck },
  { heading: 'Building without a BUILDER', finds: (i) => i.state === 'workflow:building' && !i.hasBuilder },
  { heading: 'In review without an open PR', finds: (i) => i.state === 'workflow:in-review' && i.openPulls.length === 0 },
];

const id = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');

/** A Mermaid picture of the chain, each stage with the count of items whose next phase it is. */
function picture(chain: readonly string[], items: readonly BoardItem[]): string[] {
  const count = (phase: string) => items.filter((i) => i.next === phase).length;
  const nodes = [...chain, 'none'].map((s) => `${id(s)}["${s === 'none' ? 'done' : s} (${count(s)})"]`);
  const others = ['close', 'needs-human'].filter((p) => count(p) > 0).map((p) => `  ${id(p)}["${p} (${count(p)})"]`);
  return ['```mermaid', 'flowchart LR', `  ${nodes.join(' --> ')}`, ...others, '```'];
}

export function boardMarkdown(
  title: string,
  chain: readonly string[],
  items: readonly BoardItem[],
  unread: readonly string[],
  pullsWithoutAnnotations: readonly number[],
): string {
  const sorted = [...items].sort((a, b) => a.number - b.number);
  const rows = sorted.map(
    (i) =>
      `| [#${i.number}](${i.url}) ${tableCell(inert(i.title))} | ${i.state} | ${tableCell(i.next)} | ${i.lastStageAt ?? 'no stage yet'} | ${tableCell(inert(i.why))} |`,
  );
  const sections = CHECKS.flatMap((c) => {
    const found = sorted.filter(c.finds);
    return [
      `### ${c.heading} (${found.length})`,
      '',
      ...(found.length > 0 ? found.map((i) => `- #${i.number} (${i.state})`) : ['None.']),
      '',
    ];
  });
  return [
    BOARD_MARKER,
    `# ${title}`,
    '',
    `Written by forge-dispatch on each sweep: do not edit it by hand. ${items.length} open work item(s).`,
    '',
    ...picture(chain, sorted),
    '',
    '| item | state | next phase | last stage written | why it waits |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...sections,
    `### Open PRs that carry no annotation and close no listed issue (${pullsWithoutAnnotations.length})`,
    '',
    ...(pullsWithoutAnnotations.length > 0 ? pullsWithoutAnnotations.map((n) => `- #${n}`) : ['None.']),
    '',
    ...(unread.length > 0 ? [`### Not read (${unread.length})`, '', ...unread.map((u) => `- ${inert(u)}`), ''] : []),
  ].join('\n');
}
