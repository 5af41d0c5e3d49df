// Entry for actions/forge-dispatch: the shared runtime bundle holds the code.
import { runAction } from '../runtime/index.js';
await runAction("forge-dispatch");
