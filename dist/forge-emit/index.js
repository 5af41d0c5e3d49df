// Entry for actions/forge-emit: the shared runtime bundle holds the code.
import { runAction } from '../runtime/index.js';
await runAction("forge-emit");
