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
  /** Why it waits, in one word or two (WAIT_OF_RULE, or what the sweep did). */
  waits: string;
  /** Its label names a state the chain has not reached (the stage it needs, not complete): '' when none. */
  contradiction: string;
}

/** Why an item waits, by the route's rule that decided its next phase (decision/next-phase.ts). */
const WAIT_OF_RULE: Readonly<Record<string, string>> = {
  'needs a person': 'needs a human',
  'terminal label': 'done',
  'investigation invalid': 'to close',
  'halted after the build': 'needs a human',
  'design shipped': 'done',
  'design loop': 'design loop',
  decomposition: 'to decompose',
  'changes requested': 'changes requested',
  'own verdict blocks': 'blocked',
  'stale stage': 'stale',
  'chain complete': 'done',
};

/** What the sweep did overrides why it waited. */
const WAIT_OF_ACTION: Readonly<Record<string, string>> = {
  dispatched: 'started',
  running: 'running',
  escalated: 'needs a human',
  'needs-human': 'needs a human',
  closed: 'closed',
  'claimed-elsewhere': 'running',
  'not-admitted': 'not admitted',
  limited: 'waiting for a slot',
  'rate-limited': 'rate limited',
};

/**
 * Why the item waits: what this sweep did to it, else the rule that decided its
 * next phase; the first open stage is `partial` when an unfinished annotation
 * of it is there, `never started` when nothing of it is.
 */
export function waitOf(rule: string, action: string, nextStageStatus: string | null): string {
  const acted = WAIT_OF_ACTION[action];
  if (acted) return acted;
  if (rule === 'first open stage') return nextStageStatus === 'partial' || nextStageStatus === 'interrupted' ? 'partial' : 'never started';
  return WAIT_OF_RULE[rule] ?? 'waiting';
}

/** The stage a workflow:* label says is complete (when the chain has it): the state machine's entry conditions. */
const LABEL_NEEDS: Readonly<Record<string, string>> = {
  'workflow:ready-to-build': 'INVESTIGATOR',
  'workflow:building': 'INVESTIGATOR',
  'workflow:in-review': 'BUILDER',
};

/** The label's contradiction of the chain: it says a stage is done that is not ('' when it does not). */
export function labelContradiction(label: string, chain: readonly string[], complete: ReadonlySet<string>): string {
  const needs = LABEL_NEEDS[label];
  if (!needs || !chain.includes(needs) || complete.has(needs)) return '';
  return `${label} without a complete ${needs}`;
}

/** The doctor's checks, each a section: the items it finds. */
const CHECKS: ReadonlyArray<{ heading: string; finds: (i: BoardItem) => boolean; note?: (i: BoardItem) => string }> = [
  // First: what only a person can move on. Escalated items, with why and how to resume them.
  {
    heading: 'Needs a person',
    finds: (i) => i.waits === 'needs a human',
    note: (i) => `${inert(i.why)} — to resume it, remove the needs-human label: the next run starts it with a fresh attempt budget`,
  },
  // What only a person can start. The why says who opened or labelled it, and how to admit it.
  { heading: 'Waiting for a maintainer to admit', finds: (i) => i.waits === 'not admitted', note: (i) => inert(i.why) },
  { heading: 'Stuck in a label longer than stall-after', finds: (i) => i.stuck },
  { heading: 'Building without a BUILDER', finds: (i) => i.state === 'workflow:building' && !i.hasBuilder },
  { heading: 'In review without an open PR', finds: (i) => i.state === 'workflow:in-review' && i.openPulls.length === 0 },
  { heading: 'Label contradicting the chain', finds: (i) => i.contradiction !== '', note: (i) => i.contradiction },
];

const id = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');

/** A Mermaid picture of the chain, each stage with the count of items whose next phase it is. */
function picture(chain: readonly string[], items: readonly BoardItem[]): string[] {
  const count = (phase: string) => items.filter((i) => i.next === phase).length;
  const nodes = [...chain, 'none'].map((s) => `${id(s)}["${s === 'none' ? 'done' : s} (${count(s)})"]`);
  const others = ['close', 'needs-human'].filter((p) => count(p) > 0).map((p) => `  ${id(p)}["${p} (${count(p)})"]`);
  return ['```mermaid', 'flowchart LR', `  ${nodes.join(' --> ')}`, ...others, '```'];
}

/** GitHub refuses an issue body over 65,536 characters; the board keeps well under it whatever the repository holds. */
export const BOARD_MAX_CHARS = 60_000;
/** A title is shortened to this many characters on the board (never dropped: the full title is one click away). */
export const TITLE_MAX = 80;
/** Each doctor's section names at most this many items; the rest are counted. */
const SECTION_MAX = 25;

/**
 * A link a person can click that writes no "mentioned this" event into the item's timeline: on github.com, GitHub's
 * own redirect host (which it documents for this); elsewhere (GitHub Enterprise Server) the link as it is.
 */
export function quietLink(url: string): string {
  return url.replace(/^https:\/\/github\.com\//, 'https://redirect.github.com/');
}

/** What a person acts on first, then what runs, then what waits: the board's order (and what is cut last). */
const PRIORITY: Readonly<Record<string, number>> = {
  'needs a human': 0,
  'not admitted': 1,
  blocked: 2,
  'changes requested': 3,
  'to close': 4,
  running: 5,
  started: 5,
};
const rank = (i: BoardItem) => PRIORITY[i.waits] ?? 6;

/** The board's order: by that priority, then grouped by next stage (in chain order), then by number. */
export function boardOrder(items: readonly BoardItem[], chain: readonly string[]): BoardItem[] {
  const stageAt = (s: string) => (chain.includes(s) ? chain.indexOf(s) : chain.length);
  return [...items].sort(
    (a, b) => rank(a) - rank(b) || stageAt(a.next) - stageAt(b.next) || a.next.localeCompare(b.next) || a.number - b.number,
  );
}

const shortTitle = (t: string) => (t.length > TITLE_MAX ? `${t.slice(0, TITLE_MAX - 1)}…` : t);
const itemLink = (i: BoardItem) => `[#${i.number}](${quietLink(i.url)})`;

export function boardMarkdown(
  title: string,
  chain: readonly string[],
  items: readonly BoardItem[],
  unread: readonly string[],
  pullsWithoutAnnotations: readonly number[],
): string {
  const sorted = boardOrder(items, chain);
  const row = (i: BoardItem) =>
    `| ${itemLink(i)} ${tableCell(inert(shortTitle(i.title)))} | ${i.state} | ${tableCell(i.next)} | ${i.waits} | ${i.lastStageAt ?? 'no stage yet'} | ${tableCell(inert(i.why))} |`;
  const listed = (found: readonly BoardItem[], note: (i: BoardItem) => string) => [
    ...found.slice(0, SECTION_MAX).map((i) => `- ${itemLink(i)} (${note(i)})`),
    ...(found.length > SECTION_MAX ? [`- and ${found.length - SECTION_MAX} more (the full list: the job summary and \`board-file\`)`] : []),
  ];
  const sections = CHECKS.flatMap((c) => {
    const found = sorted.filter(c.finds);
    return [
      `### ${c.heading} (${found.length})`,
      '',
      ...(found.length > 0 ? listed(found, (i) => (c.note ? c.note(i) : i.state)) : ['None.']),
      '',
    ];
  });
  const render = (shown: number) => {
    const rows = sorted.slice(0, shown).map(row);
    const cut = sorted.length - shown;
    return [
      BOARD_MARKER,
      `# ${title}`,
      '',
      `Written by forge-dispatch on each sweep: do not edit it by hand. ${items.length} open work item(s): those a person acts on first, then those running, then those waiting, by stage.`,
      '',
      ...picture(chain, sorted),
      '',
      '| item | state | next phase | waits | last stage written | why |',
      '|---|---|---|---|---|---|',
      ...rows,
      ...(cut > 0 ? ['', `**and ${cut} more** — the full board: the job summary and \`board-file\`.`] : []),
      '',
      ...sections,
      `### Open PRs that carry no annotation and close no listed issue (${pullsWithoutAnnotations.length})`,
      '',
      ...(pullsWithoutAnnotations.length > 0
        ? [
            ...pullsWithoutAnnotations.slice(0, SECTION_MAX).map((n) => `- #${n}`),
            ...(pullsWithoutAnnotations.length > SECTION_MAX ? [`- and ${pullsWithoutAnnotations.length - SECTION_MAX} more`] : []),
          ]
        : ['None.']),
      '',
      ...(unread.length > 0
        ? [
            `### Not read (${unread.length})`,
            '',
            ...unread.slice(0, SECTION_MAX).map((u) => `- ${inert(u)}`),
            ...(unread.length > SECTION_MAX ? [`- and ${unread.length - SECTION_MAX} more`] : []),
            '',
          ]
        : []),
    ].join('\n');
  };
  // The most rows that fit: every row when they do; else the largest prefix (a binary search over the row count).
  const whole = render(sorted.length);
  if (whole.length <= BOARD_MAX_CHARS) return whole;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (render(mid).length <= BOARD_MAX_CHARS) lo = mid;
    else hi = mid - 1;
  }
  return render(lo);
}
