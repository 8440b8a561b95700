/**
 * The witness lines under a verdict: each witness marked reached or not, and a warning for a
 * required witness that was not reached only on a pass, where it means the pass may be vacuous
 * (a violation or an incomplete search proves no pass, so it gets no such warning).
 */

import { findVariant } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { renderWitnesses } from '../../src/cli/render.ts';
import { shellWord } from '../../src/cli/resolve.ts';

const fixed = findVariant('fixed');
if (!fixed) throw new Error('no fixed variant');
const base = check(incident, fixed, { requiredWitnesses: incident.witnesses });

/** `base` with status `status` and its first required witness marked unreached. */
function withUnreached(status: ScenarioResult['status']): ScenarioResult {
  const first = base.witnesses.findIndex((w) => w.required);
  return {
    ...base,
    status,
    witnesses: base.witnesses.map((w, i) => (i === first ? { ...w, reached: false } : w)),
  };
}

describe('renderWitnesses', () => {
  it('marks each witness reached or not on the incident under fixed, with no warning', () => {
    expect(base.status).toBe('ok');
    expect(base.witnesses.filter((w) => w.required).every((w) => w.reached)).toBe(true);
    const marks = base.witnesses.map((w) => `${w.name} ${w.reached ? 'reached' : 'not reached'}`);
    expect(renderWitnesses(base, false)).toBe(`  witnesses: ${marks.join('; ')}`);
  });

  it('warns of a possibly vacuous pass when a required witness is unreached on ok', () => {
    const r = withUnreached('ok');
    const name = r.witnesses.find((w) => !w.reached)?.name;
    const lines = renderWitnesses(r, false).split('\n');
    expect(lines[0]).toContain(`${name} not reached`);
    expect(lines.slice(1)).toEqual([
      `  warning: required witness ${name} was not reached: the pass may be vacuous`,
    ]);
  });

  it.each(['violation', 'incomplete'] as const)('gives no pass warning on %s', (status) => {
    const text = renderWitnesses(withUnreached(status), false);
    expect(text).toContain('not reached');
    expect(text).not.toContain('warning');
  });
});

describe('shellWord', () => {
  it('leaves a plain path as it is and quotes one a shell would split or expand', () => {
    expect(shellWord('examples/incident.yaml')).toBe('examples/incident.yaml');
    expect(shellWord('my dir/$HOME.yaml')).toBe(`'my dir/$HOME.yaml'`);
    expect(shellWord(`it's.yaml`)).toBe(`'it'\\''s.yaml'`);
  });
});
