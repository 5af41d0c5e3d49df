// Entry for actions/forge-context: the shared runtime bundle holds the code.
import { runAction } from '../runtime/index.js';
await runAction("forge-context");
