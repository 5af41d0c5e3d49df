/** The decision as plain columns: what `forge check` prints. */
import { oneLine } from '../codec/index.js';
import type { CheckResult } from './evaluate.js';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function textReport(result: CheckResult): string {
  const out: string[] = result.notes.map((n) => `note: ${oneLine(n)}`);
  for (const item of result.items) {
    out.push(`${item.kind === 'pull' ? 'PR' : 'issue'} #${item.number}  state: ${item.state}${item.terminal ? ' (terminal)' : ''}`);
    if (item.exempt) out.push(`  ${oneLine(item.exempt)}`);
    const rows = item.types.map((t) => [t.type, t.status, oneLine(t.author ?? '-'), oneLine(t.errors.join('; '))]);
    const w0 = Math.max(4, ...rows.map((r) => r[0].length));
    const w1 = Math.max(6, ...rows.map((r) => r[1].length));
    const w2 = Math.max(6, ...rows.map((r) => r[2].length));
    out.push(`  ${pad('TYPE', w0)}  ${pad('STATUS', w1)}  ${pad('AUTHOR', w2)}  ERRORS`);
    for (const r of rows) out.push(`  ${pad(r[0], w0)}  ${pad(r[1], w1)}  ${pad(r[2], w2)}  ${r[3]}`.trimEnd());
    for (const i of item.ignored) out.push(`  ignored ${i.type} by ${oneLine(i.author ?? '?')} (${i.association}): ${oneLine(i.reason)}`);
  }
  out.push(result.conforming ? 'conforming' : `not conforming:\n${result.problems.map((p) => `  - ${oneLine(p)}`).join('\n')}`);
  return out.join('\n');
}
