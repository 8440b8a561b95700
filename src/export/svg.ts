/**
 * DOT to SVG with Graphviz compiled to WebAssembly (`@viz-js/viz`): no system Graphviz needed.
 * One instance is created on first use and shared by every later call in the process. The
 * package itself is loaded on first use too, so that a command that draws nothing (`check`)
 * does not load it.
 */
import type { Viz } from '@viz-js/viz';

let shared: Promise<Viz> | undefined;

function viz(): Promise<Viz> {
  shared ??= import('@viz-js/viz')
    .then((m) => m.instance())
    .catch((e: unknown) => {
      shared = undefined; // let a later call try again
      throw e;
    });
  return shared;
}

/**
 * The SVG document Graphviz's `dot` layout draws for `dot` (it starts with `<?xml` and contains
 * one `<svg>` element). Rejects with an Error carrying Graphviz's own messages when the input is
 * not valid DOT or cannot be laid out; warnings alone do not fail.
 */
export async function renderSvg(dot: string): Promise<string> {
  const result = (await viz()).render(dot, { format: 'svg', engine: 'dot' });
  if (result.status === 'success') return result.output;
  const errors = result.errors.filter((e) => e.level !== 'warning').map((e) => e.message.trim());
  throw new Error(`Graphviz could not render the diagram: ${errors.join('; ') || 'unknown error'}`);
}
