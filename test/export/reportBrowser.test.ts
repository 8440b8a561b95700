/**
 * report.html as a reviewer opens it: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) loads the file with the network unused, sees no console error, lays out every
 * diagram with a non-empty box, and leaves a screenshot in out/ as a test artifact.
 *
 * Skipped where no Chromium is installed, unless KVCHECK_REQUIRE_BROWSER=1 (.ci/run sets it after
 * installing the package), which turns a missing browser into a failure.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { writeReportFiles } from '../../src/cli/reportCommand.ts';
import { incidentReport } from './fixtures.ts';

const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) =>
  existsSync(p),
);
const required = process.env.KVCHECK_REQUIRE_BROWSER === '1';
const outDir = resolve('out', 'report-browser');

describe.skipIf(!executablePath && !required)('report.html in headless Chromium', () => {
  it('renders every diagram with no console error, and leaves a screenshot', async () => {
    if (!executablePath) throw new Error('KVCHECK_REQUIRE_BROWSER=1 but no chromium is installed');
    const input = await incidentReport();
    mkdirSync(outDir, { recursive: true });
    const [, html] = writeReportFiles(outDir, input);
    const browser = await chromium.launch({
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      await page.goto(pathToFileURL(html).href);
      const boxes = await page.$$eval('figure.diagram svg', (svgs) =>
        svgs.map((svg) => {
          const r = svg.getBoundingClientRect();
          return { width: r.width, height: r.height };
        }),
      );
      await page.screenshot({ path: join(outDir, 'report-top.png') });
      await page.locator('#counterexamples').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(outDir, 'report-counterexample.png') });
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      expect(boxes).toHaveLength(input.diagrams.length + input.counterexamples.length);
      for (const b of boxes) {
        expect(b.width).toBeGreaterThan(50);
        expect(b.height).toBeGreaterThan(50);
      }
      expect(existsSync(join(outDir, 'report-top.png'))).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
