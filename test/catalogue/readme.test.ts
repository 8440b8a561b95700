/**
 * The README's bug catalogue table is what `kvcheck catalogue` finds: for every entry, its
 * variant, upstream references and description as the code states them, its expected properties
 * as the manifest lists them, and the property that caught it, the counterexample's length and
 * the state counts of this run.
 */
import { catalogue } from '../../src/catalogue/index.ts';
import { type CatalogueReport, runCatalogue } from '../../src/catalogue/run.ts';
import { count } from '../../src/numbers.ts';
import { readme } from '../docs/readmeText.ts';

describe('the README’s bug catalogue table', () => {
  let report: CatalogueReport;
  beforeAll(() => {
    report = runCatalogue(catalogue);
  });

  it('has a header and one row per entry', () => {
    expect(readme).toContain('## Bug catalogue');
    expect(readme).toContain(
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
    expect(readme).toContain(`| ${cells.join(' | ')} |`);
  });
});
