/**
 * The shared runtime bundle (dist/runtime): every action's code, built once.
 * dist/<action>/index.js imports it and calls runAction with its own name.
 */
/**
 * Each action's run(), by the name of its folder under actions/. Each is a
 * chunk of its own (dist/runtime/<id>.index.js, as are the write plugins and
 * the proxy stack): a step reads and compiles only its own action's code and
 * what it shares, not the other three actions'.
 */
export const ACTIONS: Readonly<Record<string, () => Promise<void>>> = {
  'forge-check': async () => (await import('./forge-check/main.js')).run(),
  'forge-context': async () => (await import('./forge-context/main.js')).run(),
  'forge-emit': async () => (await import('./forge-emit/main.js')).run(),
  'forge-trajectory-report': async () => (await import('./forge-trajectory-report/main.js')).run(),
  'gist-visibility-audit': async () => (await import('./gist-visibility-audit/main.js')).run(),
};

export async function runAction(name: string): Promise<void> {
  const run = ACTIONS[name];
  if (!run) {
    process.stderr.write(`::error::unknown FORGE action "${name}"\n`);
    process.exitCode = 1;
    return;
  }
  await run();
}
