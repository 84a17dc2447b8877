import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Frame, type Locator, type Page } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');

/** Debian's Chromium, headless, with no background traffic (this machine reaches no outside host). */
async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: .ci/run installs it (apt-get install -y chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

// One Chromium per test worker: the files of a worker share its module cache (vitest.config.ts,
// isolate: false), and a launch costs seconds on a loaded machine. A suite gets a handle whose
// close() closes the contexts (and so the pages) it opened, never the shared process; a context is
// the unit of isolation (cookies, storage, cache), as it is in Playwright's own runner.
let shared: Promise<Browser> | undefined;

/** Chromium for one suite: newContext/newPage as on a Browser; close() ends only what it opened. */
export async function launchBrowser(): Promise<Browser> {
  if (!shared) {
    const launching = launchChromium();
    shared = launching;
    launching.catch(() => {
      if (shared === launching) shared = undefined;
    });
  }
  const browser = await shared;
  if (!browser.isConnected()) {
    shared = undefined;
    return launchBrowser();
  }
  return borrowed(browser);
}

function borrowed(browser: Browser): Browser {
  const opened = new Set<BrowserContext>();
  const track = (context: BrowserContext) => {
    opened.add(context);
    context.once('close', () => opened.delete(context));
    return context;
  };
  const handle: Partial<Browser> = {
    newContext: async (options) => track(await browser.newContext(options)),
    newPage: async (options) => {
      // What Browser.newPage does: a context of its own that closes with the page.
      const context = track(await browser.newContext(options));
      const page = await context.newPage();
      page.once('close', () => void context.close().catch(() => undefined));
      return page;
    },
    contexts: () => [...opened],
    close: async () => {
      await Promise.all([...opened].map((context) => context.close()));
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (property in handle) return handle[property as keyof Browser];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Serves one built folder of dist/web on a loopback port (another origin than the service's). */
export async function serveStatic(folder: string): Promise<{ url: string; close(): Promise<void> }> {
  const dir = path.join(ROOT, 'dist', 'web', folder);
  const server = http.createServer((req, res) => {
    const file = path.join(dir, new URL(req.url ?? '/', 'http://x').pathname.replace(/\/$/, '/index.html'));
    if (!file.startsWith(dir) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Collects page errors and console errors of a page and its frames. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`http ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return errors;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let axeSource: string | undefined;

/**
 * Runs axe-core inside a frame and returns its serious and critical violations. The 0.5 MB script
 * goes into a document once: a view is checked four times (two themes, two hosts' styles) without
 * reloading, and parsing it again each time cost ~65 ms a check.
 */
export async function seriousViolations(frame: Frame): Promise<AxeViolation[]> {
  if (!(await frame.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object'))) {
    axeSource ??= fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    await frame.evaluate(axeSource);
  }
  const violations = (await frame.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations;
  })) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The view's content height and the height its host gave the iframe (the page's one iframe). */
export async function viewHeights(page: Page, frame: Frame): Promise<{ content: number; iframe: number }> {
  const content = await frame.evaluate(() => {
    const html = document.documentElement;
    const before = html.style.height;
    html.style.height = 'max-content';
    const h = Math.ceil(html.getBoundingClientRect().height);
    html.style.height = before;
    return h;
  });
  const iframe = await page.locator('iframe').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  return { content, iframe };
}

/**
 * A screenshot of the whole page with its view. It first lets the host catch up with the view's
 * size (a test that just narrowed the viewport would otherwise capture the iframe at its old
 * height, its content cut); the wait is bounded and never fails the test, the checks of the size
 * are the harness's (view-harness.ts). Then the viewport grows to the page: a full-page capture of
 * a taller page leaves a cross-origin (out-of-process) iframe unpainted.
 */
export async function shoot(page: Page, frame: Frame, file: string): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    const h = await viewHeights(page, frame);
    if (Math.abs(h.content - h.iframe) <= 1) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const height = await page.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
  const width = page.viewportSize()?.width ?? 820;
  await page.setViewportSize({ width, height });
  await frame.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
  await page.screenshot({ path: file });
}

export function artifactPath(...parts: string[]): string {
  const file = path.join(ARTIFACTS, ...parts);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** What web/test-host exposes to tests (window.contextHubHost). */
export interface TestHostRun {
  renderMs: number | null;
  resourceUri: string;
  htmlBytes: number;
}
declare global {
  interface Window {
    contextHubHost: {
      run(opts: {
        mcp: string;
        tool: string;
        args: Record<string, unknown>;
        theme: 'light' | 'dark';
        styles?: 'ours' | 'reference';
        token?: string;
        html?: string;
      }): Promise<TestHostRun>;
      setTheme(theme: 'light' | 'dark', styles?: 'ours' | 'reference' | 'foreign'): void;
      errors: string[];
    };
  }
}

/**
 * The numbered event badges of a SeriesChart (web/shared/chart.tsx) as it drew them last: inside the
 * plot's width, none overlapping another of its row. Returns how many there are.
 */
export async function chartBadgesClear(chart: Locator): Promise<number> {
  const { plot, badges } = await chart.evaluate((el: HTMLElement) => ({
    plot: JSON.parse(el.dataset.plot ?? '[0,0]') as [number, number],
    badges: JSON.parse(el.dataset.badges ?? '[]') as { n: number; left: number; right: number; row: number }[],
  }));
  for (const b of badges) {
    if (b.left < plot[0] - 0.5 || b.right > plot[1] + 0.5)
      throw new Error(`badge ${b.n} (${b.left}–${b.right}) leaves the plot (${plot[0]}–${plot[1]})`);
    for (const o of badges)
      if (o !== b && o.row === b.row && o.left < b.right && b.left < o.right)
        throw new Error(`badges ${b.n} and ${o.n} overlap`);
  }
  return badges.length;
}
