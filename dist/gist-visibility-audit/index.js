// Entry for actions/gist-visibility-audit: the shared runtime bundle holds the code.
import { runAction } from '../runtime/index.js';
await runAction("gist-visibility-audit");
