/** Mermaid's own parser over diagrams, in a child process (Mermaid and jsdom load as plain Node ESM there). */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './run-action.js';

export type MermaidResult = { ok: true; type: string } | { ok: false; error: string };

export function parseMermaid(diagrams: string[]): MermaidResult[] {
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts', 'mermaid-parse.mjs')], {
    input: JSON.stringify(diagrams),
    encoding: 'utf8',
  });
  return JSON.parse(out) as MermaidResult[];
}

/** The bodies of the ```mermaid blocks in a Markdown text. */
export function mermaidBlocks(markdown: string): string[] {
  const out: string[] = [];
  const re = /^```mermaid\r?\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) out.push(m[1]);
  return out;
}
