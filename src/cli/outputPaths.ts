/**
 * Output paths are tried before any work: a command that writes a folder or a file checks that it
 * can, so that a bad `--out` costs a moment, not a whole search. Each failure is a UsageError of
 * one line naming the option, the path and the reason in words.
 */
import { closeSync, mkdirSync, openSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
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

function stat(path: string) {
  return statSync(path, { throwIfNoEntry: false });
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
    let found: ReturnType<typeof stat>;
    try {
      found = stat(parent);
    } catch (e) {
      // ENOTDIR: something above `parent` is a file; keep climbing to name it.
      if ((e as { code?: unknown }).code !== 'ENOTDIR') throw cannot(flag, path, fileProblem(e));
    }
    if (found?.isDirectory()) return { parent, missing };
    if (found) throw cannot(flag, path, `${parent} is a file, not a folder`);
    if (parent === child) throw cannot(flag, path, 'no folder of it exists');
    child = parent;
  }
}

function cannot(flag: string, path: string, why: string): UsageError {
  return new UsageError(`${flag}: cannot write ${path}: ${why}`);
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
    const code = (e as { code?: unknown }).code;
    const inside = made.at(-1) ?? parent;
    throw cannot(
      flag,
      path,
      code === 'ENOENT' ? `${inside} does not allow new entries` : fileProblem(e),
    );
  } finally {
    for (const folder of made.reverse()) rmdirSync(folder);
  }
}

/** Opens `file` for writing without changing it, or creates and removes it. */
function tryFile(flag: string, file: string, parent: string): void {
  const existed = stat(file) !== undefined;
  try {
    closeSync(openSync(file, existed ? 'r+' : 'wx'));
    if (!existed) unlinkSync(file);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw cannot(
      flag,
      file,
      code === 'ENOENT' ? `${parent} does not allow new entries` : fileProblem(e),
    );
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
    let found: ReturnType<typeof stat>;
    try {
      found = stat(path);
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ENOTDIR') throw cannot(flag, path, fileProblem(e));
    }
    if (kind === 'folder') {
      if (found?.isDirectory()) {
        tryFolders(flag, path, path, [join(path, `.kvcheck-${process.pid}`)]);
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
