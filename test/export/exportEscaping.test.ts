/**
 * Names a user supplies (tenants, scenarios, statements) never break out of the documents the
 * sequence, ITF and state-space exporters write.
 */
import type { ServingState } from '../../invariants/vocabulary.ts';
import { incident } from '../../scenarios/index.ts';
import type { StateGraph } from '../../src/checker/stateGraph.ts';
import { escapeMarkdownText } from '../../src/export/escape.ts';
import { itfTrace, toItf } from '../../src/export/itf.ts';
import { toSequenceMermaid } from '../../src/export/sequenceDiagram.ts';
import { toSequenceSvg } from '../../src/export/sequenceSvg.ts';
import { toStateSpaceDot } from '../../src/export/stateSpaceDot.ts';
import { buildState } from '../invariants/buildState.ts';
import { hostileMeta, hostileTenant, hostileTrace } from './fixtures.ts';

describe('hostile names', () => {
  it('stay inert in the Mermaid diagram', () => {
    const mermaid = toSequenceMermaid(hostileTrace, hostileMeta);
    expect(mermaid).not.toMatch(/<script|<b>|<i>|"/);
    expect(mermaid).toContain(
      'participant t_script_alert__x____script_ as Tenant #60;script#62;alert(#34;x#34;)',
    );
    for (const line of mermaid.trimEnd().split('\n').slice(1)) {
      // Every line is one statement: nothing a name holds ended a label early.
      expect(line).toMatch(/^ +(title|participant|Note over|rect|end$|[A-Za-z_][A-Za-z0-9_]*-)/);
    }
  });

  it('stay inert in the SVG', () => {
    const svg = toSequenceSvg(hostileTrace, hostileMeta);
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('Tenant &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(svg).toContain('in&quot;ci&quot;dent #; &lt;b&gt;');
  });

  it('round-trip through ITF JSON and never appear as markup', () => {
    const text = toItf(hostileTrace, hostileMeta);
    expect(text).not.toContain('<script');
    expect(JSON.parse(text)).toEqual(itfTrace(hostileTrace, hostileMeta));
    expect(JSON.parse(text).states[1].changes[0]).toBe('x1 router: idle → awaiting');
    expect(JSON.parse(text)['#meta'].scenario).toBe(hostileMeta.scenario);
    expect(JSON.parse(text)['#meta'].violation).toContain(hostileTenant);
  });

  it('stay inside quoted strings in the state-space DOT', () => {
    const scenarioLike = {
      requests: [{ id: 'x1', tenant: hostileTenant, promptLen: 1, outputLen: 2 }],
    };
    const s0 = withTenant(scenarioLike.requests[0]?.tenant ?? '');
    const graph: StateGraph = {
      states: [s0, s0],
      edges: [[{ event: { type: 'DISPATCH', rid: 'a1' }, to: 1 }], []],
      expanded: [true, true],
    };
    const title = `${hostileMeta.scenario} × ${hostileMeta.variant}`;
    for (const project of [undefined, 'a1']) {
      const dot = toStateSpaceDot(graph, { title, ...(project ? { project } : {}) });
      expect(dot).not.toContain('<script');
      expect(dot).toContain('digraph "in\\"ci\\"dent #; <b> × v\'1" {');
      // Outside quoted strings only DOT syntax remains.
      const bare = dot.replace(/"(?:[^"\\]|\\.)*"/g, '""');
      expect(bare).not.toMatch(/script|dent|v'1/);
    }
  });
});

/**
 * The initial state of `incident` with a1's tenant renamed. Tenants are static (the layout's
 * name table), so the rename is a scenario whose a1 belongs to `tenant`.
 */
function withTenant(tenant: string): ServingState {
  const requests = incident.requests.map((r) => (r.id === 'a1' ? { ...r, tenant } : r));
  return buildState({}, { ...incident, requests });
}

describe('escapeMarkdownText', () => {
  it('leaves no link, image, emphasis, code, heading or raw HTML in a description', () => {
    const text = "# Hi [x](javascript:alert(1)) ![i](y) *b* _u_ `c` <b>'q'</b> | ~s~\nnext";
    expect(escapeMarkdownText(text)).toBe(
      '\\# Hi \\[x\\]\\(javascript:alert\\(1\\)\\) \\!\\[i\\]\\(y\\) \\*b\\* \\_u\\_ \\`c\\` &lt;b&gt;&#39;q&#39;&lt;/b&gt; \\| \\~s\\~ next',
    );
  });

  it('keeps plain prose as it is', () => {
    expect(escapeMarkdownText('Pools twice the context window, 2,115 states.')).toBe(
      'Pools twice the context window, 2,115 states.',
    );
  });
});
