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
 * prefillPoolTokens: 8           # integer from 1 to 1024 (the model keeps every slot)
 * decodePoolTokens: 10           # integer from 1 to 1024
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
 * decodeReservedTokens: 0        # optional, 0..1024, absent = 0: decode's num_reserved_decode_tokens, scaled
 * transfer: push                 # optional, push or pull, absent = push: how KV moves to decode
 * witnesses: [someRequestRejected]   # optional, default []; each one of witnessNames
 * requests:                      # 1..8 requests (exhaustive search is practical up to 3 or 4; simulate walks more)
 *   - { id: a1, tenant: A, promptLen: 1, outputLen: 2 }
 * ```
 *
 * Request ids are unique and match `^[A-Za-z][A-Za-z0-9_-]{0,31}$` (they become state-node
 * keys: no dots); a tenant is a string of 1 to 32 characters; promptLen and outputLen are
 * integers >= 1; an optional `prefix: { group, len }` (a group name of 1 to 32 characters and
 * `1 <= len <= promptLen`) names a shared prompt prefix and turns on prefill's prefix cache; an
 * optional `room` (1 to 32 characters) is a client-supplied bootstrap room, shared by the
 * requests that name it.
 * Numbers must be integers in the file: `1.5`, `-1` and `"3"` are errors.
 *
 * A file is at most 1 MiB (`maxFileBytes`, refused by its size before it is read) and nests
 * mappings and lists at most four deep (the file, `requests`, a request, its `prefix`); deeper
 * text is refused before it is parsed.
 *
 * Only the first problem is reported: the first in the order of the fields above as listed in
 * `Scenario` (name, description, requests, pageSize, …), except that an unknown key is reported
 * before any problem inside the mapping that holds it (a misspelt key also leaves a required key
 * missing, and the misspelling is the cause). Cross-field checks (duplicate ids, a pool smaller
 * than one page) run only on a file whose fields are each valid.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import {
  createScanner,
  type ParseError,
  parse as parseJsonc,
  printParseErrorCode,
  visit,
} from 'jsonc-parser';
import { type CST, LineCounter, Parser, parseDocument } from 'yaml';
import { z } from 'zod';
import { witnessNames } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { fileProblem } from '../fileProblem.ts';
import { describeProblem, enumError, mappingError } from './describeProblem.ts';

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
const mustBeIntegerFromTo = (min: number, max: number) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
};

/** The most tokens a pool may hold: the model keeps every slot of a pool in every state. */
export const maxPoolTokens = 1024;

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
  room: z
    .string({ error: 'must be a string of 1 to 32 characters' })
    .min(1, { error: 'must be a string of 1 to 32 characters' })
    .max(32, { error: 'must be a string of 1 to 32 characters' })
    .optional(),
};
const requestKeys = Object.keys(requestShape);

const nameError = 'must be 1 to 64 characters, each a letter, digit, "_", "." or "-"';
const requestsError = `must be a list of 1 to ${maxRequests} requests`;

/** Why a scenario's other fields rule out `transfer: pull`, or null when they do not. */
function pullIncompatibility(s: {
  readonly prefillChunks: number;
  readonly auxSlots?: number | undefined;
  readonly prefillErrors?: boolean | undefined;
  readonly requests: readonly { readonly room?: string | undefined }[];
}): string | null {
  const clash = [
    s.prefillChunks > 1 ? 'prefillChunks above 1' : null,
    s.auxSlots !== undefined ? 'auxSlots' : null,
    s.prefillErrors === true ? 'prefillErrors' : null,
    s.requests.some((r) => r.room !== undefined) ? 'a request room' : null,
  ].filter((x) => x !== null);
  return clash.length === 0
    ? null
    : `pull does not take ${clash.join(', ')} (mechanisms of the push path)`;
}

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
  prefillPoolTokens: mustBeIntegerFromTo(1, maxPoolTokens),
  decodePoolTokens: mustBeIntegerFromTo(1, maxPoolTokens),
  contextLen: mustBeInteger(2),
  reserve: mustBeInteger(0).default(5),
  transferFaults: z.boolean({ error: 'must be true or false' }).default(false),
  maxTransferFaults: mustBeInteger(1).optional(),
  prefillChunks: mustBeIntegerFromTo(1, 8).default(1),
  clientAborts: z.boolean({ error: 'must be true or false' }).default(false),
  maxClientAborts: mustBeInteger(1).optional(),
  lateWrites: z.boolean({ error: 'must be true or false' }).optional(),
  auxSlots: mustBeIntegerFromTo(1, 4).optional(),
  prefillErrors: z.boolean({ error: 'must be true or false' }).optional(),
  decodeReservedTokens: mustBeIntegerFromTo(0, maxPoolTokens).optional(),
  transfer: z.enum(['push', 'pull'], { error: 'must be push or pull' }).optional(),
  witnesses: z
    .array(z.enum(witnessNames, enumError('witness', witnessNames)), {
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
    if (s.transfer === 'pull') {
      const pushOnly = pullIncompatibility(s);
      if (pushOnly) ctx.addIssue({ code: 'custom', path: ['transfer'], message: pushOnly });
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

/**
 * The largest scenario or deployment file read: 1 MiB, far above any real one. A larger file is
 * refused by its size, before it is read.
 */
export const maxFileBytes = 1024 * 1024;

/**
 * How deep mappings and lists may nest in a file: `max` levels, the deepest field being `deepest`.
 * Text nested deeper is refused before it is parsed, so that no parser recurses past the stack.
 */
export interface Nesting {
  readonly max: number;
  readonly deepest: string;
}

/** A scenario file nests four levels: the file, `requests`, one request, its `prefix`. */
const scenarioNesting: Nesting = { max: 4, deepest: 'requests[].prefix' };

function mebibytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * The text of the file at `path`, read only up to `maxFileBytes`; a ConfigError naming `path`
 * when it cannot be read or is larger (a device or pipe that never ends is refused too).
 */
function readText(path: string): string {
  const fail = (why: string) => new ConfigError(`${path}: cannot read the file (${why})`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw fail(fileProblem(e));
  }
  const tooLarge = (size: string) =>
    new ConfigError(`${path}: file must be at most ${mebibytes(maxFileBytes)} (got ${size})`);
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw fail('it is a directory');
    if (stat.isFile() && stat.size > maxFileBytes) throw tooLarge(mebibytes(stat.size));
    const buffer = Buffer.alloc(maxFileBytes + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) {
      n = readSync(fd, buffer, length, buffer.length - length, null);
    }
    if (length > maxFileBytes) throw tooLarge(`more than ${mebibytes(maxFileBytes)}`);
    return buffer.toString('utf8', 0, length);
  } catch (e) {
    throw e instanceof ConfigError ? e : fail(fileProblem(e));
  } finally {
    closeSync(fd);
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
 * message for an empty file (`file is empty; expected …`); `nesting` bounds how deep it may nest.
 * Throws a ConfigError naming `path` for an unreadable file, one over `maxFileBytes`, another
 * extension, nesting deeper than `nesting.max` or a syntax error.
 */
export function loadDataFile(path: string, expected: string, nesting: Nesting): unknown {
  const format = formatOf(path);
  const text = readText(path);
  const shape = { empty: `file is empty; expected ${expected}`, nesting };
  return format === 'yaml' ? readYaml(text, path, shape) : readJson(text, path, shape);
}

function formatOf(source: string): ScenarioFormat {
  const ext = extname(source).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  const found = ext === '' ? 'no file extension' : `unsupported file extension "${ext}"`;
  throw new ConfigError(`${source}: ${found}; accepted: .yaml, .yml, .json`);
}

/** What a file of some kind holds: the end of the message for an empty one, and its nesting. */
interface FileShape {
  readonly empty: string;
  readonly nesting: Nesting;
}

const scenarioFile: FileShape = {
  empty: `file is empty; expected a mapping with keys ${scenarioKeys.join(', ')}`,
  nesting: scenarioNesting,
};

function tooDeep(source: string, where: string, nesting: Nesting): ConfigError {
  return new ConfigError(
    `${source}: mappings and lists nest more than ${nesting.max} levels deep at ${where}; accepted: at most ${nesting.max} (the deepest field is ${nesting.deepest})`,
  );
}

/**
 * The line and column of the first mapping or list of a YAML text that lies deeper than `max`
 * levels, or undefined. It walks yaml's concrete syntax tree, which its parser builds without
 * recursion, depth first with a stack of its own.
 */
function yamlTooDeep(text: string, max: number): { line: number; col: number } | undefined {
  const lines = new LineCounter();
  const open: [CST.Token, number][] = [];
  // Children are pushed last first, so that they are visited in the order of the text.
  for (const token of [...new Parser(lines.addNewLine).parse(text)].reverse())
    open.push([token, 0]);
  for (let next = open.pop(); next !== undefined; next = open.pop()) {
    const [token, depth] = next;
    if (token.type === 'document' && token.value) open.push([token.value, depth]);
    if (
      token.type !== 'block-map' &&
      token.type !== 'block-seq' &&
      token.type !== 'flow-collection'
    )
      continue;
    if (depth >= max) return lines.linePos(token.offset);
    for (const item of [...token.items].reverse()) {
      if (item.value) open.push([item.value, depth + 1]);
      if (item.key) open.push([item.key, depth + 1]);
    }
  }
  return undefined;
}

function readYaml(text: string, source: string, shape = scenarioFile): unknown {
  const deep = yamlTooDeep(text, shape.nesting.max);
  if (deep !== undefined)
    throw tooDeep(source, `line ${deep.line}, column ${deep.col}`, shape.nesting);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const [error] = doc.errors;
  if (error !== undefined) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new ConfigError(
      `${source}: invalid YAML at line ${line}, column ${col}: ${lowerFirst(error.message)}`,
    );
  }
  if (doc.contents === null) throw new ConfigError(`${source}: ${shape.empty}`);
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

/**
 * The offset of the first `{` or `[` of a JSON text that lies deeper than `max` levels, or
 * undefined. jsonc-parser's scanner reads tokens without recursion (its parser recurses).
 */
function jsonTooDeep(body: string, max: number): number | undefined {
  const scanner = createScanner(body, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== jsonToken.end; token = scanner.scan()) {
    if (token === jsonToken.openBrace || token === jsonToken.openBracket) {
      depth++;
      if (depth > max) return scanner.getTokenOffset();
    } else if (token === jsonToken.closeBrace || token === jsonToken.closeBracket) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** jsonc-parser's `SyntaxKind` values (an ambient const enum, which isolated modules cannot read). */
const jsonToken = {
  openBrace: 1,
  closeBrace: 2,
  openBracket: 3,
  closeBracket: 4,
  end: 17,
} as const;

function readJson(text: string, source: string, shape = scenarioFile): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') throw new ConfigError(`${source}: ${shape.empty}`);
  const deep = jsonTooDeep(body, shape.nesting.max);
  if (deep !== undefined) throw tooDeep(source, jsonPosition(body, deep), shape.nesting);
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
