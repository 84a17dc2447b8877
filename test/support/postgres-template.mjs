// Makes the PostgreSQL database every PostgreSQL test store is cloned from (global-setup.ts): the
// service started once on it, as a first start does (migrations, function files, the bundled ECB
// rates, pg-boss's schema and the queues), then stopped. Run with the built service:
//   node --import ./dist/platform/zod-runtime.js test/support/postgres-template.mjs <database url>
// No worker runs and nothing is seeded: a clone holds what a fresh store holds after its first start.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const { installJobPlatform } = await import(path.join(root, 'dist/app/job-platform.js'));
await installJobPlatform({ databaseUrl: process.argv[2] });
