/**
 * One entry of the bug catalogue: a fault from the engine's upstream history, expressed as the
 * `fixed` variant plus exactly one fault switch, with the smallest scenario that exposes it. What
 * the entry must produce (the properties that catch it, the state counts) is its rows in
 * `scenarios/manifest.ts`.
 */
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';

/** Catalogue ids, in the order `kvcheck catalogue` prints them. */
export type CatalogueId =
  | 'B1'
  | 'B2'
  | 'B3'
  | 'B4'
  | 'B5'
  | 'B6'
  | 'B7'
  | 'B8'
  | 'B9'
  | 'B10'
  | 'B11';

/** A catalogued fault and how kvcheck catches it. */
export interface CatalogueEntry {
  /** Catalogue id, `B1` … `B11`. */
  readonly id: CatalogueId;
  /** One line saying what goes wrong in the engine. */
  readonly description: string;
  /** Upstream issue and pull-request numbers, as `#30233`. */
  readonly upstream: readonly string[];
  /** `fixed` with exactly one fault switch turned on; its name is used with `--variant`. */
  readonly variant: Variant;
  /** The smallest scenario that exposes the fault (also checked under `fixed`: no false alarm). */
  readonly scenario: Scenario;
}
