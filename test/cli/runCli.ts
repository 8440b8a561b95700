/**
 * The command line in process for tests: `main(argv, io)` with uncoloured, captured output, and
 * the bad-input contract every command shares (exit 2, one `error: …` line, nothing on stdout).
 */
import { expect } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Io } from '../../src/cli/resolve.ts';

/** One CLI run's exit code, output, and the progress lines it would draw on a TTY. */
export interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly progress: readonly string[];
}

/** Runs kvcheck in process with uncoloured, captured output and captured progress lines. */
export async function run(...argv: string[]): Promise<Run> {
  return runWith({}, ...argv);
}

/**
 * `run` that presses Ctrl-C once, `afterMs` milliseconds after the command starts listening
 * for it (the command sees the interrupt through `Io.onInterrupt`).
 */
export async function runInterrupted(afterMs: number, ...argv: string[]): Promise<Run> {
  return runWith(
    {
      onInterrupt: (handler) => {
        const timer = setTimeout(handler, afterMs);
        return () => clearTimeout(timer);
      },
    },
    ...argv,
  );
}

async function runWith(extra: Pick<Io, 'onInterrupt'>, ...argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const code = await main(argv, {
    out: (t) => {
      out.push(t);
    },
    err: (t) => {
      err.push(t);
    },
    colour: false,
    progress: (line) => {
      progress.push(line);
    },
    ...extra,
  });
  return { code, out: out.join(''), err: err.join(''), progress };
}

/** Asserts the bad-input contract (exit 2, one `error: ` line, empty stdout, no stack trace) and returns the line. */
export function usageError(r: Run): string {
  expect(r.code).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).not.toMatch(/^\s+at /m);
  const lines = r.err.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe('');
  const line = lines[0] ?? '';
  expect(line).toMatch(/^error: \S/);
  return line;
}
