/**
 * Turns a failed zod parse of a scenario file into the one line that says what to fix: the field
 * as a path such as `requests[1].promptLen`, what is accepted, and what was found.
 */
import type { z } from 'zod';
import { closeNames, didYouMean } from '../didYouMean.ts';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/**
 * The one problem to report among a failed parse's `issues`, as `field: <issue message> (got …)`
 * or `unknown key "k" in field; <issue message>`, where `data` is the parsed input. The problem
 * is the first issue, or, if an unknown key sits in a mapping that holds the first issue, that
 * unknown key (the likelier cause: a misspelt key also leaves a required key missing). Issue
 * messages are expected to read as what is accepted (`must be an integer >= 1`,
 * `accepted: a, b`); found values are quoted, and long strings cut, so the result is one line.
 */
export function describeProblem(issues: readonly Issue[], data: unknown): string {
  const issue = problemToReport(issues);
  if (issue === undefined) return 'invalid scenario';
  const field = fieldName(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const where = field === undefined ? 'at top level' : `in ${field}`;
    return `unknown key ${quote(String(issue.keys[0]))} ${where}; ${issue.message}`;
  }
  const found = valueAt(data, issue.path);
  const got = found.present
    ? `got ${describe(found.value, issue.code === 'invalid_type')}`
    : 'missing';
  return `${field ?? 'top level'}: ${issue.message} (${got})`;
}

/**
 * The zod `error` option of a strict mapping whose keys are `keys`: an unknown key gets the close
 * keys (`did you mean pageSize?`) or, when none is close, `accepted: k1, k2, …`; any other problem
 * with the mapping (not a mapping at all) gets `ifNotMapping`.
 */
export function mappingError(keys: readonly string[], ifNotMapping: string) {
  return {
    error: (issue: { code: string; keys?: readonly string[] }) =>
      issue.code === 'unrecognized_keys' ? didYouMean(issue.keys?.[0] ?? '', keys) : ifNotMapping,
  };
}

/**
 * The zod `error` option of a field that takes one of the names `accepted`, each a `what`
 * (`witness`, `variant`): a string close to some of them gets `unknown witness; did you mean X?`,
 * anything else `must be one of a, b, …`.
 */
export function enumError(what: string, accepted: readonly string[]) {
  const all = `must be one of ${accepted.join(', ')}`;
  return {
    error: (issue: { input?: unknown }) => {
      const close = typeof issue.input === 'string' ? closeNames(issue.input, accepted) : [];
      return close.length > 0 ? `unknown ${what}; ${didYouMean(String(issue.input), close)}` : all;
    },
  };
}

/** The first issue, or an unknown key in a mapping that encloses it (the likelier cause). */
function problemToReport(issues: readonly Issue[]): Issue | undefined {
  const [first] = issues;
  if (first === undefined) return undefined;
  const enclosing = issues.filter(
    (i) => i.code === 'unrecognized_keys' && isPrefix(i.path, first.path),
  );
  enclosing.sort((a, b) => a.path.length - b.path.length);
  return enclosing[0] ?? first;
}

function isPrefix(prefix: Path, path: Path): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

/** `requests[1].promptLen`, or undefined for the top level. */
function fieldName(path: Path): string | undefined {
  if (path.length === 0) return undefined;
  return path
    .map((segment, i) =>
      typeof segment === 'number' ? `[${segment}]` : `${i === 0 ? '' : '.'}${String(segment)}`,
    )
    .join('');
}

function valueAt(data: unknown, path: Path): { present: boolean; value: unknown } {
  let value = data;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) {
      return { present: false, value: undefined };
    }
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return { present: true, value };
}

/** A found value in a few words: `0`, `"a.1"`, `the string "3"` (when a string is the wrong type), `a list of 5 items`. */
function describe(value: unknown, wrongType: boolean): string {
  if (typeof value === 'string') return wrongType ? `the string ${quote(value)}` : quote(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'an empty list';
    return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  if (value !== null && typeof value === 'object') return 'a mapping';
  return String(value);
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
}
