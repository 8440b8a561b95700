/**
 * How a catalogue variant is built: the `fixed` engine with exactly one fault switch turned on.
 */
import { findVariant, type Switches, type Variant } from '../../machines/variants.ts';

/** Names of the boolean switches (the fixes and the faults), as opposed to `routerPolicy`. */
export type BooleanSwitch = {
  [K in keyof Switches]: Switches[K] extends boolean ? K : never;
}[keyof Switches];

/** The built-in `fixed` variant every catalogue entry starts from. */
export function fixedVariant(): Variant {
  const fixed = findVariant('fixed');
  if (!fixed) throw new Error('the built-in variant `fixed` is missing');
  return fixed;
}

/**
 * `fixed` with the fault switch `fault` turned on, called `name`. Throws if `fault` is already
 * on in `fixed` (then it would not be a fault of the fixed engine).
 */
export function faultVariant(name: string, description: string, fault: BooleanSwitch): Variant {
  const fixed = fixedVariant();
  if (fixed.switches[fault]) throw new Error(`${fault} is already on in fixed`);
  return { name, description, switches: { ...fixed.switches, [fault]: true } };
}

/** The switches whose value in `variant` differs from `fixed`'s, in `Switches` order. */
export function switchesChangedFromFixed(variant: Variant): (keyof Switches)[] {
  const fixed = fixedVariant().switches;
  return (Object.keys(fixed) as (keyof Switches)[]).filter((k) => variant.switches[k] !== fixed[k]);
}
