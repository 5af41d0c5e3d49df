/**
 * Periods as users write them (`30m`, `6h`, `2d`): the inputs, the pipeline
 * file and the CLI read them with this one rule.
 */
const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
const PERIOD = /^(\d{1,6})\s*([mhd])$/;

/** The period in milliseconds; null when the text is not a period of at least one unit. */
export function periodMs(text: string): number | null {
  const m = PERIOD.exec(text.trim());
  return m && Number(m[1]) > 0 ? Number(m[1]) * UNIT_MS[m[2]] : null;
}

/** A period in the largest unit that divides it (`2d`, `90m`), the way a user would write it back. */
export function formatPeriod(ms: number): string {
  for (const unit of ['d', 'h', 'm'] as const) if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${ms}ms`;
}
