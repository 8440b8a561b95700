/**
 * Loads a user's scenario file (YAML or JSON) into a `Scenario`, or fails with one line that
 * names the file, the field and what is accepted.
 *
 * The accepted shape (every key at its place; unknown keys are errors; docs/scenario-format.md
 * has the full table):
 *
 * ```yaml
 * name: my-deployment            # required, 1-64 chars, [A-Za-z0-9_.-]
 * description: "…"               # optional, default ""
 * contextLen: 10                 # integer >= 2
 * prefillPoolTokens: 8           # integer >= 1
 * decodePoolTokens: 10           # integer >= 1
 * pageSize: 1                    # integer >= 1, and each pool must hold at least one page
 * reserve: 5                     # integer >= 0, default 5
 * transferFaults: false          # optional, default false
 * maxTransferFaults: 1           # optional, integer >= 1, absent = any number; needs transferFaults
 * prefillChunks: 1               # optional, 1..8, default 1: chunked prefill
 * clientAborts: false            # optional, default false: a client may abort before its reply
 * maxClientAborts: 1             # optional, integer >= 1, absent = any number; needs clientAborts
 * lateWrites: true               # optional, absent = off: a write posted before an abort still lands
 * auxSlots: 1                    # optional, 1..4, absent = not modelled: decode's metadata slots
 * prefillErrors: true            # optional, absent = off: a prefill error while the last chunk is in flight
 * witnesses: [someRequestRejected]   # optional, default []; each one of witnessNames
 * requests:                      # 1..8 requests (exhaustive search is practical up to 3 or 4; simulate walks more)
 *   - { id: a1, tenant: A, promptLen: 1, outputLen: 2 }
 * ```
 *
 * Request ids are unique and match `^[A-Za-z][A-Za-z0-9_-]{0,31}$` (they become state-node
 * keys: no dots); a tenant is a string of 1 to 32 characters; promptLen and outputLen are
 * integers >= 1; an optional `prefix: { group, len }` (a group name of 1 to 32 characters and
 * `1 <= len <= promptLen`) names a shared prompt prefix and turns on prefill's prefix cache.
 * Numbers must be integers in the file: `1.5`, `-1` and `"3"` are errors.
 *
 * Only the first problem is reported: the first in the order of the fields above as listed in
 * `Scenario` (name, description, requests, pageSize, …), except that an unknown key is reported
 * before any problem inside the mapping that holds it (a misspelt key also leaves a required key
 * missing, and the misspelling is the cause). Cross-field checks (duplicate ids, a pool smaller
 * than one page) run only on a file whose fields are each valid.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { type ParseError, parse as parseJsonc, printParseErrorCode, visit } from 'jsonc-parser';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { witnessNames } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { describeProblem } from './describeProblem.ts';

/**
 * A scenario file that cannot be used. The message is one line (line breaks are folded into
 * spaces): the file, then the field as a path such as `requests[1].promptLen`, then what is
 * accepted and what was found. The CLI prints it as `error: <message>` and exits with 2.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(message: string) {
    super(message.replace(/\s*[\r\n]+\s*/g, ' '));
  }
}

/** The file formats `parseScenario` reads. */
export type ScenarioFormat = 'yaml' | 'json';

const maxRequests = 8;

const mustBeInteger = (min: number) => {
  const error = `must be an integer >= ${min}`;
  return z.int({ error }).min(min, { error });
};

/** What a mapping accepts: `accepted: k1, k2, …` for an unknown key, `ifNotMapping` otherwise. */
const mappingError = (keys: readonly string[], ifNotMapping: string) => ({
  error: (issue: { code: string }) =>
    issue.code === 'unrecognized_keys' ? `accepted: ${keys.join(', ')}` : ifNotMapping,
});

const idError = 'must start with a letter, then up to 31 letters, digits, "_" or "-" (no dots)';
const tenantError = 'must be a string of 1 to 32 characters';

const requestShape = {
  id: z.string({ error: idError }).regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}$/, { error: idError }),
  tenant: z
    .string({ error: tenantError })
    .min(1, { error: tenantError })
    .max(32, { error: tenantError }),
  promptLen: mustBeInteger(1),
  outputLen: mustBeInteger(1),
  prefix: z
    .strictObject(
      {
        group: z
          .string({ error: 'must be a string of 1 to 32 characters' })
          .min(1, { error: 'must be a string of 1 to 32 characters' })
          .max(32, { error: 'must be a string of 1 to 32 characters' }),
        len: mustBeInteger(1),
      },
      mappingError(['group', 'len'], 'must be a mapping with keys group, len'),
    )
    .optional(),
};
const requestKeys = Object.keys(requestShape);

const nameError = 'must be 1 to 64 characters, each a letter, digit, "_", "." or "-"';
const requestsError = `must be a list of 1 to ${maxRequests} requests`;
const witnessError = `must be one of ${witnessNames.join(', ')}`;

/** Fields in `Scenario` order, which is also the order in which problems are reported. */
const scenarioShape = {
  name: z.string({ error: nameError }).regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: nameError }),
  description: z.string({ error: 'must be a string' }).default(''),
  requests: z
    .array(
      z.strictObject(
        requestShape,
        mappingError(requestKeys, `must be a mapping with keys ${requestKeys.join(', ')}`),
      ),
      { error: requestsError },
    )
    .min(1, { error: requestsError })
    .max(maxRequests, { error: requestsError }),
  pageSize: mustBeInteger(1),
  prefillPoolTokens: mustBeInteger(1),
  decodePoolTokens: mustBeInteger(1),
  contextLen: mustBeInteger(2),
  reserve: mustBeInteger(0).default(5),
  transferFaults: z.boolean({ error: 'must be true or false' }).default(false),
  maxTransferFaults: mustBeInteger(1).optional(),
  prefillChunks: z
    .int({ error: 'must be an integer from 1 to 8' })
    .min(1, { error: 'must be an integer from 1 to 8' })
    .max(8, { error: 'must be an integer from 1 to 8' })
    .default(1),
  clientAborts: z.boolean({ error: 'must be true or false' }).default(false),
  maxClientAborts: mustBeInteger(1).optional(),
  lateWrites: z.boolean({ error: 'must be true or false' }).optional(),
  auxSlots: z
    .int({ error: 'must be an integer from 1 to 4' })
    .min(1, { error: 'must be an integer from 1 to 4' })
    .max(4, { error: 'must be an integer from 1 to 4' })
    .optional(),
  prefillErrors: z.boolean({ error: 'must be true or false' }).optional(),
  witnesses: z
    .array(z.enum(witnessNames, { error: witnessError }), {
      error: 'must be a list of witness names',
    })
    .default([]),
};
const scenarioKeys = Object.keys(scenarioShape);

/**
 * The zod schema of a scenario file: strict objects (an unknown key is an error), messages in
 * plain words (`must be an integer >= 1`), defaults filled in (`description: ""`, `reserve: 5`,
 * `transferFaults: false`, `prefillChunks: 1`, `clientAborts: false`, `witnesses: []`), and the
 * cross-field checks: request ids are unique and each pool holds at least one page
 * (`prefillPoolTokens` and `decodePoolTokens` >= `pageSize`), and a fault bound
 * (`maxTransferFaults`, `maxClientAborts`) comes with its fault. Its output is a `Scenario`.
 * Use `parseScenario` for the file-level message.
 */
export const scenarioSchema = z
  .strictObject(scenarioShape, mappingError(scenarioKeys, 'must be a mapping of scenario fields'))
  .superRefine((s, ctx) => {
    const firstWithId = new Map<string, number>();
    s.requests.forEach((r, i) => {
      const first = firstWithId.get(r.id);
      if (first === undefined) firstWithId.set(r.id, i);
      else {
        const message = `must be unique; requests[${first}] has the same id`;
        ctx.addIssue({ code: 'custom', path: ['requests', i, 'id'], message });
      }
    });
    s.requests.forEach((r, i) => {
      if (r.prefix && r.prefix.len > r.promptLen) {
        const message = `must be <= promptLen (${r.promptLen}): the prefix is part of the prompt`;
        ctx.addIssue({ code: 'custom', path: ['requests', i, 'prefix', 'len'], message });
      }
    });
    for (const [bound, flag] of [
      ['maxTransferFaults', 'transferFaults'],
      ['maxClientAborts', 'clientAborts'],
    ] as const) {
      if (s[bound] !== undefined && !s[flag]) {
        const message = `needs ${flag}: true, which it bounds`;
        ctx.addIssue({ code: 'custom', path: [bound], message });
      }
    }
    for (const pool of ['prefillPoolTokens', 'decodePoolTokens'] as const) {
      if (s[pool] < s.pageSize) {
        const message = `must be >= pageSize (${s.pageSize}) so that the pool holds at least one page`;
        ctx.addIssue({ code: 'custom', path: [pool], message });
      }
    }
  });

/**
 * Parses the text of a scenario file. `source` names the file in messages and, when `format` is
 * not given, decides the format by its extension: `.yaml` or `.yml` is YAML, `.json` is JSON
 * (case-insensitive); any other extension is a ConfigError. Throws a ConfigError for a syntax
 * error (with line and column), an empty file, or the first problem the schema finds.
 */
export function parseScenario(text: string, source: string, format?: ScenarioFormat): Scenario {
  const data =
    (format ?? formatOf(source)) === 'yaml' ? readYaml(text, source) : readJson(text, source);
  const result = scenarioSchema.safeParse(data);
  if (result.success) return result.data;
  throw new ConfigError(`${source}: ${describeProblem(result.error.issues, data)}`);
}

/** The text of the file at `path`; a ConfigError naming `path` when it cannot be read. */
function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`${path}: cannot read the file (${readFailure(e)})`);
  }
}

/**
 * Reads and parses the scenario file at `path` (format by extension, as `parseScenario`). A file
 * with another extension, or one that is missing or unreadable, is a ConfigError naming `path`.
 */
export function loadScenarioFile(path: string): Scenario {
  const format = formatOf(path);
  const text = readText(path);
  return parseScenario(text, path, format);
}

/**
 * Reads the YAML or JSON file at `path` (format by extension, as `loadScenarioFile`) into plain
 * data, for other file kinds that share the scenario file's one-line errors. `expected` ends the
 * message for an empty file (`file is empty; expected …`). Throws a ConfigError naming `path` for
 * an unreadable file, another extension or a syntax error.
 */
export function loadDataFile(path: string, expected: string): unknown {
  const format = formatOf(path);
  const text = readText(path);
  const empty = `file is empty; expected ${expected}`;
  return format === 'yaml' ? readYaml(text, path, empty) : readJson(text, path, empty);
}

function formatOf(source: string): ScenarioFormat {
  const ext = extname(source).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  const found = ext === '' ? 'no file extension' : `unsupported file extension "${ext}"`;
  throw new ConfigError(`${source}: ${found}; accepted: .yaml, .yml, .json`);
}

function readFailure(e: unknown): string {
  const code = e instanceof Error && 'code' in e ? e.code : undefined;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  if (typeof code === 'string') return code;
  return e instanceof Error ? e.message : String(e);
}

const emptyFile = `file is empty; expected a mapping with keys ${scenarioKeys.join(', ')}`;

function readYaml(text: string, source: string, empty = emptyFile): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const [error] = doc.errors;
  if (error !== undefined) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new ConfigError(
      `${source}: invalid YAML at line ${line}, column ${col}: ${lowerFirst(error.message)}`,
    );
  }
  if (doc.contents === null) throw new ConfigError(`${source}: ${empty}`);
  try {
    return doc.toJS();
  } catch (e) {
    // Aliases are resolved here, not while parsing: an unknown anchor or an alias bomb.
    throw new ConfigError(
      `${source}: invalid YAML: ${lowerFirst(e instanceof Error ? e.message : String(e))}`,
    );
  }
}

/** jsonc-parser's error codes, in words. */
const jsonProblems: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a key in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'expected the end of the file',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comment is never closed',
  UnexpectedEndOfString: 'string is never closed',
  UnexpectedEndOfNumber: 'number is cut short',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape sequence in string',
  InvalidCharacter: 'line break or control character inside a string',
};

function readJson(text: string, source: string, empty = emptyFile): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') throw new ConfigError(`${source}: ${empty}`);
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(body, errors, {
    allowTrailingComma: false,
    disallowComments: true,
    allowEmptyContent: false,
  });
  const [first] = errors;
  if (first === undefined) {
    const duplicate = firstDuplicateKey(body);
    if (duplicate === undefined) return value;
    const where = jsonPosition(body, duplicate.offset);
    throw new ConfigError(
      `${source}: invalid JSON at ${where}: duplicate key ${JSON.stringify(duplicate.key)}; keys must be unique`,
    );
  }
  const code = printParseErrorCode(first.error);
  const at = JSON.stringify(body.charAt(first.offset));
  const reason = `${jsonProblems[code] ?? code}${code === 'InvalidSymbol' ? ` ${at}` : ''}`;
  throw new ConfigError(
    `${source}: invalid JSON at ${jsonPosition(body, first.offset)}: ${reason}`,
  );
}

/** `line L, column C` of a character offset in `body`, both 1-based. */
function jsonPosition(body: string, offset: number): string {
  const before = body.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * The first key that appears twice in one JSON object of `body` (already known to parse), or
 * undefined. JSON.parse and jsonc-parser keep the last value silently; a scenario or deployment
 * file with a repeated key is refused instead, as YAML files are.
 */
function firstDuplicateKey(body: string): { key: string; offset: number } | undefined {
  const open: Set<string>[] = [];
  let found: { key: string; offset: number } | undefined;
  visit(body, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, offset) => {
      const keys = open.at(-1);
      if (found !== undefined || keys === undefined) return;
      if (keys.has(key)) found = { key, offset };
      keys.add(key);
    },
  });
  return found;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
