/**
 * `npm run bench:dashboard`: the dashboard's performance budgets, measured in Debian's Chromium.
 *
 * - the gzipped JavaScript and CSS the first page loads (index.html's scripts, styles and
 *   preloads), budget 150 KB;
 * - an overview with data, from navigation to the last sensor value drawn, budget 1 s: the built
 *   service on a fresh SQLite store holding 300,000 synthetic measurements; the first load with
 *   an empty browser cache, then the median of five loads in the same browser;
 * - the chart component drawing 100,000 points, from creating the chart to its first frame,
 *   budget 200 ms (web/bench/chart.html, built here, median of five);
 * - a year of one sensor (3,153,600 rows: one every 10 s, written raw into a store of the release
 *   before the history buckets, which the service's upgrade migration builds at start) on the charts page, from the click on "1 y" to the frame that
 *   draws it, budget 300 ms (median of five, the 24 h range picked between them);
 * - an hour of live readings at 10 a second on an open chart of the last hour: 36,000 readings
 *   whose timestamps cover the hour, posted ten to a request (one simulated second, one event)
 *   as fast as the service takes them, so the hour passes in about a minute; what is measured is
 *   the series bound (pixel buckets, points scrolled out dropped), not the wall clock. The page's
 *   JS heap after a forced garbage collection, sampled through the run: flat when the end is
 *   within 1 MB of the sample at a quarter.
 *
 * It prints a table and appends it to BENCHMARKS.md.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { build } from 'vite';
import { CHROMIUM, DESKTOP, launchBrowser } from '../test/e2e/browser.js';
import { oldStore } from './lib/old-store.js';
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

const YEAR_ROWS = 365 * 8640;

/** A year of one reading every 10 s for sensor 1, ending a minute ago: [sensor_id, value, epoch ms]. */
function* yearRows(): Generator<[number, number, number]> {
  const startMs = Date.now() - 60_000 - YEAR_ROWS * 10_000;
  for (let i = 0; i < YEAR_ROWS; i++) {
    const t = startMs + i * 10_000;
    yield [1, 20 + 5 * Math.sin(t / 86_400_000) + 0.5 * Math.sin(t / 600_000), t];
  }
}

/** In the page: pick a range by its button, resolve with the ms until the frame that draws it (the chart's data-drawn names the range). */
const PICK_RANGE = `(async (label, spanMs) => {
  const button = [...document.querySelectorAll('.segmented button')].find((b) => b.textContent === label);
  const card = document.querySelector('.chart-card');
  const drawn = new Promise((resolve) => {
    const check = () => {
      const [from, to] = (card.querySelector('.chart')?.getAttribute('data-drawn') ?? '0-0').split('-').map(Number);
      if (Math.abs(to - from - spanMs) > 1000 || button.getAttribute('aria-pressed') !== 'true') return false;
      requestAnimationFrame(() => resolve(performance.now()));
      return true;
    };
    new MutationObserver((_changes, observer) => { if (check()) observer.disconnect(); })
      .observe(card, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'] });
  });
  const started = performance.now();
  button.click();
  return (await drawn) - started;
})`;

const pickRange = (label: string, spanMs: number) => `${PICK_RANGE}(${JSON.stringify(label)}, ${spanMs})`;

async function yearChartTimes(): Promise<{ times: number[]; fillSeconds: number; migrationSeconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-bench-year-'));
  const url = `sqlite:${join(dir, 'sensorhub.db')}`;
  // Written raw into a store of the release before the buckets, which the service's upgrade
  // migration then builds: the same buckets ingest keeps, without posting 3 million rows.
  const fillStart = Date.now();
  await oldStore(url, 1, yearRows());
  const fillSeconds = (Date.now() - fillStart) / 1000;
  const migrationStart = Date.now();
  const service = await startService({ DATABASE_URL: url });
  const migrationSeconds = (Date.now() - migrationStart) / 1000;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${service.url}/ui/#/charts`);
    await page.locator('.chart canvas').waitFor();
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      times.push(await page.evaluate<number>(pickRange('1 y', 365 * 86_400_000)));
      await page.evaluate<number>(pickRange('24 h', 86_400_000));
    }
    return { times, fillSeconds, migrationSeconds };
  } finally {
    await browser.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const LIVE_READINGS = 36_000;
const LIVE_PER_POST = 10;

interface HeapRun {
  /** [share of the hour posted, used JS heap in MB] after a forced collection. */
  samples: [number, number][];
  points: number;
  maxPoints: number;
  seconds: number;
}

async function liveHeap(): Promise<HeapRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-bench-live-'));
  const service = await startService({ DATABASE_URL: `sqlite:${join(dir, 'sensorhub.db')}` });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/events');
    await page.goto(`${service.url}/ui/#/charts`);
    await page.locator('.chart canvas').waitFor();
    await stream;
    await page.getByRole('button', { name: '1 h', exact: true }).click();
    await page.waitForFunction(`document.querySelector('.segmented button[aria-pressed="true"]')?.textContent === '1 h'`);
    const heapMb = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      return usedSize / 1024 / 1024;
    };
    const samples: [number, number][] = [[0, await heapMb()]];
    const startMs = Date.now() - 3_600_000;
    const started = Date.now();
    for (let post = 0; post < LIVE_READINGS / LIVE_PER_POST; post++) {
      const rows = Array.from({ length: LIVE_PER_POST }, (_, i) => {
        const n = post * LIVE_PER_POST + i;
        return {
          sensor_id: 1,
          value: 1.5 + 0.5 * Math.sin(n / 300) + 0.05 * Math.sin(n),
          timestamp: new Date(startMs + n * 100).toISOString(),
        };
      });
      const reply = await fetch(`${service.url}/measurements`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rows),
      });
      if (!reply.ok) throw new Error(`live post failed: ${reply.status}`);
      const share = ((post + 1) * LIVE_PER_POST) / LIVE_READINGS;
      if ([0.1, 0.25, 0.5, 0.75, 1].some((mark) => Math.abs(share - mark) < 1e-9)) samples.push([share, await heapMb()]);
    }
    const seconds = (Date.now() - started) / 1000;
    // The last readings drawn (two frames on): the chart note counts the points shown.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    const points = await page.evaluate<number>(`Number(document.querySelector('.chart-note')?.dataset.points ?? 0)`);
    const maxPoints = await page.evaluate<number>(`Math.max(100, Math.round(document.querySelector('.chart-card').clientWidth))`);
    await context.close();
    return { samples, points, maxPoints, seconds };
  } finally {
    await browser.close();
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.error(`the dashboard bench needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
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

  const year = await yearChartTimes();
  const yearMs = median(year.times);
  rows.push({
    what: `chart of a year of one sensor (3,153,600 rows, written in ${year.fillSeconds.toFixed(0)} s, buckets built by the upgrade migration at start in ${year.migrationSeconds.toFixed(0)} s), "1 y" clicked → drawn (median of ${LOADS}: ${year.times.map((t) => t.toFixed(0)).join(', ')} ms)`,
    figure: ms(yearMs),
    budget: '≤ 300 ms',
    met: yearMs <= 300,
  });
  const live = await liveHeap();
  const quarter = live.samples.find(([share]) => share === 0.25)?.[1] ?? live.samples[0][1];
  const end = live.samples.at(-1)?.[1] ?? quarter;
  rows.push({
    what: `an hour of live readings at 10/s on a 1 h chart (36,000 readings in ${live.seconds.toFixed(0)} s), JS heap after GC at ${live.samples.map(([share, mb]) => `${Math.round(share * 100)} %: ${mb.toFixed(2)} MB`).join(', ')}`,
    figure: `${(end - quarter >= 0 ? '+' : '') + (end - quarter).toFixed(2)} MB from ¼ to the end`,
    budget: 'flat (within 1 MB)',
    met: end - quarter <= 1,
  });
  rows.push({
    what: "the same chart's points at the end (pixel buckets of the 1 h range; one per pixel is the chart width)",
    figure: `${live.points} points, width ${live.maxPoints} px`,
    budget: '≤ 2 per pixel',
    met: live.points <= 2 * live.maxPoints + 2,
  });

  const table = [
    '| what | figure | budget | met |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.what} | ${row.figure} | ${row.budget} | ${row.met ? 'yes' : '**no**'} |`),
  ].join('\n');
  console.log(table);
  appendFileSync(
    join(ROOT, 'BENCHMARKS.md'),
    `\n## npm run bench:dashboard — ${new Date().toISOString()}\n\nChromium ${await chromiumVersion()}, headless, ${DESKTOP.width}×${DESKTOP.height}; the built service on SQLite with 300,000 measurements over 3 sensors (overview), 3,153,600 for one sensor (year chart), an empty one (live); load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores at the end.\n\n${table}\n`,
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
