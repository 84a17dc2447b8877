import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { artifactPath, launchBrowser, seriousViolations, watchErrors } from './browser.js';
import { startService, type RunningService } from './service.js';
import type { StoreKind } from './stores.js';

/**
 * One service with the demo project, one browser and one page for a describe block (lean: a
 * file's tests share them). Dialogs (confirm before a delete) are accepted.
 */
export function consoleSuite(
  store: StoreKind,
  options: { env?: Record<string, string> } = {},
): { service: RunningService; ui: ConsoleDriver } {
  const suite = {} as { service: RunningService; ui: ConsoleDriver; browser: Browser };
  beforeAll(async () => {
    suite.service = await startService(store, { demo: true, env: options.env });
    suite.browser = await launchBrowser();
    suite.ui = new ConsoleDriver(suite.browser, suite.service.url, store);
    const page = await suite.ui.start();
    page.on('dialog', (d) => void d.accept());
  });
  afterAll(async () => {
    await suite.ui?.close();
    await suite.browser?.close();
    await suite.service?.close();
  });
  return suite;
}

/**
 * Drives the console in Chromium against a running service: opens a page, and checks what every
 * page owes (no serious or critical axe-core violation, no page error or failed request) with a
 * screenshot under test-artifacts/console/<store>/.
 */
export class ConsoleDriver {
  page!: Page;
  context!: BrowserContext;
  errors: string[] = [];
  /** Statuses a test expects (a 401 that sends the user to sign-in, a refused write). */
  allowedStatuses = new Set<number>();

  constructor(
    private readonly browser: Browser,
    readonly serviceUrl: string,
    private readonly store: string,
  ) {}

  async start(viewport = { width: 1280, height: 900 }, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    this.context = await this.browser.newContext({ viewport, colorScheme });
    this.page = await this.context.newPage();
    this.errors = watchErrors(this.page);
    return this.page;
  }

  async open(path: string): Promise<Page> {
    await this.page.goto(`${this.serviceUrl}/console/${path}`);
    return this.page;
  }

  /** The page's data arrived: its element marked data-loaded (present even when the list is empty). */
  async loaded(): Promise<void> {
    await this.page.locator('[data-loaded="true"]').first().waitFor({ state: 'attached' });
  }

  /** axe-core in the page's current state, a screenshot, and the errors seen so far. */
  async check(name: string): Promise<void> {
    expect(await seriousViolations(this.page.mainFrame()), `${name}: axe`).toEqual([]);
    await this.page.screenshot({ path: artifactPath('console', this.store, `${name}.png`), fullPage: true });
    const unexpected = this.errors.filter((e) => {
      const status = /^http (\d+)/.exec(e)?.[1];
      if (status && this.allowedStatuses.has(Number(status))) return false;
      // Chromium logs each failed fetch as a console error next to the response: one is enough.
      return !/^console: Failed to load resource/.test(e);
    });
    expect(unexpected, `${name}: errors`).toEqual([]);
    this.errors.length = 0;
  }

  async close(): Promise<void> {
    await this.context?.close();
  }
}
