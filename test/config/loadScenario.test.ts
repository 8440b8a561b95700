/**
 * Scenario files: the shipped examples load as the built-in scenarios they copy, and each kind of
 * malformed file fails with one exact line naming the file, the field and what is accepted.
 */
import { fileURLToPath } from 'node:url';
import { incident, pool2x } from '../../scenarios/index.ts';
import {
  ConfigError,
  loadScenarioFile,
  parseScenario,
  scenarioSchema,
} from '../../src/config/loadScenario.ts';
import { oneRequestJson, oneRequestYaml } from '../fixtures/validFiles.ts';

const examplePath = (file: string): string =>
  fileURLToPath(new URL(`../../examples/${file}`, import.meta.url));

/** The incident scenario without its defaulted fields, as a user would write it. */
const validYaml = `${oneRequestYaml}  - { id: b1, tenant: B, promptLen: 3, outputLen: 2 }\n`;

const validJson = oneRequestJson;

/** `text` with `from` replaced by `to`; `from` must occur, so a case cannot silently go stale. */
function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`"${from}" does not occur in the base text`);
  return text.replace(from, to);
}

/** The error `run` throws; fails the test if it throws nothing or something else. */
function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError, but the scenario loaded');
}

describe('nesting', () => {
  // Why this test? 10,000 levels of JSON overflowed jsonc-parser's stack: a RangeError and a
  // stack trace instead of one line.
  it.each([
    ['json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['yaml', `${'- '.repeat(10_000)}1\n`],
  ])('refuses 10,000 levels of %s before parsing', (ext, text) => {
    expect(configErrorOf(() => parseScenario(text, `deep.${ext}`)).message).toMatch(
      /^deep\.(json|yaml): mappings and lists nest more than 4 levels deep at line 1, column \d+; accepted: at most 4 \(the deepest field is requests\[\]\.prefix\)$/,
    );
  });

  it('accepts the four levels a prefix needs', () => {
    const text = edit(validYaml, 'outputLen: 2 }', 'outputLen: 2, prefix: { group: g, len: 1 } }');
    expect(parseScenario(text, 'prefix.yaml').requests[0]?.prefix).toEqual({ group: 'g', len: 1 });
  });
});

describe('the examples', () => {
  it('loads examples/incident.yaml as the built-in incident scenario', () => {
    expect(loadScenarioFile(examplePath('incident.yaml'))).toEqual(incident);
  });

  it('loads examples/pool-2x.json as the built-in pool-2x scenario', () => {
    expect(loadScenarioFile(examplePath('pool-2x.json'))).toEqual(pool2x);
  });
});

describe('defaults', () => {
  it('fills description, reserve, transferFaults and witnesses when they are left out', () => {
    const s = parseScenario(validYaml, 'scenario.yaml');
    expect(s).toEqual({
      name: 't',
      description: '',
      requests: [
        { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 2 },
        { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
      ],
      pageSize: 1,
      prefillPoolTokens: 8,
      decodePoolTokens: 10,
      contextLen: 10,
      reserve: 5,
      transferFaults: false,
      prefillChunks: 1,
      clientAborts: false,
      witnesses: [],
    });
  });

  it('reads the format from the argument when it is given, whatever the extension', () => {
    expect(parseScenario(validJson, 'scenario.txt', 'json').name).toBe('t');
  });

  it('accepts every built-in scenario through the schema alone', () => {
    expect(scenarioSchema.parse(incident)).toEqual(incident);
  });
});

interface Malformed {
  readonly what: string;
  readonly run: () => unknown;
  readonly message: string;
}

const yamlCase = (what: string, text: string, message: string): Malformed => ({
  what,
  run: () => parseScenario(text, 'scenario.yaml'),
  message,
});

const missingFile = examplePath('no-such-scenario.yaml');

const malformed: readonly Malformed[] = [
  yamlCase(
    'an unknown key, reported before the required key it leaves missing',
    edit(validYaml, 'pageSize: 1', 'pageSzie: 1'),
    'scenario.yaml: unknown key "pageSzie" at top level; did you mean pageSize?',
  ),
  yamlCase(
    'an unknown key close to no field, with the accepted ones',
    edit(validYaml, 'pageSize: 1', 'pageSize: 1\ncolour: red'),
    'scenario.yaml: unknown key "colour" at top level; accepted: name, description, requests, pageSize, prefillPoolTokens, decodePoolTokens, contextLen, reserve, transferFaults, maxTransferFaults, prefillChunks, clientAborts, maxClientAborts, lateWrites, auxSlots, prefillErrors, decodeReservedTokens, transfer, witnesses',
  ),
  yamlCase(
    'an unknown key in a request',
    edit(validYaml, 'promptLen: 3', 'prompt: 3'),
    'scenario.yaml: unknown key "prompt" in requests[1]; accepted: id, tenant, promptLen, outputLen, prefix, room',
  ),
  yamlCase(
    'a page size of 0',
    edit(validYaml, 'pageSize: 1', 'pageSize: 0'),
    'scenario.yaml: pageSize: must be an integer >= 1 (got 0)',
  ),
  yamlCase(
    'a negative pool',
    edit(validYaml, 'decodePoolTokens: 10', 'decodePoolTokens: -10'),
    'scenario.yaml: decodePoolTokens: must be an integer from 1 to 1024 (got -10)',
  ),
  yamlCase(
    'a pool smaller than one page',
    edit(validYaml, 'pageSize: 1', 'pageSize: 9'),
    'scenario.yaml: prefillPoolTokens: must be >= pageSize (9) so that the pool holds at least one page (got 8)',
  ),
  yamlCase(
    'a prompt of length 0',
    edit(validYaml, 'promptLen: 3', 'promptLen: 0'),
    'scenario.yaml: requests[1].promptLen: must be an integer >= 1 (got 0)',
  ),
  yamlCase(
    'promptLen as a string',
    edit(validYaml, 'promptLen: 3', 'promptLen: "3"'),
    'scenario.yaml: requests[1].promptLen: must be an integer >= 1 (got the string "3")',
  ),
  yamlCase(
    'a float',
    edit(validYaml, 'contextLen: 10', 'contextLen: 10.5'),
    'scenario.yaml: contextLen: must be an integer >= 2 (got 10.5)',
  ),
  yamlCase(
    'a required field left out',
    edit(validYaml, 'contextLen: 10\n', ''),
    'scenario.yaml: contextLen: must be an integer >= 2 (missing)',
  ),
  yamlCase(
    'a duplicate request id',
    edit(validYaml, 'id: b1', 'id: a1'),
    'scenario.yaml: requests[1].id: must be unique; requests[0] has the same id (got "a1")',
  ),
  yamlCase(
    'a request id with a dot',
    edit(validYaml, 'id: b1', 'id: b.1'),
    'scenario.yaml: requests[1].id: must start with a letter, then up to 31 letters, digits, "_" or "-" (no dots) (got "b.1")',
  ),
  yamlCase(
    'an unknown witness name',
    `${validYaml}witnesses: [someRequestDecoded, leakHappened]\n`,
    'scenario.yaml: witnesses[1]: must be one of someRequestRejected, someRequestDecoded, pageReusedAcrossTenants, prefixCacheHit, prefixLookupFindsOtherTenant, auxSlotReused, lateWriteLanded, transferFailed, clientAborted, chunkedTransfer, requestRetracted (got "leakHappened")',
  ),
  yamlCase(
    'no requests',
    edit(validYaml, validYaml.slice(validYaml.indexOf('requests:')), 'requests: []\n'),
    'scenario.yaml: requests: must be a list of 1 to 8 requests (got an empty list)',
  ),
  yamlCase(
    'nine requests',
    `${validYaml}${[...'cdefghi'].map((t) => `  - { id: ${t}1, tenant: A, promptLen: 1, outputLen: 1 }\n`).join('')}`,
    'scenario.yaml: requests: must be a list of 1 to 8 requests (got a list of 9 items)',
  ),
  yamlCase(
    'invalid YAML',
    edit(validYaml, 'pageSize: 1', 'pageSize: 1\npageSize: 2'),
    'scenario.yaml: invalid YAML at line 6, column 1: map keys must be unique',
  ),
  yamlCase(
    'a file that is not a mapping',
    '- name: t\n',
    'scenario.yaml: top level: must be a mapping of scenario fields (got a list of 1 item)',
  ),
  {
    what: 'invalid JSON',
    run: () =>
      parseScenario(edit(validJson, '"outputLen": 2 }', '"outputLen": 2 },'), 'scenario.json'),
    message: 'scenario.json: invalid JSON at line 9, column 3: expected a value',
  },
  {
    what: 'an empty JSON file',
    run: () => parseScenario('\n', 'scenario.json'),
    message:
      'scenario.json: file is empty; expected a mapping with keys name, description, requests, pageSize, prefillPoolTokens, decodePoolTokens, contextLen, reserve, transferFaults, maxTransferFaults, prefillChunks, clientAborts, maxClientAborts, lateWrites, auxSlots, prefillErrors, decodeReservedTokens, transfer, witnesses',
  },
  {
    what: 'an unsupported extension',
    run: () => parseScenario(validYaml, 'scenario.toml'),
    message: 'scenario.toml: unsupported file extension ".toml"; accepted: .yaml, .yml, .json',
  },
  {
    what: 'a missing file',
    run: () => loadScenarioFile(missingFile),
    message: `${missingFile}: cannot read the file (no such file or directory)`,
  },
];

describe.each(malformed)('a scenario file with $what', ({ run, message }) => {
  it('fails with one exact line', () => {
    const error = configErrorOf(run);
    expect(error.message).toBe(message);
    expect(error.message).not.toMatch(/[\r\n]/);
  });
});

describe('invalid JSON', () => {
  it('names the line and column of a missing comma on a later line', () => {
    const text = edit(validJson, '"name": "t",', '"name": "t"');
    expect(configErrorOf(() => parseScenario(text, 'scenario.json')).message).toBe(
      'scenario.json: invalid JSON at line 3, column 3: expected ","',
    );
  });

  it('refuses a key repeated in one object, where JSON.parse would keep the last value', () => {
    const text = edit(validJson, '"outputLen": 2 }', '"outputLen": 2, "outputLen": 9 }');
    expect(configErrorOf(() => parseScenario(text, 'scenario.json')).message).toBe(
      'scenario.json: invalid JSON at line 8, column 66: duplicate key "outputLen"; keys must be unique',
    );
  });

  it('accepts the same key in two different objects', () => {
    const text = edit(
      validJson,
      '"outputLen": 2 }',
      '"outputLen": 2 },\n    { "id": "b1", "tenant": "B", "promptLen": 1, "outputLen": 2 }',
    );
    expect(parseScenario(text, 'scenario.json').requests).toHaveLength(2);
  });

  it('says that strings need double quotes', () => {
    expect(configErrorOf(() => parseScenario("{'name': 't'}", 'scenario.json')).message).toBe(
      `scenario.json: invalid JSON at line 1, column 2: unexpected character "'"`,
    );
  });
});
