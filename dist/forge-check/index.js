// Entry for actions/forge-check: the shared runtime bundle holds the code.
import { runAction } from '../runtime/index.js';
await runAction("forge-check");
