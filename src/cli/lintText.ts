/**
 * `kvcheck lint` as terminal text: the pools and how they were computed, the prompt-length
 * bands, the findings (most severe first), the sensitivity table and a summary line.
 */

import {
  bandHeader,
  bandRows,
  capacityDerivation,
  findingCounts,
  poolHeader,
  poolRows,
  sensitivityHeader,
  sensitivityRows,
} from '../deployment/explain.ts';
import type { Severity } from '../deployment/findings.ts';
import type { LintReport } from '../deployment/lint.ts';
import { count } from '../numbers.ts';
import { table } from './render.ts';
import { paint } from './style.ts';

const severityColour = { error: 'red', warning: 'yellow', info: 'dim' } as const;

/** Word-wraps `text` to `width` columns, each line after the first indented by `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line.trim() !== '') lines.push(line);
  return lines.join('\n');
}

const indent = (text: string, by = '  ') =>
  text
    .split('\n')
    .map((l) => (l === '' ? l : by + l))
    .join('\n');

/** The whole lint report as text; `source` names the file. */
export function renderLint(report: LintReport, source: string, colour: boolean): string {
  const d = report.deployment;
  const head = `${paint(colour, 'bold', d.name)} (${source}): variant ${d.variant}, context window ${count(d.contextLen)} tokens, reserve ${d.reserve}`;
  const derivations = (['prefill', 'decode'] as const).flatMap((role) => [
    `${role}:`,
    ...capacityDerivation(report, role).map((l) => `  ${l}`),
  ]);
  const findings = report.findings.map((f) => {
    const tag = paint(colour, severityColour[f.severity], f.severity.padEnd(7));
    const what = `${f.id}${f.role ? ` (${f.role})` : ''}`;
    return `${tag} ${paint(colour, 'bold', what)}\n${indent(wrap(f.message, 94, ''), '        ')}`;
  });
  const sens =
    report.sensitivity.length === 0
      ? '  Both pools are given directly (maxTotalTokens): nothing to vary.'
      : indent(table(sensitivityHeader, sensitivityRows(report), [3, 4]));
  const worst: Severity | undefined = report.findings[0]?.severity;
  const verdict =
    report.status === 'error'
      ? paint(colour, 'red', '[error]')
      : paint(colour, 'green', worst === 'warning' ? '[ok, with warnings]' : '[ok]');
  return `${[
    head,
    d.description === '' ? undefined : wrap(d.description, 100, ''),
    `Pools\n${indent(table(poolHeader, poolRows(report), [2, 3, 4]))}\n\n${indent(derivations.join('\n'))}`,
    `Prompt lengths the tokenizer accepts (1 to ${count(d.contextLen - 1)}; a request that sets max_new_tokens also needs len + max_new_tokens < ${count(d.contextLen)})\n${indent(table(bandHeader, bandRows(report), [1]))}`,
    `Findings\n${report.findings.length === 0 ? '  none' : indent(findings.join('\n'))}`,
    `Sensitivity: each pool’s capacity when one setting changes\n${sens}`,
    `${verdict} ${d.name}: ${findingCounts(report)}`,
  ]
    .filter((s) => s !== undefined)
    .join('\n\n')}\n`;
}
