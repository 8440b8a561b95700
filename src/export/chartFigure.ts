/**
 * How report.html embeds a statechart: inline SVG, one region per figure, shrunk to the column
 * when wider. Clicking the chart opens it over the whole window at its native size, and the
 * close link (or the browser's back button) returns to it: the figure is a link target and CSS
 * `:target` does the rest, so the report stays script-free and needs nothing from anywhere.
 */
import { escapeHtml as h } from './escape.ts';
import type { Diagram } from './reportModel.ts';

/** An SVG document made fit for inlining: XML prolog, doctype and comments removed. */
function inlined(svg: string): string {
  return svg
    .replace(/<\?xml[^>]*\?>/g, '')
    .replace(/<!DOCTYPE[^>]*>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
}

/**
 * One statechart as a figure with `id` (unique in the page; `id-at` is taken too): its title
 * and caption, then the inline SVG wrapped in a link to the figure itself, which opens it full
 * window; once open, a close link goes back to where it stood. `d`'s text is escaped.
 */
export function chartFigureHtml(d: Diagram, id: string): string {
  const at = `${id}-at`;
  return `<div class="chart-slot" id="${h(at)}"><figure class="diagram chart" id="${h(id)}"><figcaption><a class="chart-close" href="#${h(at)}">✕ close</a><strong>${h(d.title)}</strong> — ${h(d.caption)}</figcaption>
<a class="chart-open" href="#${h(id)}" title="Open full window">${inlined(d.svg)}</a>
</figure></div>`;
}

/**
 * The stylesheet for `chartFigureHtml`'s figures, added after the report's own: in the page a
 * chart shrinks to the column; opened, it fills the window at its native size and scrolls.
 */
export const chartFigureCss = `
figure.diagram.chart svg { max-width: 100%; height: auto; display: block; }
figure.diagram.chart a.chart-open { display: block; cursor: zoom-in; }
figure.diagram.chart a.chart-close { display: none; }
figure.diagram.chart:target { position: fixed; inset: 0; z-index: 10; margin: 0; border: 0; border-radius: 0; background: #fff; overflow: auto; padding: 12px 16px; }
figure.diagram.chart:target svg { max-width: none; }
figure.diagram.chart:target figcaption { position: sticky; left: 0; }
figure.diagram.chart:target a.chart-open { width: max-content; cursor: default; }
figure.diagram.chart:target a.chart-close { display: inline-block; margin-right: 12px; padding: 2px 10px; border: 1px solid var(--line, #d8dde3); border-radius: 4px; background: #fff; color: inherit; text-decoration: none; font-weight: 600; }
@media print {
  figure.diagram.chart:target { position: static; overflow: visible; padding: 0; }
  figure.diagram.chart:target svg { max-width: 100%; }
  figure.diagram.chart:target a.chart-open { width: auto; }
  figure.diagram.chart a.chart-close { display: none; }
}
`;
