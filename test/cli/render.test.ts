/**
 * The lines under a verdict: each witness marked reached or not (and required), a pass that left
 * a required witness unreached shown as incomplete and naming it, and each property that holds
 * only vacuously labelled with why.
 */

import type { Scenario } from '../../machines/scenario.ts';
import { findVariant } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import {
  renderResults,
  renderSummaryLine,
  renderVacuous,
  renderWitnesses,
} from '../../src/cli/render.ts';
import { shellWord } from '../../src/cli/resolve.ts';

const fixed = findVariant('fixed');
if (!fixed) throw new Error('no fixed variant');
let base: ScenarioResult;
beforeAll(() => {
  base = check(incident, fixed, { requiredWitnesses: incident.witnesses });
});

describe('renderWitnesses', () => {
  it('marks each witness reached or not on the incident under fixed, required ones too', () => {
    expect(base.status).toBe('ok');
    const marks = base.witnesses.map(
      (w) => `${w.name} ${w.reached ? 'reached' : 'not reached'}${w.required ? ' (required)' : ''}`,
    );
    expect(renderWitnesses(base)).toBe(`  witnesses: ${marks.join('; ')}`);
  });
});

describe('a pass that leaves a required witness unreached', () => {
  /** The happy scenario rejects nothing, so requiring a rejection cannot be met. */
  const demanding: Scenario = { ...happy, witnesses: ['someRequestRejected'] };
  let r: ScenarioResult;
  beforeAll(() => {
    r = check(demanding, fixed, { requiredWitnesses: demanding.witnesses });
  });

  it('is incomplete, naming the witness, in the result and the summary line', () => {
    expect(r.status).toBe('incomplete');
    expect(r.unreachedWitnesses).toEqual(['someRequestRejected']);
    expect(r.bound).toBeUndefined();
    expect(r.properties.every((p) => p.status === 'holds')).toBe(true);
    expect(renderSummaryLine(r, false)).toMatch(
      /^\[incomplete\] happy × fixed: no violation, but the required witness someRequestRejected was never reached/,
    );
  });
});

describe('vacuous properties', () => {
  let r: ScenarioResult;
  beforeAll(() => {
    r = check(happy, fixed);
  });

  it('are labelled with why, never shown as a plain pass', () => {
    const vacuous = Object.fromEntries(
      r.properties.filter((p) => p.vacuous).map((p) => [p.name, p.vacuity]),
    );
    expect(vacuous).toMatchObject({
      rejectedNeverHandedOff: 'no request was rejected at intake',
      auxSlotIntegrity: 'the scenario has no aux slots, or decode never committed a request',
      prefixSharingRespectsSalt: 'no request reused prefix-cache pages',
    });
    expect(vacuous).not.toHaveProperty('noCrossTenantRead');
    const text = renderVacuous(r, false) ?? '';
    expect(text).toContain(
      '  prefixSharingRespectsSalt holds (vacuous: no request reused prefix-cache pages)',
    );
    expect(renderResults([r], new Map(), false)).toContain(text);
  });

  it('are absent where every trigger fired', () => {
    expect(base.properties.filter((p) => p.vacuous).map((p) => p.name)).not.toContain(
      'rejectedNeverHandedOff',
    );
  });
});

describe('shellWord', () => {
  it('leaves a plain path as it is and quotes one a shell would split or expand', () => {
    expect(shellWord('examples/incident.yaml')).toBe('examples/incident.yaml');
    expect(shellWord('my dir/$HOME.yaml')).toBe(`'my dir/$HOME.yaml'`);
    expect(shellWord(`it's.yaml`)).toBe(`'it'\\''s.yaml'`);
  });
});
