import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import { createLogger } from '../platform/logger.js';
import { createServiceApp } from './service-app.js';

/** The store to install on: an open database (the embedded template), or a PostgreSQL URL. */
export type JobPlatformTarget = { db: Database } | { databaseUrl: string };

/**
 * Installs pg-boss's schema and the service's queues on a store, as the job platform's first start
 * makes them, then stops: what the embedded template (scripts/prepare-template.mjs) and the
 * PostgreSQL test template (test/support/postgres-template.mjs) hold, so that neither a first
 * start nor a test store pays for the install (~0.3 s of CPU on PGlite). The service is built on
 * the store (migrations and the bundled rates too, when they are not there yet) with no worker and
 * no listener, and nothing else is written: no worker row, no row that depends on the secrets key
 * (a fixed one here). A later start only reconciles queues whose definition changed, and pg-boss
 * adds the queue-statistics partitions of later days itself. An open `db` stays open.
 *
 * The caller loads the zod runtime first (src/platform/zod-runtime.ts), as every entry point does.
 */
export async function installJobPlatform(target: JobPlatformTarget): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-job-platform-'));
  try {
    const config = loadConfig({
      ...('databaseUrl' in target ? { DATABASE_URL: target.databaseUrl } : {}),
      DATA_DIR: dataDir,
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      SERVE_WORKERS: 'false',
      LOG_LEVEL: 'silent',
    });
    const app = await createServiceApp({
      config,
      ...('db' in target ? { db: target.db } : {}),
      logger: createLogger({ level: 'silent' }),
      workJobs: false,
    });
    await app.jobs.start();
    await app.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
