// Makes the PostgreSQL database every PostgreSQL test store is cloned from (global-setup.ts): the
// service started once on it, as a first start does (migrations, function files, the bundled ECB
// rates, pg-boss's schema and the queues), then stopped. Run with the built service:
//   node --import ./dist/platform/zod-runtime.js test/support/postgres-template.mjs <database url>
// No worker runs and nothing is seeded: a clone holds what a fresh store holds after its first start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const { loadConfig } = await import(path.join(root, 'dist/platform/config.js'));
const { createServiceApp } = await import(path.join(root, 'dist/app/service-app.js'));
const { createLogger } = await import(path.join(root, 'dist/platform/logger.js'));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-pg-template-'));
try {
  const config = loadConfig({
    DATABASE_URL: process.argv[2],
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    DATA_DIR: dataDir,
    SERVE_WORKERS: 'false',
    LOG_LEVEL: 'silent',
  });
  const app = await createServiceApp({ config, logger: createLogger({ level: 'silent' }), workJobs: false });
  await app.jobs.start();
  await app.close();
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
