/**
 * Fixture runner. A fixture is `{description, input, expect: {type, valid,
 * sentinelState?, inlineValue?, fieldChecks?}}` — the reference package's shape,
 * so suites are portable. Extensions: `expect.type: null` (no annotation at
 * all), `expect.count`, `expect.index` (which annotation of the type).
 */
import { parseAndValidate, getField } from '../codec/index.js';

export interface Fixture {
  description: string;
  input: string;
  expect: {
    type: string | null;
    valid?: boolean;
    sentinelState?: string;
    inlineValue?: string | null;
    fieldChecks?: Record<string, string>;
    count?: number;
    index?: number;
  };
}

function check(f: Fixture): string | null {
  if (typeof f.input !== 'string' || !f.expect) return 'fixture has no input string or expect object';
  const all = parseAndValidate(f.input);
  const e = f.expect;
  if (e.count !== undefined && all.length !== e.count) return `expected ${e.count} annotation(s), got ${all.length}`;
  if (e.type === null) return all.length === 0 ? null : `expected no annotation, got ${all.map((a) => a.type).join(', ')}`;
  const ofType = all.filter((a) => a.type === e.type);
  const a = ofType[e.index ?? 0];
  if (!a) return `no ${e.type} annotation found (got ${all.map((x) => x.type).join(', ') || 'none'})`;
  if (e.valid !== undefined && a.valid !== e.valid)
    return `expected valid=${e.valid}, got ${a.valid}${a.errors.length ? ` (${a.errors.join('; ')})` : ''}`;
  if (e.sentinelState !== undefined && a.sentinelState !== e.sentinelState)
    return `expected sentinelState=${e.sentinelState}, got ${a.sentinelState}`;
  if (e.inlineValue !== undefined && a.inlineValue !== e.inlineValue)
    return `expected inlineValue=${JSON.stringify(e.inlineValue)}, got ${JSON.stringify(a.inlineValue)}`;
  for (const [k, v] of Object.entries(e.fieldChecks ?? {})) {
    const got = getField(a.fields, k);
    if (got !== v) return `expected field ${k}=${JSON.stringify(v)}, got ${JSON.stringify(got)}`;
  }
  return null;
}

export function runFixtures(files: Array<{ file: string; text: string }>): { lines: string[]; passed: number; failed: number } {
  const lines: string[] = [];
  let passed = 0;
  let failed = 0;
  for (const { file, text } of files) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      lines.push(`not ok - ${file}: not valid JSON`);
      failed++;
      continue;
    }
    const fixtures = (Array.isArray(data) ? data : [data]) as Fixture[];
    for (const f of fixtures) {
      const problem = check(f);
      const name = `${file}: ${f.description ?? '(no description)'}`;
      if (problem === null) {
        passed++;
        lines.push(`ok - ${name}`);
      } else {
        failed++;
        lines.push(`not ok - ${name}: ${problem}`);
      }
    }
  }
  return { lines, passed, failed };
}
