/**
 * `check --reads-check` on the command line: the self-check of the properties' declared reads
 * prints a line per scenario × variant before the checks and adds `readsCheck` to the JSON;
 * a read left out of a declaration fails it (exit 1, no check run), naming the property and
 * the read; a state bound makes it `incomplete` (exit 3); it combines with `--por-check`.
 */
import { describe, expect, it } from 'vitest';
import { type Property, properties } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { exitCode } from '../../src/cli/exitCodes.ts';
import {
  readsSelfCheck,
  renderSelfChecks,
  selfCheckCode,
  selfCheckJson,
} from '../../src/cli/selfCheckCommand.ts';
import { run } from './runCli.ts';

const incidentFixed = ['check', '--scenario', 'incident', '--variant', 'fixed'];

describe('check --reads-check', () => {
  it('self-checks each scenario × variant, then checks', async () => {
    const r = await run(
      'check',
      '--scenario',
      'incident',
      '--variant',
      'fixed',
      '--variant',
      'incident-2026',
      '--reads-check',
    );
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Declared-reads self-check (every property and trigger on every reachable state):',
      '  [holds] incident × fixed: every read declared (319 states)',
      '  [holds] incident × incident-2026: every read declared (2,195 states)',
    ]);
    expect(r.out).toMatch(/\[ok\] incident × fixed: no violation \(319 states/);
    expect(r.out).toMatch(/\[violation\] incident × incident-2026/);
  });

  it('adds its results to the JSON', async () => {
    const r = await run(...incidentFixed, '--reads-check', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.readsCheck).toEqual([
      { scenario: 'incident', variant: 'fixed', status: 'holds', states: 319, problems: [] },
    ]);
    expect(out.porCheck).toBeUndefined();
    expect(out.results[0].stats.states).toBe(319);
  });

  it('is incomplete (exit 3) where --max-states stops the visit', async () => {
    const r = await run(...incidentFixed, '--reads-check', '--max-states', '10');
    expect(r.code).toBe(3);
    expect(r.out).toContain(
      '[incomplete] incident × fixed: as declared over 10 states, but --max-states stopped the visit',
    );
  });

  it('runs after the reduction’s self-check when both are asked for', async () => {
    const r = await run(...incidentFixed, '--por-check', '--reads-check', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.porCheck).toMatchObject([{ status: 'holds' }]);
    expect(out.readsCheck).toMatchObject([{ status: 'holds', states: 319 }]);
  });

  it('fails (exit 1) on a read left out, naming the property and the read', () => {
    const p = properties.rejectedHoldsNothing as Property;
    const seeded = Object.assign((s: ServingState) => p(s), {
      ...p,
      reads: { ...p.reads, request: (p.reads.request ?? []).filter((x) => x !== 'prefilled') },
    }) as Property;
    const check = readsSelfCheck([['rejectedHoldsNothing', seeded]]);
    const found = check.run(incident, variantNamed('incident-2026'), Number.POSITIVE_INFINITY);
    const runs = [{ kind: check, scenario: 'incident', variant: 'incident-2026', found }];
    expect(selfCheckCode(runs)).toBe(exitCode.violation);
    expect(renderSelfChecks(runs, false)).toBe(
      [
        'Declared-reads self-check (every property and trigger on every reachable state):',
        '  [broken] incident × incident-2026: 1 read not as declared (2,195 states)',
        '      rejectedHoldsNothing reads request.prefilled, not declared',
        '',
        '',
      ].join('\n'),
    );
    expect(selfCheckJson(runs)).toMatchObject({ readsCheck: [{ status: 'broken', states: 2195 }] });
  });
});
