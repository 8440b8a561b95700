/**
 * The bug catalogue table of docs/catalogue.md is what `kvcheck catalogue` finds: for every entry, its
 * variant, upstream references and description as the code states them, its expected properties
 * as the manifest lists them, and the property that caught it, the counterexample's length and
 * the state counts of this run.
 */
import { catalogue } from '../../src/catalogue/index.ts';
import { type CatalogueReport, runCatalogue } from '../../src/catalogue/run.ts';
import { count } from '../../src/numbers.ts';
import { doc } from '../docs/readmeText.ts';

const catalogueDoc = doc('catalogue.md');

describe('the bug catalogue table of docs/catalogue.md', () => {
  let report: CatalogueReport;
  beforeAll(() => {
    report = runCatalogue(catalogue);
  });

  it('has a header and one row per entry', () => {
    expect(catalogueDoc).toContain('# Bug catalogue');
    expect(catalogueDoc).toContain(
      '| id | variant | upstream | fault | expected | caught by | steps | states | `fixed` states |',
    );
    expect(report.entries.map((r) => r.id)).toEqual(catalogue.map((e) => e.id));
  });

  it.each(catalogue.map((e) => e.id))('states %s as the run finds it', (id) => {
    const r = report.entries.find((row) => row.id === id);
    if (!r) throw new Error(`no row for ${id}`);
    const cells = [
      r.id,
      `\`${r.variant}\``,
      r.upstream.join(', '),
      r.description,
      r.expected.map((p) => `\`${p}\``).join(', '),
      `\`${r.caughtBy ?? '-'}\``,
      String(r.traceLength ?? '-'),
      count(r.size.states),
      count(r.fixed.states),
    ];
    expect(catalogueDoc).toContain(`| ${cells.join(' | ')} |`);
  });
});
