/**
 * The composed serving system for one scenario under one variant: one parallel region per
 * request, each itself parallel with the request's router, prefill, transfer and decode regions,
 * all built from the same factories (the transfer region is `pullTransferRegion` in pull mode). Pools, replies and ghost fields live in context, so a
 * snapshot's identity is exactly its state value plus its context, and the whole system is one
 * machine that `xstate/graph` can traverse: no `invoke`, no `after`, no spawned actors.
 */
import { initialContext } from './context.ts';
import { decodeRegion } from './decodeRegion.ts';
import { prefillRegion } from './prefillRegion.ts';
import { pullTransferRegion } from './pullTransferRegion.ts';
import { servingMachineId } from './regionIds.ts';
import { routerRegion } from './routerRegion.ts';
import type { Scenario } from './scenario.ts';
import { type RegionConfig, servingSetup } from './servingSetup.ts';
import { transferRegion } from './transferRegion.ts';
import type { Variant } from './variants.ts';

/** The composed machine for `scenario` under `variant`. */
export function createServingMachine(scenario: Scenario, variant: Variant) {
  const states: Record<string, RegionConfig> = {};
  const mode = scenario.transfer ?? 'push';
  for (const r of scenario.requests) {
    states[r.id] = {
      type: 'parallel',
      states: {
        router: routerRegion(r.id),
        prefill: prefillRegion(r.id, mode),
        transfer: mode === 'pull' ? pullTransferRegion(r.id) : transferRegion(r.id),
        decode: decodeRegion(r.id, mode),
      },
    };
  }
  return servingSetup(scenario, variant).createMachine({
    id: servingMachineId,
    type: 'parallel',
    context: initialContext(scenario),
    states,
  });
}

/** The composed machine's type. */
export type ServingMachine = ReturnType<typeof createServingMachine>;
