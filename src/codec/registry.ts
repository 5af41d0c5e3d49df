/**
 * The type registry: every annotation type this codec knows, as data.
 *
 * Adding a type means adding a row here. The parser, validator and emitter
 * read these rows; none of them branches on a type name.
 */
import { isTypeNameChar, isUpper, UNDERSCORE } from './chars.js';

export type Category = 'lifecycle' | 'cross-artifact' | 'control' | 'design' | 'audit' | 'deployed';

/** How a type's value travels: a Markdown body, a value inside the tag, or nothing. */
export type Form = 'body' | 'inline' | 'marker' | 'described-marker';

export type SectionKind = 'text' | 'table' | 'checklist' | 'list' | 'numbered';

/**
 * How much a field or section is asked for:
 * - `required`: the spec makes it normative, or deployed readers depend on it
 *   and the reference codec enforces it — absent is an error;
 * - `template`: the spec's template shows it, nothing normative asks for it —
 *   absent is a warning (an error only under forge-check `validation: template`);
 * - `optional`: absent says nothing.
 */
export type Presence = 'required' | 'template' | 'optional';

export interface SectionSpec {
  heading: string;
  kind: SectionKind;
  /** Column headers, for kind 'table'. */
  columns?: string[];
  presence?: Presence;
}

export interface FieldSpec {
  name: string;
  presence: Presence;
  /** Why it is required, when the spec itself does not say so (cited in docs/annotation-types.md). */
  because?: string;
  /** The template writes the value as a code span (`` **Branch**: `…` ``); emit does the same. */
  codeSpan?: boolean;
  /** Allowed leading values; compared case-insensitively against the value's first token(s). */
  values?: readonly string[];
  /** When false, a value outside `values` is a warning rather than an error. */
  strictValues?: boolean;
  /**
   * Read this field from a `### {name}` section whose first line is `**VALUE** — reason`
   * when no `**{name}**:` line exists (the INVESTIGATOR template's own shape).
   */
  fromSection?: boolean;
  /** Extra check on the value; returns an error text or null. */
  format?: 'iso8601';
}

export interface TypeSpec {
  type: string;
  category: Category;
  /** Spec section cited in errors. */
  ref: string;
  form: Form;
  /** Completion sentinel text without the comment delimiters, or null when presence is completion. */
  complete: string | null;
  /** Title written under the tag by the emitter (`## {title}`). */
  title?: string;
  fields: FieldSpec[];
  sections: SectionSpec[];
  /** Table written right after the title, before the fields (TRAJECTORY's phase table). */
  leadTable?: { columns: string[]; presence: Presence };
  /**
   * Other spellings deployed producers write for a template field, read as the
   * field with a warning: written key (case-insensitive) → the field's name.
   */
  aliases?: Record<string, string>;
  /**
   * Sentinel lines deployed pipelines close this type with that are not its
   * completion sentinel: sentinel → what to tell the maintainer. The annotation
   * stays incomplete (§3.2); the message replaces the generic "missing".
   */
  misclosures?: Record<string, string>;
  /** Special structure readers for this type. */
  structure?: 'reviewer-findings' | 'trajectory' | 'design-spec' | 'design-rationale' | 'card';
  /** Where the annotation lives when it is not an ordinary comment. */
  postedIn?: 'issue-body' | 'milestone' | 'gist-description';
  /** Bold-key syntax the spec template uses for this type. */
  keyStyle: 'colon-after' | 'colon-inside';
}

/** §4.1's task types, in the template's order. */
export const TASK_TYPES: readonly string[] = ['Bug Fix', 'Feature', 'Refactor', 'Maintenance', 'Investigation'];

const lifecycle = (t: Omit<TypeSpec, 'category' | 'ref' | 'keyStyle' | 'form'> & Partial<TypeSpec>): TypeSpec => ({
  category: 'lifecycle',
  ref: '§4.1',
  form: 'body',
  keyStyle: 'colon-after',
  ...t,
});

const design = (t: Omit<TypeSpec, 'category' | 'ref' | 'keyStyle' | 'form'> & Partial<TypeSpec>): TypeSpec => ({
  category: 'design',
  ref: '§4.4',
  form: 'body',
  keyStyle: 'colon-inside',
  ...t,
});

const inline = (type: string, extra: Partial<TypeSpec> = {}): TypeSpec => ({
  type,
  category: 'cross-artifact',
  ref: '§4.2',
  form: 'inline',
  complete: null,
  fields: [],
  sections: [],
  keyStyle: 'colon-after',
  ...extra,
});

const marker = (type: string, extra: Partial<TypeSpec> = {}): TypeSpec => ({
  type,
  category: 'control',
  ref: '§4.3',
  form: 'marker',
  complete: null,
  fields: [],
  sections: [],
  keyStyle: 'colon-after',
  ...extra,
});

const field =
  (presence: Presence) =>
  (name: string, values?: readonly string[], extra: Partial<FieldSpec> = {}): FieldSpec => ({
    name,
    presence,
    ...(values ? { values } : {}),
    ...extra,
  });
/** Normative in the spec, or relied on by deployed readers (then `because` says so). */
const req = field('required');
/** Shown by the spec's template, not required by anything normative. */
const tpl = field('template');
const opt = field('optional');

/** Deployed readers and the reference codec require these (implementation-notes.md §3). */
const READERS = 'deployed readers depend on it; the reference codec requires it';

export const TYPES: readonly TypeSpec[] = [
  // §4.1 lifecycle
  lifecycle({
    type: 'INVESTIGATOR',
    complete: 'INVESTIGATION:COMPLETE',
    title: 'Investigation Report',
    misclosures: { 'INVESTIGATION:INVALID': 'not the §4.1 sentinel (Verdict: INVALID)' },
    fields: [
      req('Verdict', ['CONFIRMED', 'PARTIAL', 'INVALID']),
      req('Confidence', ['HIGH', 'MEDIUM', 'LOW']),
      req('Severity', ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']),
      req('Task Type', TASK_TYPES),
      req('Decomposition Assessment', ['YES', 'NO'], { fromSection: true }),
    ],
    sections: [
      { heading: 'What Was Claimed', kind: 'text' },
      { heading: 'What We Found', kind: 'text' },
      { heading: 'Root Cause', kind: 'text' },
      { heading: 'Affected Files', kind: 'numbered' },
      { heading: 'Evidence', kind: 'text' },
      { heading: 'Recommendation', kind: 'text' },
    ],
  }),
  lifecycle({
    type: 'DECOMPOSED',
    complete: 'FORGE:DECOMPOSED:COMPLETE',
    title: 'Decomposition Complete',
    fields: [],
    sections: [
      { heading: 'Sub-Issues Created', kind: 'list', presence: 'template' },
      { heading: 'Decomposition Rationale', kind: 'text' },
    ],
  }),
  lifecycle({
    type: 'CONTRACT',
    complete: null,
    title: 'Builder Contract',
    // The spec writes "Task type" here (lower-case t); keys compare case-insensitively.
    fields: [req('Task type', TASK_TYPES, { strictValues: false, because: READERS })],
    sections: [
      { heading: 'Proposed Approach', kind: 'text' },
      { heading: 'Deliverables', kind: 'table', columns: ['File', 'Change', 'Why'] },
      { heading: 'Acceptance Criteria', kind: 'checklist' },
      { heading: 'Quality Considerations', kind: 'text' },
      { heading: 'Out of Scope', kind: 'text' },
    ],
  }),
  lifecycle({
    type: 'CONTEXT',
    complete: 'FORGE:CONTEXT:COMPLETE',
    title: 'Implementation Context',
    fields: [],
    sections: [
      { heading: 'Known Pitfalls for This Area', kind: 'text' },
      { heading: 'Historical Findings on These Files', kind: 'text' },
      { heading: 'Past Bugs in This Module', kind: 'text' },
      { heading: 'Related Code Paths (must stay consistent)', kind: 'text' },
      { heading: 'Patterns That Cause Bugs Here', kind: 'text' },
      { heading: 'Successful Similar Implementations', kind: 'text' },
    ],
  }),
  lifecycle({
    type: 'ARCHITECT',
    complete: 'FORGE:ARCHITECT:COMPLETE',
    title: 'Implementation Plan',
    fields: [],
    sections: [
      {
        heading: 'Affected Paths (ALL must be updated)',
        kind: 'table',
        columns: ['#', 'File', 'Function/Class', 'Change Required', 'Why'],
      },
      { heading: 'Implementation Order', kind: 'numbered' },
      { heading: 'Consistency Checks', kind: 'checklist' },
      { heading: 'Risk Assessment', kind: 'table', columns: ['Risk', 'Severity', 'Mitigation'] },
      { heading: 'Files to Read Before Coding', kind: 'list' },
    ],
  }),
  lifecycle({
    type: 'BUILDER',
    complete: 'FORGE:BUILDER:COMPLETE',
    title: 'Implementation Complete',
    // The spec's template carries these three; the reference requires them (implementation-notes.md §3).
    fields: [
      req('Branch', undefined, { because: READERS, codeSpan: true }),
      req('Commits', undefined, { because: READERS }),
      req('Files changed', undefined, { because: READERS }),
    ],
    aliases: {
      'Branch name': 'Branch',
      Commit: 'Commits',
      'Commit SHA': 'Commits',
      'Commit SHAs': 'Commits',
      'Files Modified': 'Files changed',
    },
    sections: [
      { heading: 'Approach', kind: 'text' },
      { heading: 'Changes', kind: 'list' },
      { heading: 'Acceptance Criteria Status', kind: 'checklist' },
      { heading: 'Testing Checklist', kind: 'checklist' },
    ],
  }),
  lifecycle({
    type: 'REVIEWER',
    complete: null,
    title: 'Review',
    fields: [req('Verdict', ['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED'], { because: READERS })],
    sections: [{ heading: 'Findings', kind: 'text' }],
    structure: 'reviewer-findings',
  }),
  lifecycle({
    type: 'TRAJECTORY',
    complete: null,
    title: 'Pipeline Trajectory',
    leadTable: { columns: ['Phase', 'Result', 'Notes'], presence: 'template' },
    fields: [tpl('Decisions'), tpl('Anomalies'), tpl('Completed', undefined, { format: 'iso8601' })],
    aliases: {
      'Pipeline completed': 'Completed',
      'Completed at': 'Completed',
      'Completion time': 'Completed',
      'Key decisions': 'Decisions',
      Decision: 'Decisions',
      Anomaly: 'Anomalies',
    },
    sections: [],
    structure: 'trajectory',
  }),

  // §4.2 cross-artifact
  inline('KNOWLEDGE_GIST'),
  inline('MILESTONE_INDEX', { postedIn: 'milestone' }),
  inline('PRIOR_GIST', { postedIn: 'issue-body' }),
  // Written in a gist's description as `<!-- FORGE:MEMORY_INDEX: {owner/repo} -->` (implementation-notes.md §2).
  inline('MEMORY_INDEX', { postedIn: 'gist-description' }),

  // §4.3 control and error markers
  marker('DISPATCHER', { form: 'described-marker' }),
  marker('PHASE_COMPLETE', { form: 'described-marker' }),
  marker('REVIEW_STARTED'),
  marker('ANCESTRY_FAILED'),
  marker('GATE_FAILED'),
  marker('PUSH_BLOCKED'),
  marker('PUSH_FAILED'),

  // §4.4 design pipeline
  design({
    type: 'DESIGN_CONTEXT',
    complete: 'FORGE:DESIGN_CONTEXT:COMPLETE',
    title: 'Design Context',
    fields: [tpl('Message'), tpl('Audience / objection'), tpl('Corpus grammar'), tpl('Diverge from (memory)')],
    sections: [],
  }),
  design({
    type: 'DESIGN_RATIONALE',
    complete: null,
    title: 'Design Rationale',
    // §4.4: "MUST carry … a named signature move"; the rejected alternative and
    // the DESIGN_SPEC link are checked by the design-rationale structure rule.
    fields: [
      tpl('Intent / feeling'),
      tpl('Audience / objection'),
      tpl('Communication hierarchy'),
      tpl('Direction'),
      req('Signature move'),
      tpl('Trying this time'),
      tpl('Non-goals'),
    ],
    sections: [],
    structure: 'design-rationale',
  }),
  design({
    type: 'DESIGN_CANDIDATES',
    complete: null,
    title: 'Design Candidates',
    fields: [tpl('Archetype (committed)'), tpl('Directions'), tpl('Judge scores'), tpl('Selected')],
    sections: [],
  }),
  design({
    type: 'DESIGN_SPEC',
    complete: null,
    title: 'Design Spec',
    fields: [],
    sections: [],
    structure: 'design-spec',
  }),
  design({
    type: 'CRITIQUE',
    complete: 'FORGE:CRITIQUE:COMPLETE',
    title: 'Critique',
    fields: [tpl('Lint floor'), tpl('Render'), tpl('Perceptual findings'), tpl('Verdict', ['PASS', 'ITERATE', 'BUDGET-EXHAUSTED'])],
    sections: [],
  }),
  design({
    type: 'USER_FEEDBACK',
    complete: 'FORGE:USER_FEEDBACK:COMPLETE',
    title: 'User Feedback',
    fields: [
      tpl('Section target'),
      tpl('Feedback type', ['asset', 'emotion', 'direction', 'freeform']),
      tpl('Asset URL'),
      tpl('Modification'),
      tpl('Emotion target', ['trust', 'speed', 'power', 'craft', 'play', 'unchanged']),
      tpl('Satisfied', ['yes', 'no']),
      tpl('Freeform notes'),
    ],
    sections: [],
  }),
  design({
    type: 'BENCH_SCORECARD',
    complete: 'FORGE:BENCH_SCORECARD:COMPLETE',
    title: 'ABC Benchmark Scorecard',
    keyStyle: 'colon-after',
    fields: [tpl('Corpus version'), tpl('Products'), tpl('Judge calibration')],
    sections: [],
  }),
  design({
    type: 'DESIGN_SHIPPED',
    complete: 'FORGE:DESIGN_SHIPPED:COMPLETE',
    title: 'Design Shipped',
    fields: [tpl('Archetype'), tpl('Gates'), tpl('Critique iterations'), tpl('Written to memory')],
    sections: [],
  }),

  // §4.5 audit
  {
    type: 'AUDIT',
    category: 'audit',
    ref: '§4.5',
    form: 'body',
    complete: null,
    title: 'Audit',
    fields: [],
    sections: [],
    keyStyle: 'colon-after',
  },
  {
    type: 'SECURITY_AUDIT',
    category: 'audit',
    ref: '§4.5',
    form: 'body',
    complete: null,
    title: 'Security Audit',
    fields: [],
    sections: [],
    keyStyle: 'colon-after',
  },

  // Deployed extras (implementation-notes.md §3)
  {
    type: 'CLAIM',
    category: 'deployed',
    ref: 'implementation-notes.md §3',
    form: 'body',
    complete: 'CLAIM:COMPLETE',
    title: 'Claim',
    fields: [
      req('Holder', undefined, { because: READERS }),
      req('Files', undefined, { because: READERS }),
      req('Interfaces', undefined, { because: READERS }),
      req('TTL', undefined, { because: READERS }),
    ],
    sections: [],
    keyStyle: 'colon-after',
  },
  // A marker whose deployed form carries `**Holder**:` and `**Released**:` lines under the tag.
  marker('CLAIM_RELEASED', { category: 'deployed', ref: 'implementation-notes.md §3', fields: [opt('Holder'), opt('Released')] }),
  {
    type: 'AUTOPILOT_CYCLE',
    category: 'deployed',
    ref: 'implementation-notes.md §3',
    form: 'body',
    complete: 'FORGE:AUTOPILOT_CYCLE:COMPLETE',
    title: 'Autopilot Cycle',
    fields: [
      req('cycle_id', undefined, { because: READERS }),
      req('timestamp', undefined, { because: READERS }),
      req('baseline', undefined, { because: READERS }),
      req('phase_markers', undefined, { because: READERS }),
    ],
    sections: [],
    keyStyle: 'colon-after',
  },
  {
    type: 'REMEDIATION',
    category: 'deployed',
    ref: 'implementation-notes.md §3',
    form: 'body',
    complete: 'FORGE:REMEDIATION:COMPLETE',
    title: 'Remediation',
    fields: [opt('Re-gate outcome', ['AUTO-LANDED', 'HELD-AWAITING-MERGE', 'RE-ESCALATED', 'UNFIXABLE'])],
    sections: [],
    keyStyle: 'colon-after',
  },
  inline('CARD', { category: 'deployed', ref: 'implementation-notes.md §3', structure: 'card' }),
];

const BY_TYPE = new Map(TYPES.map((t) => [t.type, t]));

/** Each type's `aliases` keyed by the lower-cased spelling, built once: the parser looks one up per field read. */
const ALIASES = new Map(
  TYPES.filter((t) => t.aliases).map((t) => [
    t.type,
    new Map(Object.entries(t.aliases ?? {}).map(([written, field]) => [written.toLowerCase(), field])),
  ]),
);

/** The field `key` is another spelling of for `type` (registry `aliases`, any letter case), or undefined. */
export function aliasFor(type: string, key: string): string | undefined {
  return ALIASES.get(type)?.get(key.toLowerCase());
}

export function typeSpec(type: string): TypeSpec | undefined {
  return BY_TYPE.get(type);
}

export function isReserved(type: string): boolean {
  return BY_TYPE.has(type);
}

export function isControl(type: string): boolean {
  const spec = BY_TYPE.get(type);
  return spec !== undefined && (spec.form === 'marker' || spec.form === 'described-marker');
}

export function isInline(type: string): boolean {
  return BY_TYPE.get(type)?.form === 'inline';
}

/** Type identifiers this codec reads: `[A-Z][A-Z0-9_]*` (implementation-notes.md §2). */
export function isTypeName(s: string): boolean {
  if (s.length === 0 || s.length > 100) return false;
  const first = s.charCodeAt(0);
  if (!isUpper(first)) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isTypeNameChar(c)) return false;
  }
  return true;
}

/** The stricter `[A-Z_]+` grammar the reference and text-contains readers use. */
export function isReferenceTypeName(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!(isUpper(c) || c === UNDERSCORE)) return false;
  }
  return true;
}

/** A completion sentinel's partial twin: `INVESTIGATION:COMPLETE` → `INVESTIGATION:PARTIAL`. */
function partialOf(complete: string): string {
  return `${complete.slice(0, complete.length - 'COMPLETE'.length)}PARTIAL`;
}

/**
 * The sentinels that mark `type` partial (§3.3 and implementation-notes.md §2):
 * the generic `{TYPE}:PARTIAL`, the `FORGE:{TYPE}:PARTIAL` shape, and the
 * completion sentinel with COMPLETE replaced by PARTIAL. The last is what we emit.
 */
export function partialSentinels(type: string): string[] {
  const out = new Set<string>([`${type}:PARTIAL`, `FORGE:${type}:PARTIAL`]);
  const complete = completionSentinels(type)[0];
  if (complete) out.add(partialOf(complete));
  return [...out];
}

/**
 * The completion sentinel the emitter writes: the type's own, or §3.2's
 * generic `{TYPE}:COMPLETE` for a custom type (a reader matching the spec's
 * line exactly sees it). Null for types complete by presence.
 */
export function emittedCompleteSentinel(type: string): string | null {
  const spec = BY_TYPE.get(type);
  if (spec) return spec.complete;
  return `${type}:COMPLETE`;
}

/** The partial sentinel the emitter writes: the completion sentinel with PARTIAL, else §3.3's `{TYPE}:PARTIAL`. */
export function emittedPartialSentinel(type: string): string {
  const complete = emittedCompleteSentinel(type);
  return complete ? partialOf(complete) : `${type}:PARTIAL`;
}

/**
 * The sentinels that complete `type`. A reserved type has exactly its own; a
 * custom type accepts `FORGE:{T}:COMPLETE` or `{T}:COMPLETE` (implementation-notes.md §2) and
 * nothing else, so a foreign sentinel never completes it.
 */
export function completionSentinels(type: string): string[] {
  const spec = BY_TYPE.get(type);
  if (spec) return spec.complete ? [spec.complete] : [];
  return [`FORGE:${type}:COMPLETE`, `${type}:COMPLETE`];
}

const SENTINEL_CACHE = new Map<string, { complete: ReadonlySet<string>; partial: ReadonlySet<string> }>();

/** Both sentinel sets of a type, computed once per type. */
export function sentinelSets(type: string): { complete: ReadonlySet<string>; partial: ReadonlySet<string> } {
  let sets = SENTINEL_CACHE.get(type);
  if (!sets) {
    sets = { complete: new Set(completionSentinels(type)), partial: new Set(partialSentinels(type)) };
    // Custom types are unbounded; keep the cache from growing without limit on hostile input.
    if (SENTINEL_CACHE.size < 1000) SENTINEL_CACHE.set(type, sets);
  }
  return sets;
}

/** Types complete by presence alone: reserved types without a sentinel, markers, inline values. */
export function completeWhenPresent(type: string): boolean {
  const spec = BY_TYPE.get(type);
  return spec !== undefined && spec.complete === null;
}
