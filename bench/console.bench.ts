// npm run bench:console [-- --write] [--rounds=11]
// The console in headless Chromium against `context-hub serve` with the demo project: the first load
// of /console/proj_demo/overview on a cold cache (JavaScript transferred, gzip as served, and the time
// from navigation start to the page showing its data), then client-side navigation between sections
// (click → the next section's data shown). Medians of the rounds.
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../test/support/browser.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';
import { startServiceProcess } from './support/service-process.js';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const ROUNDS = Number(arg('rounds', '11'));
const P = 'proj_demo';
/** Sections visited in turn, by the heading each shows once its data is there. */
const TOUR = ['Skills', 'Knowledge', 'Events', 'Anomalies', 'Runs', 'Datastreams', 'Overview'];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const service = await startServiceProcess(root, 'console');
const browser = await launchBrowser();
try {
  const loads: number[] = [];
  const jsBytes: number[] = [];
  const jsFiles: number[] = [];
  const navs = new Map<string, number[]>(TOUR.map((t) => [t, []]));
  for (let round = 0; round <= ROUNDS; round += 1) {
    // A new context per round: an empty HTTP cache, as a first visit.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // The moment the data is in the DOM, taken in the page (a locator's polling would add its interval).
    await page.addInitScript(() => {
      new MutationObserver((_changes, observer) => {
        if (document.querySelector('[data-loaded="true"]')) {
          (window as unknown as { shownAt: number }).shownAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    const js: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script') js.push(request.sizes().then((s) => s.responseBodySize));
    });
    await page.goto(`${service.url}/console/${P}/overview`);
    await page.locator('[data-loaded="true"]').waitFor();
    const shownAt = await page.evaluate(() => (window as unknown as { shownAt: number }).shownAt);
    const bytes = (await Promise.all(js)).reduce((a, b) => a + b, 0);
    if (round > 0) {
      // Round 0 warms the service (first queries, page cache); it is not counted.
      loads.push(shownAt);
      jsBytes.push(bytes);
      jsFiles.push(js.length);
    }
    for (const heading of TOUR) {
      const ms = await page.evaluate(async (name) => {
        const nav = document.querySelector('nav[aria-label="Project sections"]')!;
        const link = [...nav.querySelectorAll('a')].find((a) => a.textContent === name)!;
        const t0 = performance.now();
        link.click();
        // Checked once per frame (no named helper: tsx would wrap it in a __name the page lacks).
        while (
          document.querySelector('main h1')?.textContent !== name ||
          !document.querySelector('main [data-loaded="true"]')
        )
          await new Promise((resolve) => requestAnimationFrame(resolve));
        return performance.now() - t0;
      }, heading);
      if (round > 0) navs.get(heading)!.push(ms);
    }
    await context.close();
  }
  const allNavs = [...navs.values()].flat();
  const rows = [
    `| first load: JavaScript transferred (gzip) | ${kb(median(jsBytes))} in ${median(jsFiles)} files | ≤ 200 KB |`,
    `| first load: navigation start → overview data shown | ${median(loads).toFixed(0)} ms | ≤ 500 ms |`,
    `| section navigation → data shown (all sections) | ${median(allNavs).toFixed(0)} ms | ≤ 200 ms |`,
    ...TOUR.map((t) => `| → ${t} | ${median(navs.get(t)!).toFixed(0)} ms | |`),
  ];
  const section = [
    '## console',
    '',
    `Command: \`npm run bench:console -- --write\` (${ROUNDS} rounds after one warm-up, median; headless Debian`,
    'Chromium at 1280 px, a new browser context (cold HTTP cache) per round; `context-hub serve` on the embedded',
    'store with the demo project; the navigation tour clicks the section links in the order listed).',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| measure | median | goal |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(section);
  if (process.argv.includes('--write')) writeBenchmarkSection(path.join(root, 'BENCHMARKS.md'), 'console', section);
} finally {
  await browser.close();
  await service.stop();
}
