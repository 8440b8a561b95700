/**
 * report.html as a reviewer opens it: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) loads the file with the network unused and sees no console error. On a phone
 * (390 px) and a desktop (1440 px) the page never scrolls sideways: wide tables scroll inside
 * their own containers and diagrams shrink to the column. Printed (print media emulated on an A4
 * page), nothing overflows the page and no scroll container cuts its content. Screenshots at
 * both widths and in print are left in out/report-browser/ as test artifacts.
 *
 * Skipped where no Chromium is installed, unless KVCHECK_REQUIRE_BROWSER=1 (.ci/run sets it after
 * installing the package), which turns a missing browser into a failure.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { writeReportFiles } from '../../src/cli/reportCommand.ts';
import type { ReportInput } from '../../src/export/reportModel.ts';
import { incidentReport } from './fixtures.ts';

const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) =>
  existsSync(p),
);
const required = process.env.KVCHECK_REQUIRE_BROWSER === '1';
const outDir = resolve('out', 'report-browser');

/** An A4 page's printable width in CSS pixels (210 mm less 2 × 10 mm margins, at 96 px/in). */
const printWidth = Math.floor(((210 - 20) / 25.4) * 96);

/** What a page logged and fetched while it was open. */
interface Opened {
  readonly page: Page;
  /** Console errors and uncaught exceptions. */
  readonly problems: string[];
  /** Every request for anything but the report file itself. */
  readonly requests: string[];
}

/** How wide the document is against the window, and the outermost elements that stick out. */
interface Overflow {
  readonly scrollWidth: number;
  readonly innerWidth: number;
  /** `tag.class` of each element past the right edge whose parent is not (at most 10). */
  readonly offenders: string[];
}

async function open(browser: Browser, html: string, width: number): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => {
    if (r.url() !== pathToFileURL(html).href) requests.push(r.url());
  });
  await page.goto(pathToFileURL(html).href);
  return { page, problems, requests };
}

/** The document's width against the window's, and what makes it wider. */
function overflowOf(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const past = (e: Element | null) => e !== null && e.getBoundingClientRect().right > innerWidth;
    const clips = (e: Element | null) =>
      e !== null && getComputedStyle(e).overflowX !== 'visible' && e !== document.body;
    const offenders = [...document.body.querySelectorAll('*')]
      .filter((e) => past(e) && !past(e.parentElement) && !clips(e.parentElement))
      .slice(0, 10)
      .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''}`);
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, offenders };
  });
}

describe.skipIf(!executablePath && !required)('report.html in headless Chromium', () => {
  let browser: Browser;
  let input: ReportInput;
  let html: string;
  beforeAll(async () => {
    if (!executablePath) throw new Error('KVCHECK_REQUIRE_BROWSER=1 but no chromium is installed');
    input = await incidentReport();
    mkdirSync(outDir, { recursive: true });
    [, html] = writeReportFiles(outDir, input);
    browser = await chromium.launch({
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
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders every diagram with a non-empty box, with no console error and no request', async () => {
    const { page, problems, requests } = await open(browser, html, 1440);
    const boxes = await page.$$eval('figure.diagram svg', (svgs) =>
      svgs.map((svg) => {
        const r = svg.getBoundingClientRect();
        return { width: r.width, height: r.height };
      }),
    );
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    expect(boxes).toHaveLength(input.diagrams.length + input.counterexamples.length);
    for (const b of boxes) {
      expect(b.width).toBeGreaterThan(50);
      expect(b.height).toBeGreaterThan(50);
    }
  });

  it.each([390, 1440])('never scrolls sideways at %i px', async (width) => {
    const { page, problems, requests } = await open(browser, html, width);
    const overflow = await overflowOf(page);
    await page.screenshot({ path: join(outDir, `report-${width}-top.png`) });
    await page.locator('#counterexamples').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outDir, `report-${width}-counterexample.png`) });
    await page.locator('#coverage').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outDir, `report-${width}-coverage.png`) });
    expect(overflow.offenders).toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.innerWidth);
    // Wide tables keep their columns and scroll inside their container instead.
    const containers = await page.$$eval('.table-scroll', (divs) => divs.length);
    expect(containers).toBe(await page.$$eval('table', (tables) => tables.length));
    // Diagrams shrink to the column: none is wider than its figure.
    const wider = await page.$$eval('figure.diagram', (figures) =>
      figures.filter((f) => {
        const svg = f.querySelector('svg');
        return svg !== null && svg.getBoundingClientRect().width > f.clientWidth;
      }),
    );
    expect(wider).toHaveLength(0);
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    expect(existsSync(join(outDir, `report-${width}-top.png`))).toBe(true);
  });

  it('leads with the findings, then the barrier matrix and the verdicts; charts come late', async () => {
    const { page } = await open(browser, html, 1440);
    const order = await page.$$eval('main > section', (sections) => sections.map((s) => s.id));
    expect(order.slice(0, 3)).toEqual(['findings', 'barriers', 'verdicts']);
    expect(order.indexOf('statecharts')).toBeGreaterThan(order.indexOf('counterexamples'));
    // The findings box is what a reviewer sees first, without scrolling.
    const top = await page.$eval('#findings', (s) => s.getBoundingClientRect().top);
    expect(top).toBeLessThan(900);
    const first = await page.$eval('#findings li', (li) => li.textContent ?? '');
    expect(first).toMatch(/is violated in incident × incident-2026, in \d+ steps/);
  });

  it('lays every chart out with no label over another, as Chromium measures the text', async () => {
    const { page } = await open(browser, html, 1440);
    const clashes = await page.$$eval('figure.diagram.chart svg', (svgs) =>
      svgs.flatMap((svg, n) => {
        const boxes = [...svg.querySelectorAll('text')].map((t) => ({
          text: t.textContent ?? '',
          r: t.getBoundingClientRect(),
        }));
        const out: string[] = [];
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i] as (typeof boxes)[number];
            const b = boxes[j] as (typeof boxes)[number];
            // Half a pixel of slack: adjacent lines of one label may touch.
            const overlapX = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
            const overlapY = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
            if (overlapX > 0.5 && overlapY > 0.5) out.push(`chart ${n}: "${a.text}" × "${b.text}"`);
          }
        }
        return out;
      }),
    );
    expect(clashes).toEqual([]);
  });

  it('opens a chart full window at its native size when clicked, and closes it', async () => {
    const { page, problems } = await open(browser, html, 1440);
    const figure = page.locator('figure.diagram.chart').first();
    const inline = await figure.locator('svg').evaluate((s) => s.getBoundingClientRect().width);
    const native = await figure
      .locator('svg')
      .evaluate((s) => Number.parseFloat(s.getAttribute('width') ?? '0') * (4 / 3));
    await figure.locator('a.chart-open').click();
    const opened = await figure.evaluate((f) => {
      const r = f.getBoundingClientRect();
      return { position: getComputedStyle(f).position, width: r.width, height: r.height };
    });
    const openedSvg = await figure.locator('svg').evaluate((s) => s.getBoundingClientRect().width);
    await page.screenshot({ path: join(outDir, 'report-chart-open.png') });
    expect(opened.position).toBe('fixed');
    expect(opened.width).toBe(1440);
    // Graphviz gives the width in points; opened, the chart is drawn at that size (96/72 px a pt).
    expect(Math.abs(openedSvg - native)).toBeLessThan(2);
    expect(openedSvg).toBeGreaterThanOrEqual(inline);
    await figure.locator('a.chart-close').click();
    expect(await figure.evaluate((f) => getComputedStyle(f).position)).toBe('static');
    expect(problems).toEqual([]);
  });

  it('prints within the page width, with no scroll container cutting content', async () => {
    const { page, problems, requests } = await open(browser, html, printWidth);
    await page.emulateMedia({ media: 'print' });
    const overflow = await overflowOf(page);
    const cut = await page.$$eval('.table-scroll, figure.diagram', (boxes) =>
      boxes
        .filter((b) => b.scrollWidth > b.clientWidth)
        .map(
          (b) => `${b.tagName.toLowerCase()}.${b.className}: ${b.scrollWidth} > ${b.clientWidth}`,
        ),
    );
    const nav = await page.$eval('nav', (n) => getComputedStyle(n).display);
    await page.screenshot({ path: join(outDir, 'report-print-top.png') });
    await page.locator('#counterexamples').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outDir, 'report-print-counterexample.png') });
    expect(overflow.offenders).toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.innerWidth);
    expect(cut).toEqual([]);
    expect(nav).toBe('none');
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
  });
});
