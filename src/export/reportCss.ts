/**
 * The report's stylesheet, inlined into report.html: system fonts only, print-friendly.
 */
export const reportCss = `
:root { --fg: #1d232b; --muted: #5b6673; --line: #d8dde3; --ok: #1a7f37; --bad: #c62828; --warn: #9a6700; --bg2: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); }
header { padding: 24px 40px 12px; border-bottom: 1px solid var(--line); background: var(--bg2); }
header h1 { margin: 0 0 4px; font-size: 26px; }
header p { margin: 0 0 8px; color: var(--muted); }
nav a { color: #0b5cad; text-decoration: none; font-size: 14px; }
main { padding: 8px 40px 40px; max-width: 1400px; }
section { margin-top: 28px; }
h2 { font-size: 20px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 6px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13.5px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg2); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.small, td.small { font-size: 12.5px; color: var(--muted); }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.badge { display: inline-block; padding: 0 7px; border-radius: 10px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.badge.ok, .badge.holds { background: #dafbe1; color: var(--ok); }
.badge.violation, .badge.violated { background: #ffebe9; color: var(--bad); }
.badge.incomplete, .badge.unknown { background: #fff8c5; color: var(--warn); }
.matrix td.cell { text-align: center; font-weight: 700; font-size: 15px; }
.matrix td.holds { color: var(--ok); background: #f0fff4; }
.matrix td.violated { color: var(--bad); background: #fff5f5; }
.matrix td.unknown { color: var(--warn); }
.pair { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
figure.diagram { margin: 12px 0 24px; padding: 12px; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
figure.diagram figcaption { margin-bottom: 8px; font-size: 13.5px; color: var(--muted); }
figure.diagram svg { max-width: 100%; height: auto; }
article.cex { border-left: 4px solid var(--bad); padding: 4px 0 4px 16px; margin: 20px 0; }
.violated-msg { color: var(--bad); }
.foreign { color: var(--bad); font-weight: 600; }
footer { padding: 16px 40px; border-top: 1px solid var(--line); color: var(--muted); font-size: 13px; }
@media print {
  header, footer { background: none; }
  nav { display: none; }
  main { max-width: none; padding: 0 16px; }
  figure.diagram, article.cex, table { break-inside: avoid; }
}
`;
