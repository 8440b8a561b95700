/**
 * The report's stylesheet, inlined into report.html: system fonts only. On a narrow screen the
 * page never scrolls sideways: wide tables scroll inside their `.table-scroll` container, and
 * diagrams scale down to the column's width. In print, containers let tables wrap instead of
 * cutting them, diagrams fit the page width, and headings stay with what follows them.
 */
export const reportCss = `
:root { --fg: #1d232b; --muted: #5b6673; --line: #d8dde3; --ok: #1a7f37; --bad: #c62828; --warn: #9a6700; --bg2: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); overflow-wrap: break-word; }
header { padding: 24px 40px 12px; border-bottom: 1px solid var(--line); background: var(--bg2); }
header h1 { margin: 0 0 4px; font-size: 26px; }
header p { margin: 0 0 8px; color: var(--muted); }
nav a { color: #0b5cad; text-decoration: none; font-size: 14px; }
main { padding: 8px 40px 40px; max-width: 1400px; }
section { margin-top: 28px; }
h2 { font-size: 20px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 6px; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: 8px 0 16px; }
table { border-collapse: collapse; font-size: 13.5px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg2); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.small, td.small { font-size: 12.5px; color: var(--muted); }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
p code, li code { overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 0 7px; border-radius: 10px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.badge.ok, .badge.holds { background: #dafbe1; color: var(--ok); }
.badge.violation, .badge.violated { background: #ffebe9; color: var(--bad); }
.badge.incomplete, .badge.unknown { background: #fff8c5; color: var(--warn); }
.matrix td.cell { text-align: center; font-weight: 700; font-size: 15px; }
.matrix td.holds { color: var(--ok); background: #f0fff4; }
.matrix td.violated { color: var(--bad); background: #fff5f5; }
.matrix td.unknown { color: var(--warn); }
.pair { display: flex; gap: 0 24px; flex-wrap: wrap; align-items: flex-start; }
.pair > .table-scroll { min-width: 0; }
figure { margin: 12px 0 24px; max-width: 100%; }
figure svg { max-width: 100%; height: auto; }
figure.diagram { padding: 12px; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
figure.diagram figcaption { margin-bottom: 8px; font-size: 13.5px; color: var(--muted); }
figure.diagram svg { display: block; }
article.cex { border-left: 4px solid var(--bad); padding: 4px 0 4px 16px; margin: 20px 0; }
.violated-msg { color: var(--bad); }
.foreign { color: var(--bad); font-weight: 600; }
footer { padding: 16px 40px; border-top: 1px solid var(--line); color: var(--muted); font-size: 13px; }
@media (max-width: 640px) {
  header { padding: 16px 16px 8px; }
  header h1 { font-size: 22px; }
  main { padding: 4px 16px 32px; }
  footer { padding: 12px 16px; }
  figure.diagram { padding: 8px; }
  article.cex { padding-left: 10px; }
  .badge { white-space: normal; }
  /* A counterexample's last column (what changed) keeps a readable width; the table scrolls. */
  table.steps td:last-child { min-width: 15em; }
}
@media print {
  @page { margin: 10mm; }
  body { font-size: 10.5pt; }
  header, footer { background: none; padding: 0 0 8px; }
  nav { display: none; }
  main { max-width: none; padding: 0; }
  a { color: inherit; text-decoration: none; }
  h2, h3 { break-after: avoid; }
  .table-scroll { overflow: visible; }
  table { width: 100%; font-size: 8.5pt; }
  th, td { padding: 2px 4px; overflow-wrap: anywhere; }
  thead { display: table-header-group; }
  tr, figure.diagram, article.cex > p { break-inside: avoid; }
  .badge { white-space: normal; }
  figure.diagram { overflow: visible; border: none; padding: 0; }
  figure.diagram svg { max-width: 100%; max-height: 250mm; }
  .pair { display: block; }
}
`;
