/**
 * The `console` blocks of the README and `docs/`: a fenced block whose info string is `console`
 * holds commands (`$ npx kvcheck …`) each followed by the output it prints. The documentation
 * test runs each command and compares what it prints with the text shown, with times and rates
 * masked and a line `…` standing for any number of lines left out.
 */

/** One command of a `console` block and the output shown under it. */
export interface ShownCommand {
  /** The file the block is in, relative to the repository. */
  readonly file: string;
  /** The 1-based line of the command. */
  readonly line: number;
  /** The command as shown, without `$ `. */
  readonly command: string;
  /** The output lines shown under it, fence indentation removed. */
  readonly output: readonly string[];
}

/** Every command of every `console` block of `text` (the contents of `file`). */
export function consoleCommands(file: string, text: string): ShownCommand[] {
  const lines = text.split('\n');
  const found: ShownCommand[] = [];
  let indent: string | null = null;
  let current: { line: number; command: string; output: string[] } | null = null;
  const flush = () => {
    if (current) found.push({ file, ...current });
    current = null;
  };
  lines.forEach((raw, i) => {
    if (indent === null) {
      const open = /^(\s*)```console\s*$/.exec(raw);
      if (open) indent = open[1] ?? '';
      return;
    }
    if (raw.trim() === '```') {
      flush();
      indent = null;
      return;
    }
    const text = raw.startsWith(indent) ? raw.slice(indent.length) : raw.trimStart();
    if (text.startsWith('$ ')) {
      flush();
      current = { line: i + 1, command: text.slice(2), output: [] };
    } else if (current) current.output.push(text);
  });
  return found;
}

/**
 * The words of a shown command: split on spaces, with single or double quotes grouping words
 * (no escapes, no expansion). Throws on an unterminated quote.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of command.matchAll(re)) {
    // A bare word holding a quote is what is left of a quote that never closes.
    if (m[3]?.includes('"') || m[3]?.includes("'")) {
      throw new Error(`unterminated quote in ${command}`);
    }
    words.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  return words;
}

/**
 * `text` with what differs from run to run masked: durations (`740 ms`, `18.6 s`) and rates
 * (`334.5 runs/s`, `31,200 states/s`), and the padding of table columns whose width a time sets
 * (runs of spaces after a line's indentation count as one); trailing white space and trailing
 * empty lines removed.
 */
export function masked(text: string): string[] {
  const lines = text
    .replace(/\b\d[\d,]*(?:\.\d+)? ?[a-z]+\/s\b/g, '⟨rate⟩')
    .replace(/\b\d[\d,]*(?:\.\d+)? ?(?:ms|s)\b/g, '⟨time⟩')
    .split('\n')
    .map((l) => l.trimEnd().replace(/(\S) {2,}/g, '$1 '));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Whether `actual` is `shown` with lines left out where `shown` has a line `…` (alone on its line,
 * after indentation): the other lines must match in order, and adjacent ones must be adjacent.
 */
export function matchesShown(shown: readonly string[], actual: readonly string[]): boolean {
  // reach[j]: the first j actual lines can be matched by the shown lines so far.
  let reach = new Array<boolean>(actual.length + 1).fill(false);
  reach[0] = true;
  for (const s of shown) {
    const next = new Array<boolean>(actual.length + 1).fill(false);
    if (s.trim() === '…') {
      let any = false;
      for (let j = 0; j <= actual.length; j++) {
        any = any || (reach[j] as boolean);
        next[j] = any;
      }
    } else {
      for (let j = 0; j < actual.length; j++) {
        if (reach[j] && actual[j] === s) next[j + 1] = true;
      }
    }
    reach = next;
  }
  return reach[actual.length] as boolean;
}
