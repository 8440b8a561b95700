/**
 * The README's bug catalogue table is what `kvcheck catalogue` finds: for every entry, its
 * variant, upstream references, description and expected properties as the code states them,
 * and the property that caught it, the counterexample's length and the state counts of this run.
 */
import { readFileSync } from 'node:fs';
import { catalogue } from '../../src/catalogue/index.ts';
import { runCatalogue } from '../../src/catalogue/run.ts';
import { count } from '../../src/numbers.ts';

// Table cells are padded by the formatter: compare with runs of spaces folded.
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(
  / +/g,
  ' ',
);

describe('the README’s bug catalogue table', () => {
  const report = runCatalogue(catalogue);

  it('has a header and one row per entry', () => {
    expect(readme).toContain('## Bug catalogue');
    expect(readme).toContain(
      '| id | variant | upstream | fault | expected | caught by | steps | states | `fixed` states |',
    );
    expect(report.entries).toHaveLength(catalogue.length);
  });

  it.each(report.entries.map((r) => [r.id, r] as const))(
    'states %s as the run finds it',
    (_, r) => {
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
    },
  );
});
