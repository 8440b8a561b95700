/**
 * Terminal text for a catalogue run: one table row per entry, then each entry's upstream
 * references and description, then the overall line. Pure: report in, text out.
 */

import type { CatalogueReport, CatalogueRow } from '../catalogue/run.ts';
import { count } from '../numbers.ts';
import { table } from './render.ts';
import { paint } from './style.ts';

function verdictCell(r: CatalogueRow, colour: boolean): string {
  const format = r.verdict === 'caught' ? 'green' : r.verdict === 'missed' ? 'red' : 'yellow';
  return paint(colour, format, r.verdict);
}

function fixedCell(r: CatalogueRow): string {
  const what = r.fixed.status === 'violation' ? `violation: ${r.fixed.violated.join(', ')}` : '';
  return `${r.fixed.status} (${count(r.fixed.states)} states)${what ? `, ${what}` : ''}`;
}

function summary(report: CatalogueReport): string {
  const n = report.entries.length;
  if (report.verdict === 'ok') {
    return `All ${n} faults caught by an expected property; fixed passes every scenario.`;
  }
  const missed = report.entries.filter((r) => r.verdict === 'missed').map((r) => r.id);
  const falseAlarms = report.entries
    .filter((r) => r.fixed.status !== 'ok')
    .map((r) => `${r.scenario} (${r.fixed.status})`);
  const bounded = report.entries.filter((r) => r.verdict === 'incomplete').map((r) => r.id);
  const vacuous = report.entries
    .filter((r) => r.fixed.status === 'ok' && r.fixed.unreachedWitnesses.length > 0)
    .map((r) => r.scenario);
  const parts = [
    missed.length > 0 ? `missed: ${missed.join(', ')}` : '',
    bounded.length > 0 ? `incomplete: ${bounded.join(', ')}` : '',
    vacuous.length > 0 ? `fixed passes vacuously: ${[...new Set(vacuous)].join(', ')}` : '',
    falseAlarms.length > 0 ? `fixed does not pass: ${[...new Set(falseAlarms)].join(', ')}` : '',
  ].filter(Boolean);
  return `Catalogue ${report.verdict}: ${parts.join('; ')}.`;
}

/** The catalogue table, each entry's references and description, and the overall line. */
export function renderCatalogue(report: CatalogueReport, colour: boolean): string {
  const header = ['entry', 'variant', 'scenario', 'verdict', 'property', 'steps', 'states'];
  header.push('last event', 'fixed on the scenario');
  const rows = report.entries.map((r) => [
    r.id,
    r.variant,
    r.scenario,
    verdictCell(r, colour),
    r.caughtBy ?? '-',
    r.traceLength === null ? '-' : String(r.traceLength),
    count(r.size.states),
    r.lastEvent ?? '-',
    fixedCell(r),
  ]);
  const notes = report.entries.map((r) => `  ${r.id}  ${r.upstream.join(', ')}: ${r.description}`);
  const vacuous = report.entries
    .filter((r) => r.fixed.unreachedWitnesses.length > 0)
    .map(
      (r) =>
        `fixed on ${r.scenario} did not reach required witness(es) ${r.fixed.unreachedWitnesses.join(', ')}: its pass proves nothing`,
    );
  return [
    `kvcheck catalogue: upstream faults, each as fixed plus one fault switch (engine ${report.engine})`,
    '',
    table(header, rows, [5, 6]),
    '',
    ...notes,
    '',
    ...vacuous,
    summary(report),
    '',
  ].join('\n');
}
