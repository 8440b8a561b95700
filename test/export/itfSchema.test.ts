/**
 * Every ITF file kvcheck writes, checked against the format: the incident's counterexamples
 * (`check --out-itf`) and a liveness lasso (`lassoItfFiles`, what `liveness --out-itf` writes)
 * validate against the JSON Schema of ADR-015 (`docs/itf.schema.json`); every state holds exactly
 * the variables of `vars`, each of the type `#meta.varTypes` gives it; and the schema and the
 * type check both reject malformed values.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import type { DecodedContext } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import { requestRegions } from '../../machines/regionIds.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { lassoItfFiles } from '../../src/cli/livenessCommand.ts';
import { itfModelVariables } from '../../src/export/itfState.ts';
import {
  type ItfType,
  type ItfValue,
  itfMismatch,
  itfTypeText,
  T,
} from '../../src/export/itfValue.ts';
import { traceContexts } from '../../src/replay/traceContexts.ts';
import { run } from '../cli/runCli.ts';
import { stalledDecodeRun } from './fixtures.ts';

const schema: unknown = JSON.parse(
  readFileSync(new URL('../../docs/itf.schema.json', import.meta.url), 'utf8'),
);
const validate = new Ajv({ allErrors: false, strict: true }).compile(schema as object);

/** The schema's verdict on `data`: null when valid, else its first error. */
function schemaError(data: unknown): string | null {
  if (validate(data)) return null;
  const e = validate.errors?.[0];
  return `${e?.instancePath ?? ''} ${e?.message ?? 'invalid'}`;
}

/** An ITF trace as kvcheck writes it, read back. */
interface Written {
  readonly '#meta': { readonly varTypes: Readonly<Record<string, string>> };
  readonly vars: readonly string[];
  readonly states: readonly Readonly<Record<string, ItfValue | { index: number }>>[];
  readonly loop?: number;
}

let dir: string;
let incidentFiles: [string, string][] = [];
let incidentAgain: [string, string][] = [];
const lasso = lassoItfFiles(stalledDecodeRun());

/** The ITF files `check --out-itf` writes for incident × incident-2026 into `out`. */
async function checkIncident(out: string): Promise<[string, string][]> {
  const r = await run(
    'check',
    '--scenario',
    'incident',
    '--variant',
    'incident-2026',
    '--out-itf',
    out,
  );
  expect(r.code).toBe(1);
  return readdirSync(out)
    .sort()
    .map((f) => [f, readFileSync(join(out, f), 'utf8')]);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kvcheck-itf-schema-'));
  incidentFiles = await checkIncident(join(dir, 'first'));
  incidentAgain = await checkIncident(join(dir, 'second'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The step variables every kvcheck ITF state starts with; the model's variables follow. */
const stepVars = ['step', 'event', 'actor', 'regions', 'changes'];

describe('the ITF files kvcheck writes', () => {
  it('are the incident’s five counterexamples and the stalled decode’s two lassos', () => {
    expect(incidentFiles.map(([f]) => f)).toEqual([
      'incident.incident-2026.coverageBeforeCommit.itf.json',
      'incident.incident-2026.errorReachesClient.itf.json',
      'incident.incident-2026.noCrossTenantRead.itf.json',
      'incident.incident-2026.rejectedHoldsNothing.itf.json',
      'incident.incident-2026.rejectedNeverHandedOff.itf.json',
    ]);
    expect(lasso).toHaveLength(2);
  });

  it('validate against the ITF schema', () => {
    for (const [file, text] of [...incidentFiles, ...lasso]) {
      expect({ file, error: schemaError(JSON.parse(text)) }).toEqual({ file, error: null });
    }
  });

  it('give every state exactly the variables of vars, typed by #meta.varTypes', () => {
    for (const [file, text] of [...incidentFiles, ...lasso]) {
      const itf = JSON.parse(text) as Written;
      expect(itf.vars.slice(0, stepVars.length)).toEqual(stepVars);
      expect(itf.vars).toEqual(expect.arrayContaining(['prefillPool', 'decodePool', 'requests']));
      expect(
        itf.vars.every((v) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(v)),
        file,
      ).toBe(true);
      expect(Object.keys(itf['#meta'].varTypes)).toEqual(itf.vars);
      itf.states.forEach((s, i) => {
        expect(s['#meta']).toEqual({ index: i });
        expect(Object.keys(s).sort()).toEqual(['#meta', ...itf.vars].sort());
      });
      if (itf.loop !== undefined) expect(itf.loop).toBeLessThan(itf.states.length);
    }
  });

  it('are the same bytes for the same trace', () => {
    expect(incidentAgain).toEqual(incidentFiles);
    expect(lassoItfFiles(stalledDecodeRun())).toEqual(lasso);
  });
});

describe('the incident’s cross-tenant read in ITF state variables', () => {
  const itf = (): Written =>
    JSON.parse(
      incidentFiles.find(([f]) => f.endsWith('.noCrossTenantRead.itf.json'))?.[1] ?? 'null',
    ) as Written;
  const int = (n: number) => ({ '#bigint': String(n) });

  it('shows b1 reading decode page 1, whose slot a1 wrote last', () => {
    const last = itf().states.at(-1) ?? {};
    const requests = (last.requests as { '#map': [string, Record<string, ItfValue>][] })['#map'];
    const b1 = requests.find(([rid]) => rid === 'b1')?.[1];
    expect(b1?.reads).toEqual({
      '#set': expect.arrayContaining([{ '#tup': ['decode', int(1), 'a1'] }]),
    });
    const pool = last.decodePool as { writer: { '#map': [ItfValue, string][] } };
    expect(pool.writer['#map']).toContainEqual([{ '#tup': [int(1), int(0)] }, 'a1']);
    expect(last.tenants).toEqual({
      '#map': [
        ['a1', 'A'],
        ['b1', 'B'],
      ],
    });
  });

  it('starts from the initial state: every page free, no request holding or having read any', () => {
    const first = itf().states[0] ?? {};
    const pool = first.decodePool as { owner: { '#map': [ItfValue, string][] } };
    expect(pool.owner['#map'].every(([, o]) => o === '')).toBe(true);
    expect(first.step).toEqual(int(0));
  });
});

describe('the schema and the type check reject malformed traces', () => {
  const good = () => JSON.parse(incidentFiles[0]?.[1] ?? 'null') as Written;
  /** `good()` with `value` as state 1's `variable`. */
  const withValue = (variable: string, value: unknown) => {
    const t = good();
    return { ...t, states: t.states.map((s, i) => (i === 1 ? { ...s, [variable]: value } : s)) };
  };

  it('accepts the unchanged trace', () => {
    expect(schemaError(good())).toBeNull();
  });

  it.each([
    ['a plain JSON number', 'step', 1],
    ['a #bigint that is not decimal digits', 'step', { '#bigint': '1.5' }],
    ['a #bigint next to another key', 'step', { '#bigint': '1', x: 2 }],
    ['a #map entry that is not a pair', 'tenants', { '#map': [['a1', 'A', 'B']] }],
    ['a #tup that is not a list', 'regions', { '#tup': 'a1' }],
    ['a record field starting with #', 'regions', { '#x': 'idle' }],
    ['null', 'actor', null],
  ])('rejects %s', (_, variable, value) => {
    expect(schemaError(withValue(variable, value))).not.toBeNull();
  });

  it('rejects a variable name that is not an identifier, and a trace without vars', () => {
    expect(schemaError(withValue('my-var', 'x'))).not.toBeNull();
    const { vars: _vars, ...noVars } = good();
    expect(schemaError(noVars)).not.toBeNull();
    expect(schemaError({ ...good(), loop: -1 })).not.toBeNull();
  });

  it('finds a value that is well formed but not of its variable’s type', () => {
    const t = T.map(T.str, T.rec([['status', T.int]]));
    expect(itfMismatch({ '#map': [['a1', { status: { '#bigint': '200' } }]] }, t)).toBeNull();
    expect(itfMismatch({ '#map': [['a1', { status: '200' }]] }, t)).toBe(
      '$[0].value.status: not a #bigint',
    );
    expect(itfMismatch({ '#map': [['a1', { status: { '#bigint': '2' }, x: true }]] }, t)).toBe(
      '$[0].value: fields are not status',
    );
    expect(itfMismatch({ '#set': [] }, T.seq(T.int))).toBe('$: not a list');
  });
});

describe('state variables and their types', () => {
  /** Each variable's type, as the exporter declares it for a context like `sample`. */
  function declaredTypes(sample: DecodedContext): Readonly<Record<string, ItfType>> {
    const regions = T.rec(requestRegions.map((r) => [r, T.str] as const));
    const model = itfModelVariables(sample);
    return {
      step: T.int,
      event: T.str,
      actor: T.str,
      regions: T.map(T.str, regions),
      changes: T.seq(T.str),
      ...model.types,
    };
  }
  const incidentTypes = declaredTypes(
    traceContexts(incident, variantNamed('incident-2026'), [])[0] as DecodedContext,
  );
  const firstLasso = stalledDecodeRun().result.lassos[0];
  if (!firstLasso) throw new Error('the stalled decode has no lasso');
  const lassoTypes = declaredTypes(decodeContext(firstLasso.initial.context));

  it('type every value of every state as #meta.varTypes says', () => {
    const files = [
      ...incidentFiles.map(([f, t]) => [f, t, incidentTypes] as const),
      ...lasso.map(([f, t]) => [f, t, lassoTypes] as const),
    ];
    for (const [file, text, types] of files) {
      const itf = JSON.parse(text) as Written;
      expect(Object.keys(types)).toEqual(itf.vars);
      for (const v of itf.vars) {
        const t = types[v] as ItfType;
        expect(itfTypeText(t), `${file} ${v}`).toBe(itf['#meta'].varTypes[v]);
        itf.states.forEach((s, i) => {
          expect(itfMismatch(s[v] as ItfValue, t, `${file} state ${i} ${v}`)).toBeNull();
        });
      }
    }
  });

  it('spell types as Apalache reads them, a nested function type in parentheses', () => {
    expect(itfTypeText(incidentTypes.decodePool as ItfType)).toBe(
      '{ pageSize: Int, free: Seq(Int), owner: (Int -> Str), writer: (<<Int, Int>> -> Str), strayWrites: Seq(<<Int, Str>>) }',
    );
    expect(itfTypeText(incidentTypes.regions as ItfType)).toBe(
      'Str -> { router: Str, prefill: Str, transfer: Str, decode: Str }',
    );
  });
});
