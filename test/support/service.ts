import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServiceApp, type ServiceApp, type ServiceAppOptions } from '../../src/app/service-app.js';
import type { Clock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { PostgresDatabase } from '../../src/platform/db/postgres.js';
import { createLogger } from '../../src/platform/logger.js';
import { openDemoDatabase } from './demo-store.js';
import { openTestDatabase, type StoreKind, type TestDatabase } from './stores.js';

export interface RunningService {
  url: string;
  app: ServiceApp;
  store: TestDatabase;
  close(): Promise<void>;
}

export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/** The real service on an ephemeral loopback port, on a store of its own. */
export async function startService(
  kind: StoreKind,
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    mcpExtensions?: ServiceAppOptions['mcpExtensions'];
    /** Capture logs (tests that prove nothing secret is logged). */
    logDestination?: import('node:stream').Writable;
    /**
     * How often the service polls its job queues (2 s as in production). Jobs it sends itself start
     * at once either way; the poll finds retries and delayed jobs when they come due. A suite that
     * waits through many retries passes 0.5 (pg-boss's minimum): each idle service then spends
     * ~12 % of a core on polls instead of ~4 %, so not by default.
     */
    jobPollingSeconds?: number;
    /**
     * Start on a copy of a store holding the demo project with its backfill settled (demo-store.ts)
     * instead of an empty one: what `demo.run()` and waiting for its run would leave, for suites
     * that need the demo as their data rather than as their subject.
     */
    demo?: boolean;
    /** The store to serve (demo-store.ts builds on one it keeps); closed and dropped with the service. */
    store?: TestDatabase;
  } = {},
): Promise<RunningService> {
  const store =
    options.store ?? (options.demo ? await openDemoDatabase(kind, options.clock) : await openTestDatabase(kind));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const app = await createServiceApp({
    config,
    db: store.db,
    clock: options.clock,
    logger: options.logDestination
      ? createLogger({ level: 'info', destination: options.logDestination })
      : createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    mcpExtensions: options.mcpExtensions,
    jobPollingSeconds: options.jobPollingSeconds,
  });
  // Tests observe jobs deterministically: wait for the platform the service starts in the background.
  await app.jobs.start();
  const url = await app.listen();
  return {
    url,
    app,
    store,
    close: async () => {
      await app.close();
      await store.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RunningReplica {
  url: string;
  app: ServiceApp;
  close(): Promise<void>;
}

/**
 * A second replica of a PostgreSQL `service`: its own process state, pool and data folder on the
 * same database, serving HTTP but running no workers, as a scaled-out web replica does.
 */
export async function startReplica(
  service: RunningService,
  options: { maxConnections?: number } = {},
): Promise<RunningReplica> {
  if (!service.store.url) throw new Error('a replica needs a PostgreSQL service');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-replica-'));
  const db = new PostgresDatabase({ url: service.store.url, maxConnections: options.maxConnections ?? 3 });
  const app = await createServiceApp({
    config: loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SECRETS_KEY: TEST_SECRETS_KEY,
      LOG_LEVEL: 'silent',
      SERVE_WORKERS: 'false',
    }),
    db,
    logger: createLogger({ level: 'silent' }),
    workJobs: false,
  });
  const url = await app.listen();
  return {
    url,
    app,
    close: async () => {
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** fetch against the service with JSON defaults. */
export async function api(
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { ...init, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
