/**
 * The line table's reusable buffers. This file runs first in its own module
 * registry, so the buffers start at their initial 1,024 lines here: a body
 * with one line more must make them grow, not lose its last line.
 */
import { LineTable } from '../src/codec/lines.js';

test('a body of 1,024 line breaks has 1,025 lines, the last one kept', () => {
  const t = new LineTable('\n'.repeat(1024));
  expect(t.count).toBe(1025);
  expect([t.start[1024], t.end[1024]]).toEqual([1024, 1024]);
  expect([t.start[1023], t.end[1023]]).toEqual([1023, 1023]);
});

test('lone CRs, CRLF and LF each end one line, a CR first in the body included', () => {
  const t = new LineTable('\ra\r\nb\nc\r\rd');
  const lines = Array.from({ length: t.count }, (_, i) => t.text(i));
  expect(lines).toEqual(['', 'a', 'b', 'c', '', 'd']);
});
