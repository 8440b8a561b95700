/**
 * The README's tables of properties and witnesses are the registry's statements, word for word,
 * and its quick start is the two commands the project promises.
 */
import { readFileSync } from 'node:fs';
import { properties, witnesses } from '../../invariants/index.ts';
import { readme } from './readmeText.ts';

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

describe('the README’s statechart', () => {
  it('is the exporter’s output for the prefill side under incident-2026', async () => {
    const { chartGraph } = await import('../../src/export/statechart.ts');
    const { toMermaid } = await import('../../src/export/mermaidStatechart.ts');
    const { findVariant } = await import('../../machines/variants.ts');
    const mermaid = toMermaid(chartGraph('prefill', findVariant('incident-2026'))).trim();
    const raw = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(raw).toContain(`\`\`\`mermaid\n${mermaid}\n\`\`\``);
  });
});
