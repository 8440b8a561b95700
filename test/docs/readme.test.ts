/**
 * The README's tables of properties and witnesses are the registry's statements, word for word,
 * and its quick start is the two commands the project promises.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { properties, witnesses } from '../../invariants/index.ts';
import { docRaw, readme } from './readmeText.ts';

describe('README', () => {
  it.each(Object.entries(properties))('states %s as the code does', (name, p) => {
    expect(readme).toContain(`| \`${name}\` | ${p.statement} |`);
  });

  it.each(Object.entries(witnesses))('states witness %s as the code does', (name, w) => {
    expect(readme).toContain(`| \`${name}\` | ${w.statement} |`);
  });

  it('gives the two quick-start commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});

describe('the statechart in docs/report.md', () => {
  it('is what kvcheck diagram draws for the prefill side under incident-2026', async () => {
    const { drawnChart } = await import('../../src/export/faultEdges.ts');
    const { toMermaid } = await import('../../src/export/mermaidStatechart.ts');
    const { findVariant } = await import('../../machines/variants.ts');
    const mermaid = toMermaid(drawnChart('prefill', findVariant('incident-2026'))).trim();
    const raw = docRaw('report.md');
    expect(raw).toContain(`\`\`\`mermaid\n${mermaid}\n\`\`\``);
  });
});

describe('the README and docs/ as a newcomer reads them', () => {
  const root = new URL('../../', import.meta.url);
  const pages = ['README.md', ...readdirSync(new URL('docs/', root)).map((f) => `docs/${f}`)];
  const text = (page: string) => readFileSync(new URL(page, root), 'utf8');
  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
  const anchors = (page: string) =>
    new Set(
      text(page)
        .replace(/```[\s\S]*?```/g, '')
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => slug(l.replace(/^#+ /, ''))),
    );

  it('keeps the README to at most 300 lines', () => {
    expect(text('README.md').split('\n').length).toBeLessThanOrEqual(300);
  });

  it.each(pages)('%s links only to pages and headings that exist', (page) => {
    const links = [...text(page).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
    const local = links.filter((l) => !/^[a-z]+:/.test(l));
    for (const link of local) {
      const [file = '', anchor] = link.split('#');
      const target = file === '' ? page : posix.normalize(posix.join(posix.dirname(page), file));
      expect(existsSync(new URL(target, root)), `${page}: ${link}`).toBe(true);
      if (anchor && target.endsWith('.md')) {
        expect(anchors(target).has(anchor), `${page}: ${link}`).toBe(true);
      }
    }
  });
});
