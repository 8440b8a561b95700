/**
 * Variants: named sets of behaviour switches. A switch changes one guard or one action of the
 * composed machine, never the shape of the code around it, so each variant's diagram differs
 * from the next by the edges its switches enable or disable.
 */

/** Which reply the router returns to the client. */
export type RouterPolicy = 'decodeOnly' | 'failFast';

/** The engine behaviours that decide whether the reject path can leak. */
export interface Switches {
  /**
   * #38935: a request rejected at intake is retired at `PrefillBootstrapQueue.add` and
   * `DecodePreallocQueue.add` with its original error; it never gets a sender or pages.
   * Off: it continues as a one-token placeholder with a pending abort (`to_finish`).
   */
  readonly admissionRetire: boolean;
  /**
   * #36988: a prefill result whose request carries a pending abort is retired after the
   * forward: its last chunk is never sent and the room is marked Failed.
   */
  readonly retireAbortedResult: boolean;
  /**
   * #38704: before commit, decode checks that the transferred KV covers the length it
   * preallocated, and fails the request otherwise.
   */
  readonly coverageCheck: boolean;
  /**
   * `decodeOnly`: the router waits for both sides and returns decode's reply (mini_lb).
   * `failFast`: a prefill error is returned to the client as soon as prefill replies.
   */
  readonly routerPolicy: RouterPolicy;
}

/** A named variant: switches plus what a reviewer should know about it. */
export interface Variant {
  readonly name: string;
  readonly description: string;
  readonly switches: Switches;
}

const incidentSwitches: Switches = {
  admissionRetire: false,
  retireAbortedResult: false,
  coverageCheck: false,
  routerPolicy: 'decodeOnly',
};

/** Every built-in variant, in the order reports list them. */
export const variants: readonly Variant[] = [
  {
    name: 'incident-2026',
    description:
      'The engine before the fixes: rejected prompts become one-token placeholders that are prefilled and handed off; decode commits on Success without a coverage check; the router returns decode’s reply.',
    switches: incidentSwitches,
  },
  {
    name: 'fixed',
    description:
      'Admission retires intake-rejected requests on both sides (#38935) and aborted prefill results are retired, never sent (#36988).',
    switches: { ...incidentSwitches, admissionRetire: true, retireAbortedResult: true },
  },
  {
    name: 'fixed-coverage',
    description: '`fixed` plus decode’s transferred-length coverage check before commit (#38704).',
    switches: {
      ...incidentSwitches,
      admissionRetire: true,
      retireAbortedResult: true,
      coverageCheck: true,
    },
  },
  {
    name: 'retire-only',
    description: '`incident-2026` plus #36988 alone: an aborted prefill result is never sent.',
    switches: { ...incidentSwitches, retireAbortedResult: true },
  },
  {
    name: 'coverage-only',
    description:
      '`incident-2026` plus #38704 alone: decode refuses a handoff with incomplete coverage.',
    switches: { ...incidentSwitches, coverageCheck: true },
  },
];

/** Names of the built-in variants. */
export const variantNames: readonly string[] = variants.map((v) => v.name);

/** The variant called `name`, or undefined. */
export function findVariant(name: string): Variant | undefined {
  return variants.find((v) => v.name === name);
}
