// Writes docs/annotation-types.md from the type registry (the built codec), so
// the table users read is the table the validator runs. `--check` exits 1 when
// the page is stale.
import { join } from 'node:path';
import { TYPES } from '../dist/codec/index.js';
import { render } from './annotation-types-render.mjs';
import { writeOrCheck } from './generated-file.mjs';

const root = new URL('..', import.meta.url).pathname;
writeOrCheck(join(root, 'docs', 'annotation-types.md'), render(TYPES), 'docs/annotation-types.md', 'node scripts/annotation-types.mjs');
