/**
 * `npm run bench:dashboard`: the dashboard's performance budgets, measured in Debian's Chromium.
 *
 * - the gzipped JavaScript and CSS the first page loads (index.html's scripts, styles and
 *   preloads), budget 150 KB;
 * - an overview with data, from navigation to the last sensor value drawn, budget 1 s: the built
 *   service on a fresh SQLite store holding 300,000 synthetic measurements; the first load with
 *   an empty browser cache, then the median of five loads in the same browser;
 * - the chart component drawing 100,000 points, from creating the chart to its first frame,
 *   budget 200 ms (web/bench/chart.html, built here, median of five).
 *
 * It prints a table and appends it to BENCHMARKS.md.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { build } from 'vite';
import { DESKTOP, hasChromium, INSTALL_HINT, launchBrowser } from '../test/e2e/browser.js';
import { ROOT, startService } from './lib/processes.js';

const WEB_BUILD = join(ROOT, 'dist/web');
const LOADS = 5;

interface Row {
  what: string;
  figure: string;
  budget: string;
  met: boolean;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** The assets index.html names, as the service serves them, gzipped at the default level. */
function firstPageBytes(): { files: string[]; gzipped: number } {
  const html = readFileSync(join(WEB_BUILD, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/ui\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
  const gzipped = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(WEB_BUILD, file))).length, 0);
  return { files, gzipped };
}

async function overviewTimes(): Promise<{ cold: number; warm: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-bench-dashboard-'));
  const service = await startService({ DATABASE_URL: `sqlite:${join(dir, 'sensorhub.db')}` });
  const browser = await launchBrowser();
  try {
    const generated = await fetch(`${service.url}/Measurement/Random`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nb_measurements: 300_000 }),
    });
    if (!generated.ok) throw new Error(`generating data failed: ${generated.status}`);
    // The generator refreshes the store's statistics after its commit, in the background: a
    // grower opens the overview on a settled service, not during that.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const context = await browser.newContext({ viewport: DESKTOP });
    // Noted by the page itself when the values reach the document (Playwright's own waiting would
    // add its polling delay). performance.now() counts from the navigation's start.
    await context.addInitScript(`
      new MutationObserver((_changes, observer) => {
        if (!document.querySelector('.overview[data-loaded] .sensor .value[data-value]')) return;
        observer.disconnect();
        // The frame that paints them: its animation callbacks run just before it is drawn.
        requestAnimationFrame(() => { window.valuesDrawnAt = performance.now(); });
      }).observe(document, { childList: true, subtree: true, attributes: true });
    `);
    const page = await context.newPage();
    const load = async () => {
      // A blank page between loads: the same URL again would only be a same-document navigation.
      await page.goto('about:blank');
      await page.goto(`${service.url}/ui/#/overview`);
      await page.waitForFunction('typeof window.valuesDrawnAt === "number"');
      return page.evaluate<number>('window.valuesDrawnAt');
    };
    const cold = await load();
    const warm: number[] = [];
    for (let i = 0; i < LOADS; i++) warm.push(await load());
    await context.close();
    return { cold, warm: median(warm) };
  } finally {
    await browser.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function chartDrawTime(points: number): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'sensorhub-bench-chart-'));
  await build({
    configFile: join(ROOT, 'web/vite.config.ts'),
    base: './',
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true, rollupOptions: { input: join(ROOT, 'web/bench/chart.html') } },
  });
  const server = Fastify();
  await server.register(fastifyStatic, { root: out });
  const address = await server.listen({ port: 0, host: '127.0.0.1' });
  const browser = await launchBrowser();
  try {
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${address}/bench/chart.html?points=${points}`);
      await page.waitForFunction('typeof window.chartDrawMs === "number"');
      times.push(await page.evaluate<number>('window.chartDrawMs'));
      await page.close();
    }
    return median(times);
  } finally {
    await browser.close();
    await server.close();
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!hasChromium) {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
  const rows: Row[] = [];
  const size = firstPageBytes();
  rows.push({
    what: `first page JS + CSS, gzipped (${size.files.join(', ')})`,
    figure: `${(size.gzipped / 1024).toFixed(1)} KB`,
    budget: '≤ 150 KB',
    met: size.gzipped <= 150 * 1024,
  });
  const overview = await overviewTimes();
  rows.push({
    what: 'overview, navigation → last value drawn, empty cache',
    figure: ms(overview.cold),
    budget: '≤ 1 s',
    met: overview.cold <= 1000,
  });
  rows.push({
    what: `overview, navigation → last value drawn, cached (median of ${LOADS})`,
    figure: ms(overview.warm),
    budget: '≤ 1 s',
    met: overview.warm <= 1000,
  });
  const chart = await chartDrawTime(100_000);
  rows.push({
    what: `chart of 100,000 points, created → first frame (median of ${LOADS})`,
    figure: ms(chart),
    budget: '≤ 200 ms',
    met: chart <= 200,
  });

  const table = [
    '| what | figure | budget | met |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.what} | ${row.figure} | ${row.budget} | ${row.met ? 'yes' : '**no**'} |`),
  ].join('\n');
  console.log(table);
  appendFileSync(
    join(ROOT, 'BENCHMARKS.md'),
    `\n## npm run bench:dashboard — ${new Date().toISOString()}\n\nChromium ${await chromiumVersion()}, headless, ${DESKTOP.width}×${DESKTOP.height}; the built service on SQLite with 300,000 measurements over 3 sensors; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores at the end.\n\n${table}\n`,
  );
  if (rows.some((row) => !row.met)) process.exitCode = 1;
}

async function chromiumVersion(): Promise<string> {
  const browser = await launchBrowser();
  const version = browser.version();
  await browser.close();
  return version;
}

await main();
