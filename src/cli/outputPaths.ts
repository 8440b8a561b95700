/**
 * Output paths are tried before any work: a command that writes a folder or a file checks that it
 * can, so that a bad `--out` costs a moment, not a whole search. Each failure is a UsageError of
 * one line naming the option, the path and the reason in words.
 */
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileProblem } from '../fileProblem.ts';
import { UsageError } from './usageError.ts';

/** What a command writes: a folder it fills (created if missing) or a single file. */
export type OutputKind = 'folder' | 'file';

/** An output path a command was given: the option that named it, what it is, and the path. */
export interface OutputPath {
  readonly flag: string;
  readonly kind: OutputKind;
  readonly path: string;
}

/**
 * What is at `at`, or undefined when nothing is, or when a part of its path is a file (`ENOTDIR`:
 * the caller climbs to name that part); other failures are a UsageError about `path`.
 */
function stat(flag: string, path: string, at: string) {
  try {
    return statSync(at, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOTDIR') return undefined;
    throw cannot(flag, path, fileProblem(e));
  }
}

/**
 * The nearest existing folder that holds `path` (`path` itself excluded), or a UsageError when
 * the nearest existing one is a file. `path` is the user's text; so are the folders named.
 */
function existingParent(flag: string, path: string): { parent: string; missing: string[] } {
  const missing: string[] = [];
  let child = path;
  for (;;) {
    const parent = dirname(child);
    missing.unshift(child);
    const found = stat(flag, path, parent);
    if (found?.isDirectory()) return { parent, missing };
    if (found) throw cannot(flag, path, `${parent} is a file, not a folder`);
    if (parent === child) throw cannot(flag, path, 'no folder of it exists');
    child = parent;
  }
}

function cannot(flag: string, path: string, why: string): UsageError {
  return new UsageError(`${flag}: cannot write ${path}: ${why}`);
}

/**
 * Why creating an entry in the existing `folder` failed. A missing entry there means the file
 * system refuses new ones (`/proc`), not that something is missing.
 */
function refusal(e: unknown, folder: string): string {
  const missing = (e as { code?: unknown }).code === 'ENOENT';
  return missing ? `${folder} does not allow new entries` : fileProblem(e);
}

/** Creates the folders `missing` (outermost first), then removes them again: a dry run. */
function tryFolders(flag: string, path: string, parent: string, missing: readonly string[]): void {
  const made: string[] = [];
  try {
    for (const folder of missing) {
      mkdirSync(folder);
      made.push(folder);
    }
  } catch (e) {
    throw cannot(flag, path, refusal(e, made.at(-1) ?? parent));
  } finally {
    for (const folder of made.reverse()) rmdirSync(folder);
  }
}

/** Creates and removes an entry of a unique name in the existing folder `path`. */
function tryFolder(flag: string, path: string): void {
  try {
    rmdirSync(mkdtempSync(join(path, '.kvcheck-')));
  } catch (e) {
    throw cannot(flag, path, refusal(e, path));
  }
}

/** Opens `file` for writing without changing it, or creates and removes it. */
function tryFile(flag: string, file: string, parent: string): void {
  const existed = stat(flag, file, file) !== undefined;
  try {
    closeSync(openSync(file, existed ? 'r+' : 'wx'));
    if (!existed) unlinkSync(file);
  } catch (e) {
    throw cannot(flag, file, refusal(e, parent));
  }
}

/**
 * Checks that each output can be written, before the command does any work: a folder must be a
 * folder, or be creatable where it is missing (tried by creating it and removing it again), and
 * writable; a file must not be a folder, and must sit in an existing folder where it can be
 * written (tried by opening it, or creating and removing it). Nothing the user had is changed.
 * Throws a UsageError such as `--out: cannot write README.md/sub: README.md is a file, not a
 * folder`.
 */
export function checkOutputPaths(outputs: readonly OutputPath[]): void {
  for (const { flag, kind, path } of outputs) {
    const found = stat(flag, path, path);
    if (kind === 'folder') {
      if (found?.isDirectory()) {
        tryFolder(flag, path);
        continue;
      }
      if (found) throw cannot(flag, path, 'it is a file, not a folder');
      const { parent, missing } = existingParent(flag, path);
      tryFolders(flag, path, parent, missing);
      continue;
    }
    if (found?.isDirectory()) throw cannot(flag, path, 'it is a folder, not a file');
    const { parent, missing } = existingParent(flag, path);
    if (missing.length > 1) {
      throw cannot(flag, path, `the folder ${dirname(path)} does not exist`);
    }
    tryFile(flag, path, parent);
  }
}

/** The UsageError for a write that failed after all: the option, the path and why, in words. */
export function writeFailure(flag: string, path: string, e: unknown): UsageError {
  return cannot(flag, path, fileProblem(e));
}

/**
 * Writes each `[name, text]` of `files` into the folder `dir`, created (with its parents) when
 * missing, even when there is no file to write. A failure is the UsageError of `writeFailure`
 * for `flag` and `dir`.
 */
export function writeFilesInto(
  flag: string,
  dir: string,
  files: readonly (readonly [string, string])[],
): void {
  try {
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
  } catch (e) {
    throw writeFailure(flag, dir, e);
  }
}
