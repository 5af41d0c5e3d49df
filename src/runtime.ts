/**
 * The shared runtime bundle (dist/runtime): every action's code, built once.
 * dist/<action>/index.js imports it and calls runAction with its own name.
 */
/**
 * Each action's run(), by the name of its folder under actions/. Loaded on
 * demand: a step compiles only its own action's code (and what it shares),
 * not the other three actions' — the runtime bundle is split per action.
 */
export const ACTIONS: Readonly<Record<string, () => Promise<void>>> = {
  'forge-check': async () => (await import(/* webpackMode: "eager" */ './forge-check/main.js')).run(),
  'forge-emit': async () => (await import(/* webpackMode: "eager" */ './forge-emit/main.js')).run(),
  'forge-trajectory-report': async () => (await import(/* webpackMode: "eager" */ './forge-trajectory-report/main.js')).run(),
  'gist-visibility-audit': async () => (await import(/* webpackMode: "eager" */ './gist-visibility-audit/main.js')).run(),
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
