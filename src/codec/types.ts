/** The shapes the codec reads into and writes from. */

export type SentinelState = 'complete' | 'partial' | 'interrupted';

export interface Table {
  /** The `### heading` the table sits under, or null for a table before any section. */
  section: string | null;
  headers: string[];
  rows: Record<string, string>[];
}

export interface ChecklistItem {
  section: string | null;
  checked: boolean;
  text: string;
}

export interface Field {
  key: string;
  value: string;
  /** Line index within the comment body. */
  line: number;
}

export interface Finding {
  severity: string | null;
  location: string | null;
  issue: string | null;
  suggestedFix: string | null;
  prevention: string | null;
}

export interface TrajectoryPhase {
  phase: string;
  result: string;
  notes: string;
}

export interface Trajectory {
  phases: TrajectoryPhase[];
  decisions: string | null;
  anomalies: string | null;
  completed: string | null;
  prNumber: number | null;
  branch: string | null;
}

export interface Card {
  version: string;
  sha: string;
  b64: string;
  /** The decoded payload, or null when it does not decode. */
  payload: unknown;
  /** The decoded JSON text, or null. */
  json: string | null;
}

export interface Annotation {
  type: string;
  /** Registry category, or 'custom' for a type the registry does not hold. */
  category: string;
  isReserved: boolean;
  isControl: boolean;
  sentinelState: SentinelState;
  /** The sentinel line that decided the state, without delimiters (`INVESTIGATION:COMPLETE`). */
  sentinel: string | null;
  /** Inline value (§3.4) or a marker's ` — description`, decoded; null when the tag has none. */
  inlineValue: string | null;
  /** The `## ` line under the tag, decoded. */
  title: string | null;
  /** Fields by key. When a key repeats, the first occurrence wins (it is what a reader sees first). */
  fields: Record<string, string>;
  /** Every field line, repeats included, in order. */
  fieldList: Field[];
  /** `### Heading` → the section's Markdown, decoded and trimmed. First occurrence wins. */
  sections: Record<string, string>;
  tables: Table[];
  checklist: ChecklistItem[];
  /** REVIEWER only. */
  findings?: Finding[];
  /** TRAJECTORY only. */
  trajectory?: Trajectory;
  /** DESIGN_SPEC only: the fenced jsonc block as an object, or null when absent or unreadable. */
  designSpec?: unknown;
  /** CARD only. */
  card?: Card | null;
  /** Sentinel lines inside this annotation that belong to another type (never complete it). */
  foreignSentinels: string[];
  /** Fields read under a known other spelling (`Pipeline completed` → `Completed`); the registry lists them. */
  fieldAliases: Array<{ written: string; field: string }>;
  /**
   * Offsets of the annotation's extent in the comment body: [start, end). §3.1:
   * from the tag to the next whole-line opening tag or the end of the comment
   * (trailing blank lines left out). Text after a sentinel belongs to it.
   */
  start: number;
  end: number;
  /**
   * Where the producer's own text ends: the deciding sentinel line; for
   * one-line forms the tag line and any `**Key**:` lines right under it; else
   * `end`. In-place edits replace [start, closeEnd) and keep what follows.
   */
  closeEnd: number;
  /** First and last line index of the annotation within the body. */
  startLine: number;
  endLine: number;
  /** The annotation's text exactly as it stands in the body. */
  raw: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
  /**
   * Template fields and structures the annotation lacks: the spec's templates
   * show them but nothing normative requires them. Also listed in `warnings`;
   * forge-check's `validation: template` counts them as failures.
   */
  templateGaps: string[];
}
