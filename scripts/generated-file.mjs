// The one way a generated page is written or checked: `--check` exits 1 when
// the committed file differs from what the generator makes now.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheck(file, text, label, command) {
  if (!process.argv.includes('--check')) {
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    console.error(`${label} is out of date: run \`${command}\``);
    process.exit(1);
  }
}
