/**
 * Path inputs (`body-file`, `output-file`, checkpoints) resolve inside
 * GITHUB_WORKSPACE and nowhere else: no `..` out of it, no absolute path
 * elsewhere, no symlink leading out. Otherwise `body-file: /proc/self/environ`
 * posts the workflow token in a public comment.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { quote } from '../codec/index.js';
import { fileErrorText, UsageError } from './errors.js';

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest (for files yet to be written). */
function realOrAncestor(path: string): string {
  let existing = path;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(existing.slice(parent.length).replace(/^[\\/]+/, ''));
    existing = parent;
  }
  const real = existsSync(existing) ? realpathSync(existing) : existing;
  return rest.length > 0 ? resolve(real, ...rest) : real;
}

/**
 * The absolute path of a path input, checked to stay inside the workspace
 * (symlinks resolved). Throws a UsageError naming the input otherwise.
 */
export function workspacePath(input: string, value: string, workspace: string): string {
  if (value.includes('\0')) throw new UsageError(`${input}: ${quote(value)} is not a path`);
  const root = resolve(workspace);
  const path = isAbsolute(value) ? resolve(value) : resolve(root, value);
  const outside = `${input}: ${quote(value)} is outside the workspace (${root}); path inputs must name a file inside GITHUB_WORKSPACE`;
  if (!within(root, path)) throw new UsageError(outside);
  const realRoot = existsSync(root) ? realpathSync(root) : root;
  if (!within(realRoot, realOrAncestor(path))) throw new UsageError(`${outside} (a symbolic link leads out of it)`);
  return path;
}

/**
 * Write a file the workspace keeps (reports, checkpoints, release notes),
 * making its folder: written beside it and renamed into place, so a cancelled
 * job never leaves half a file for the next step or the next run.
 */
/**
 * What `.forge/.gitignore` says: everything in the folder stays out of git. The
 * context pack quotes secret gists (spec §4.2: they MUST be secret), and an
 * agent's `git add -A` would otherwise publish it in a commit.
 */
export const FORGE_GITIGNORE = '# Written by FORGE Actions: what is here can quote secret gists (spec §4.2); keep it out of commits.\n*\n';

/** The `.forge` folder a path is written into, if any: its nearest enclosing folder of that name. */
function forgeFolder(path: string): string | null {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) if (basename(dir) === '.forge') return dir;
  return null;
}

/** A `.gitignore` in the `.forge` folder, written once; one already there (the user's) is left as it is. */
function ignoreForgeFolder(path: string): void {
  const folder = forgeFolder(path);
  if (folder === null) return;
  try {
    writeFileSync(join(folder, '.gitignore'), FORGE_GITIGNORE, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

export function writeWorkspaceFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  ignoreForgeFolder(path);
  // A name nobody can guess, created only if it does not exist (`wx`): a file or link planted in
  // the workspace beforehand is never written through.
  const temporary = `${path}.${randomBytes(8).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  renameSync(temporary, path);
}

/** A file a path input names (already checked by workspacePath); unreadable is the user's mistake. */
export function readWorkspaceFile(path: string, input: string, given: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${input} ${JSON.stringify(given)} cannot be read: ${fileErrorText(e)}`);
  }
}
