// npm run bench:widgets [-- --write] [--rounds=15]
// Per view: the HTML's gzip size and, in headless Chromium on the test host, the time from handing a
// real tool result to the view to its first size report (its first complete render), median of the
// rounds; side by side with the floor (the ext-apps App alone, built in the same run). Then
// resources/read of a view over MCP (the official client's request, replayed by the load generator).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { build } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { launchBrowser, serveStatic } from '../test/support/browser.js';
import { writeBenchmarkSection } from './support/benchmarks-file.js';
import { runLoadProcess } from './support/load-process.js';
import { byMethod, type Captured, recordingFetch, template } from './support/mcp-requests.js';
import { startServiceProcess } from './support/service-process.js';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const ROUNDS = Number(arg('rounds', '15'));
const P = 'proj_demo';

/** A real call for each view on the demo project; views without one are measured for size only. */
const CASES: Record<string, { tool: string; args: Record<string, unknown> }> = {
  search: { tool: 'search_context', args: { query: 'roas', project_id: P } },
  procedure: { tool: 'get_procedure', args: { name: 'investigate-roas-drop', project_id: P } },
  knowledge: { tool: 'get_knowledge', args: { topic_id: 'roas-definition', project_id: P } },
  'business-key': { tool: 'get_business_key', args: { key: 'kpi.roas', project_id: P } },
  kpis: { tool: 'get_kpis', args: { project_id: P } },
  anomalies: { tool: 'get_anomalies', args: { project_id: P } },
  insight: { tool: 'get_daily_insight', args: { project_id: P } },
  'data-quality': { tool: 'get_data_quality', args: { project_id: P } },
  events: { tool: 'list_context_events', args: { project_id: P } },
  datastreams: { tool: 'list_datastreams', args: { project_id: P } },
  rates: { tool: 'get_exchange_rates', args: {} },
  projects: { tool: 'list_projects', args: {} },
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
const gzipBytes = (text: string) => zlib.gzipSync(text, { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function buildFloor(): Promise<string> {
  const out = path.join(root, 'dist', 'web', '.bench-floor');
  const dir = path.join(root, 'bench', 'widgets-floor');
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head>' +
      '<body><script type="module" src="./main.ts"></script></body></html>',
  );
  try {
    await build({
      root: dir,
      logLevel: 'warn',
      configFile: false,
      plugins: [viteSingleFile({ removeViteModuleLoader: true })],
      build: { outDir: out, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
    });
  } finally {
    fs.rmSync(path.join(dir, 'index.html'), { force: true });
  }
  return fs.readFileSync(path.join(out, 'index.html'), 'utf8');
}

/**
 * resources/read of a view over MCP: the request the official client sends (captured), replayed
 * by the load generator in a process of its own over bare keep-alive sockets, so the row measures
 * the server and not a client parsing 300 KB answers.
 */
async function readThroughput(base: string, uri: string): Promise<{ rps: number; p50ms: number; errors: number }> {
  const captured: Captured[] = [];
  const client = new Client({ name: 'bench-widgets', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch: recordingFetch(captured) }));
  await client.readResource({ uri });
  await client.close();
  const r = await runLoadProcess({
    origin: base,
    path: '/mcp',
    templates: [template(byMethod(captured, 'resources/read'))],
    connections: 8,
    durationMs: 4000,
    warmupMs: 1000,
    client: 'socket',
  });
  return { rps: r.rps, p50ms: r.p50ms, errors: r.errors };
}

const viewsDir = path.join(root, 'dist', 'web', 'widgets');
const views = fs
  .readdirSync(viewsDir)
  .filter((f) => f.endsWith('.html'))
  .map((f) => f.slice(0, -5))
  .sort();
const floorHtml = await buildFloor();
const service = await startServiceProcess(root, 'widgets');
const hostSite = await serveStatic('test-host');
const browser = await launchBrowser();
const rows: string[] = [];
try {
  // A fresh host page per render, as a chat opens a fresh frame per answer (the test host keeps
  // one bridge and client per page).
  const renderOnce = async (tool: string, args: Record<string, unknown>, html?: string) => {
    const page = await browser.newPage({ viewport: { width: 820, height: 900 } });
    try {
      await page.goto(hostSite.url);
      return await page.evaluate((o) => window.contextHubHost.run(o), {
        mcp: `${service.url}/mcp`,
        tool,
        args,
        theme: 'light' as const,
        html,
      });
    } finally {
      await page.close();
    }
  };
  const measure = async (tool: string, args: Record<string, unknown>, html?: string) => {
    await renderOnce(tool, args, html); // warm: the first parse of a view's script is not a render
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i += 1) times.push((await renderOnce(tool, args, html)).renderMs ?? Number.NaN);
    return median(times);
  };
  const floorMs = await measure('search_context', CASES.search!.args, floorHtml);
  rows.push(`| floor (App alone) | ${kb(gzipBytes(floorHtml))} | ${floorMs.toFixed(1)} ms | |`);
  for (const view of views) {
    const html = fs.readFileSync(path.join(viewsDir, `${view}.html`), 'utf8');
    const c = CASES[view];
    let render = 'no demo call';
    if (c) {
      try {
        render = `${(await measure(c.tool, c.args)).toFixed(1)} ms`;
      } catch (error) {
        render = `failed: ${String(error).slice(0, 60)}`;
      }
    }
    rows.push(`| ${view} | ${kb(gzipBytes(html))} | ${render} | ${c ? `${c.tool}` : ''} |`);
    process.stdout.write(`${rows.at(-1)}\n`);
  }
  const read = await readThroughput(service.url, 'ui://context-hub/search.html');
  const section = [
    '## widgets',
    '',
    `Command: \`npm run bench:widgets -- --write\` (${ROUNDS} renders per view after one warm-up, median; headless`,
    `Debian Chromium on the test host; the service on the embedded store with the demo project).`,
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    'Goals: ≤ 150 KB gzip per view; ≤ 100 ms median from the result handed over to the first complete render;',
    'resources/read of a view ≥ 1,000/s over MCP.',
    '',
    '| view | HTML gzip | result → first render (median) | tool |',
    '|---|---|---|---|',
    ...rows,
    '',
    `resources/read of ui://context-hub/search.html (${kb(fs.statSync(path.join(viewsDir, 'search.html')).size)}` +
      ` uncompressed), the official client's request replayed on 8 keep-alive connections for 4 s: ` +
      `**${Math.round(read.rps).toLocaleString('en-US')}/s**, p50 ${read.p50ms.toFixed(1)} ms, ${read.errors} errors.`,
  ].join('\n');
  console.log(section);
  if (process.argv.includes('--write')) writeBenchmarkSection(path.join(root, 'BENCHMARKS.md'), 'widgets', section);
} finally {
  await browser.close();
  await hostSite.close();
  await service.stop();
}
