// Entry for actions/forge-trajectory-report: the shared runtime bundle holds the code.
import { runAction } from '../runtime/index.js';
await runAction("forge-trajectory-report");
