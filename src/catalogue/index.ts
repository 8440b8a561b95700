/**
 * The bug catalogue: faults from the engines' upstream history, B1 to B11, each as `fixed` plus
 * one fault switch with the smallest scenario that exposes it. Catalogue variants are not
 * built-in variants (`kvcheck all` does not run them), but `--variant` accepts their names.
 */
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { entry as b1 } from './entries/b1.ts';
import { entry as b2 } from './entries/b2.ts';
import { entry as b3 } from './entries/b3.ts';
import { entry as b4 } from './entries/b4.ts';
import { entry as b5 } from './entries/b5.ts';
import { entry as b6 } from './entries/b6.ts';
import { entry as b7 } from './entries/b7.ts';
import { entry as b8 } from './entries/b8.ts';
import { entry as b9 } from './entries/b9.ts';
import { entry as b10 } from './entries/b10.ts';
import { entry as b11 } from './entries/b11.ts';
import type { CatalogueEntry } from './entry.ts';

export type { CatalogueEntry, CatalogueId } from './entry.ts';

/** Every catalogue entry, in id order. */
export const catalogue: readonly CatalogueEntry[] = [b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11];

/** The catalogue's variants, in entry order. */
export const catalogueVariants: readonly Variant[] = catalogue.map((e) => e.variant);

/** Names of the catalogue's variants, in entry order. */
export const catalogueVariantNames: readonly string[] = catalogueVariants.map((v) => v.name);

/** The catalogue variant called `name`, or undefined. */
export function findCatalogueVariant(name: string): Variant | undefined {
  return catalogueVariants.find((v) => v.name === name);
}

/** The catalogue's scenarios, each once, in entry order. */
export const catalogueScenarios: readonly Scenario[] = catalogue
  .map((e) => e.scenario)
  .filter((s, i, all) => all.findIndex((t) => t.name === s.name) === i);

/** The catalogue scenario called `name` (the built-in `incident` included), or undefined. */
export function findCatalogueScenario(name: string): Scenario | undefined {
  return catalogueScenarios.find((s) => s.name === name);
}
