// Parses Mermaid diagrams with Mermaid's own parser (the one GitHub renders
// with) and prints one result per diagram as JSON: {ok, type} or {ok: false,
// error}. Diagrams come as a JSON array on stdin. Used by the tests; Mermaid
// needs a DOM for its sanitiser, so jsdom provides one.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const diagrams = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const results = [];
for (const text of diagrams) {
  try {
    const parsed = await mermaid.parse(text);
    results.push({ ok: true, type: parsed.diagramType });
  } catch (e) {
    results.push({
      ok: false,
      error: String(e?.message ?? e)
        .split('\n')
        .slice(0, 3)
        .join(' '),
    });
  }
}
process.stdout.write(JSON.stringify(results));
