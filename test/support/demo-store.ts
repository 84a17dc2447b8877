import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { DEMO_TIMEZONE } from '../../src/modules/demo/index.js';
import { dayInZone } from '../../src/modules/providers/index.js';
import { type Clock, systemClock } from '../../src/platform/clock.js';
import type { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { api, startService } from './service.js';
import {
  createPostgresDatabase,
  databaseExists,
  openPgliteStore,
  openTestDatabase,
  postgresStore,
  type StoreKind,
  type TestDatabase,
} from './stores.js';

/**
 * Stores that start out holding the demo project as `demo.run()` leaves it once its 120-day backfill
 * has settled (the run succeeded, its anomalies, checks and insight written, no job or outbox row
 * pending). Seeding and backfilling took each suite that needs the demo 2–4 s of CPU per store;
 * copying a store that holds it takes ~0.1 s. Suites about the seeding itself (test/demo/,
 * test/anomalies/demo.test.ts) still seed a new store.
 *
 * Built once per worker, store kind and demo day (today in the demo project's timezone, on the
 * worker's own clock, or on the suite's when it passes `clock`: the demo is then seeded and
 * backfilled relative to that clock), so "today" in the copy is the day the suite runs, also in a
 * run that crosses midnight there. PGlite: a plain tar of the data directory after a CHECKPOINT,
 * opened like the migrated template (pglite-template-fs.ts). PostgreSQL: a database kept as the
 * template of the copies, named after the run's template so that the run's teardown drops it.
 */
const built = new Map<string, Promise<string>>();

/** A new store holding the settled demo. */
export async function openDemoDatabase(kind: StoreKind, clock: Clock = systemClock): Promise<TestDatabase> {
  const day = dayInZone(clock.now(), DEMO_TIMEZONE);
  // A suite's own clock gets a demo of its own day, seeded and backfilled on that clock.
  const key = `${kind} ${day} ${clock === systemClock ? 'system' : 'suite'}`;
  let template = built.get(key);
  // A rerun in watch mode removes what the run before built (global-setup.ts): build it again.
  if (template && !(await stillThere(kind, await template.catch(() => '')))) template = undefined;
  if (!template) {
    template = build(kind, day, clock);
    built.set(key, template);
    template.catch(() => built.delete(key));
  }
  const source = await template;
  if (kind === 'pglite') return openPgliteStore(source);
  return postgresStore(await createPostgresDatabase('t', { template: source }));
}

/** The databases the demo copies are made from: `ch_demo_<pid>_…`, after the run's `ch_template_<pid>`. */
function demoPrefix(): string {
  return inject('postgresTemplate').replace('ch_template_', 'ch_demo_');
}

async function stillThere(kind: StoreKind, source: string): Promise<boolean> {
  if (!source) return false;
  return kind === 'pglite' ? fs.existsSync(source) : databaseExists(source);
}

/** The settled demo: a tar file (PGlite) or a database name (PostgreSQL). */
async function build(kind: StoreKind, day: string, clock: Clock): Promise<string> {
  const store =
    kind === 'pglite'
      ? await openTestDatabase('pglite')
      : await postgresStore(await createPostgresDatabase(demoPrefix()));
  const service = await startService(kind, { store, clock });
  try {
    await service.app.services.demo.run(service.app.systemContext());
    await settled(service.url, service.store);
    await service.app.close();
    if (kind === 'pglite') {
      const pglite = (service.store.db as PgliteDatabase).pglite;
      await pglite.exec('CHECKPOINT');
      const tar = new Uint8Array(await ((await pglite.dumpDataDir('none')) as Blob).arrayBuffer());
      const file = path.join(inject('runDir'), `demo-store-${process.pid}-${day}-${built.size}.tar`);
      fs.writeFileSync(file, tar);
      await service.store.drop();
      return file;
    }
    await service.store.db.close();
    return service.store.database!;
  } catch (error) {
    await service.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Whether the demo's backfill run succeeded and its insight is written, as the service at `url`
 * answers (an in-process service here, a CLI `serve` in seeded-data-dir.ts).
 */
export async function demoBackfillDone(url: string): Promise<boolean> {
  const runs = (await api(`${url}/api/flows/runs?project_id=proj_demo`)).body.runs as { status: string }[];
  const insights = (await api(`${url}/api/insights?project_id=proj_demo`)).body.insights as unknown[];
  return runs.length > 0 && runs.every((r) => r.status === 'succeeded') && insights.length > 0;
}

/** Polls (bounded) until the demo's backfill and everything it sets off are done. */
async function settled(url: string, store: TestDatabase): Promise<void> {
  for (let i = 0; i < 6000; i += 1) {
    if (await demoBackfillDone(url)) {
      const [pending] = await store.db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM evaluator_outbox WHERE processed_at IS NULL)::int
              + (SELECT count(*) FROM pgboss.job WHERE state = 'active'
                   OR (state IN ('created', 'retry') AND start_after <= now()))::int AS n`,
      );
      if (pending?.n === 0) return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the demo backfill did not settle');
}
