/**
 * The report's deployment section (`kvcheck report --deployment FILE`), in Markdown and in HTML:
 * the pools and their arithmetic, the prompt-length bands, the findings, the sensitivity table
 * (HTML adds a bar chart) and the mapping to the abstract scenarios the report checked. Every
 * string from the file passes through the escapers.
 */

import type { AbstractMapping } from '../deployment/abstractScenario.ts';
import {
  bandHeader,
  bandRows,
  capacityDerivation,
  findingCounts,
  mappingHeader,
  mappingRows,
  poolHeader,
  poolRows,
  sensitivityHeader,
  sensitivityRows,
} from '../deployment/explain.ts';
import type { LintReport } from '../deployment/lint.ts';
import { count } from '../numbers.ts';
import { escapeHtml, escapeMarkdownCell, escapeMarkdownText } from './escape.ts';
import { sensitivitySvg } from './sensitivityPlot.ts';

/** What the deployment section shows: the file, its lint report and its abstract scenarios. */
export interface DeploymentSection {
  /** The file as given on the command line. */
  readonly source: string;
  readonly lint: LintReport;
  readonly mapping: AbstractMapping;
}

const roles = ['prefill', 'decode'] as const;

function intro(s: DeploymentSection): string {
  const d = s.lint.deployment;
  return `Deployment ${d.name} (${s.source}) under ${d.variant}: context window ${count(d.contextLen)} tokens, reserve ${d.reserve}. Lint: ${findingCounts(s.lint)}.`;
}

function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const row = (cells: readonly string[]) => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  return [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
}

/** The deployment section's body as Markdown (without its `##` heading). */
export function deploymentMarkdown(s: DeploymentSection): string {
  const d = s.lint.deployment;
  const derivation = roles
    .map(
      (role) =>
        `- ${role}:\n${capacityDerivation(s.lint, role)
          .map((l) => `  - ${escapeHtml(l)}`)
          .join('\n')}`,
    )
    .join('\n');
  const findings = s.lint.findings.map((f) => [
    f.severity,
    `${f.id}${f.role ? ` (${f.role})` : ''}`,
    f.message,
  ]);
  return [
    escapeMarkdownText(intro(s)),
    d.description === '' ? undefined : escapeMarkdownText(d.description),
    `### Pools\n\n${mdTable(poolHeader, poolRows(s.lint))}\n\n${derivation}`,
    `### Prompt lengths the tokenizer accepts\n\n${mdTable(bandHeader, bandRows(s.lint))}`,
    `### Findings\n\n${findings.length === 0 ? 'None.' : mdTable(['severity', 'finding', 'explanation'], findings)}`,
    `### Sensitivity\n\n${s.lint.sensitivity.length === 0 ? 'Both pools are given directly (maxTotalTokens): nothing to vary.' : mdTable(sensitivityHeader, sensitivityRows(s.lint))}`,
    `### Abstract scenarios\n\nThe scenarios checked above stand for these real numbers:\n\n${mdTable(mappingHeader, mappingRows(s.mapping))}`,
  ]
    .filter((x) => x !== undefined)
    .join('\n\n');
}

function htmlTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = header.map((x) => `<th>${escapeHtml(x)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="table-scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** The deployment section's body as HTML (without its `<section>` and heading). */
export function deploymentHtml(s: DeploymentSection): string {
  const d = s.lint.deployment;
  const derivation = roles
    .map(
      (role) =>
        `<li>${role}<ul>${capacityDerivation(s.lint, role)
          .map((l) => `<li>${escapeHtml(l)}</li>`)
          .join('')}</ul></li>`,
    )
    .join('\n');
  const findings = s.lint.findings
    .map(
      (f) =>
        `<tr><td><span class="badge ${f.severity === 'error' ? 'violation' : f.severity === 'warning' ? 'incomplete' : 'ok'}">${escapeHtml(f.severity)}</span></td><td><code>${escapeHtml(f.id)}</code>${f.role ? ` (${escapeHtml(f.role)})` : ''}</td><td>${escapeHtml(f.message)}</td></tr>`,
    )
    .join('\n');
  return [
    `<p>${escapeHtml(intro(s))}</p>`,
    d.description === '' ? undefined : `<p>${escapeHtml(d.description)}</p>`,
    `<h3>Pools</h3>\n${htmlTable(poolHeader, poolRows(s.lint))}\n<ul>${derivation}</ul>`,
    `<h3>Prompt lengths the tokenizer accepts</h3>\n${htmlTable(bandHeader, bandRows(s.lint))}`,
    `<h3>Findings</h3>\n${findings === '' ? '<p>None.</p>' : `<div class="table-scroll"><table><thead><tr><th>severity</th><th>finding</th><th>explanation</th></tr></thead><tbody>\n${findings}\n</tbody></table></div>`}`,
    `<h3>Sensitivity</h3>\n<figure>${sensitivitySvg(s.lint)}<figcaption>Each pool’s capacity, deployed and with one setting changed, against the context window (dashed) and twice it (dotted). Red: below the window; amber: below twice the window; green: at least twice.</figcaption></figure>\n${s.lint.sensitivity.length === 0 ? '<p>Both pools are given directly (maxTotalTokens): nothing to vary.</p>' : htmlTable(sensitivityHeader, sensitivityRows(s.lint))}`,
    `<h3>Abstract scenarios</h3>\n<p>The scenarios checked above stand for these real numbers:</p>\n${htmlTable(mappingHeader, mappingRows(s.mapping))}`,
  ]
    .filter((x) => x !== undefined)
    .join('\n');
}
