// Prepares the embedded-store template at install/build time: PGlite's initdb plus every
// migration, the bundled rates and the job platform's schema and queues, dumped as a tarball. A
// first start loads it instead of running initdb, which costs seconds (BENCHMARKS.md, startup
// notes).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { PgliteDatabase } = await import(path.join(root, 'dist/platform/db/pglite.js'));
const { migrate } = await import(path.join(root, 'dist/platform/db/migrate.js'));
const { templateManifest } = await import(path.join(root, 'dist/platform/db/open.js'));
const target = path.join(root, '.template', 'pglite-data.tar.gz');

const db = await PgliteDatabase.open();
await migrate(db);
// The bundled ECB rate history, so a fresh embedded store converts currencies offline at once.
await (await import(path.join(root, 'dist/modules/money/money.snapshot.js'))).loadBundledRatesForTemplate(
  db,
  new Date(),
);
// pg-boss's schema and the service's queues, as the job platform's first start makes them, and
// nothing else (src/app/job-platform.ts; the PostgreSQL test template is made the same way).
await import(path.join(root, 'dist/platform/zod-runtime.js'));
const { installJobPlatform } = await import(path.join(root, 'dist/app/job-platform.js'));
await installJobPlatform({ db });
const blob = await db.dump();
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, Buffer.from(await blob.arrayBuffer()));
await db.close();
// Which migration and function files the template holds: one built from other files is not used.
fs.writeFileSync(path.join(root, '.template', 'manifest.json'), `${JSON.stringify(templateManifest(), null, 2)}\n`);
console.log(`prepared ${path.relative(root, target)} (${fs.statSync(target).size} bytes)`);
