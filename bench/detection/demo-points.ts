// The demo project's KPI points, as the evaluator reads them (every channel and the project
// total, every metric), from a real PGlite service that ran the demo seed with the clock the
// demo test uses. bench/detection/tune.ts evaluates them in memory with any rule settings; the
// points are cached in .tmp/ (the seed is deterministic) so a sweep does not re-ingest them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServiceApp } from '../../src/app/service-app.js';
import { readPoints } from '../../src/modules/anomalies/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { PGLITE_TEMPLATE } from '../../src/platform/db/open.js';
import { PgliteDatabase } from '../../src/platform/db/pglite.js';
import { createLogger } from '../../src/platform/logger.js';

export const DEMO_TODAY = '2026-04-13';
export type DemoPoint = { channel: string; d: number } & Record<string, number | null>;

export async function demoPoints(cacheDir: string): Promise<DemoPoint[]> {
  const cache = path.join(cacheDir, `demo-points-${DEMO_TODAY}.json`);
  if (fs.existsSync(cache)) return JSON.parse(fs.readFileSync(cache, 'utf8')) as DemoPoint[];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ch-demo-points-'));
  const db = await PgliteDatabase.open({ dataDir: path.join(dataDir, 'pglite'), templateTarball: PGLITE_TEMPLATE });
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      LOG_LEVEL: 'silent',
      PORT: '0',
    });
    const app = await createServiceApp({
      config,
      db,
      clock: new ManualClock(`${DEMO_TODAY}T15:00:00Z`),
      logger: createLogger({ level: 'warn' }),
    });
    try {
      await app.jobs.start();
      await app.services.demo.run(app.systemContext());
      for (;;) {
        const runs = await db.query<{ status: string }>(
          "SELECT status FROM datastream_runs WHERE project_id = 'proj_demo'",
        );
        if (runs.length && runs.every((r) => r.status === 'succeeded')) break;
        if (runs.some((r) => r.status === 'failed')) throw new Error('demo run failed');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const points = (await readPoints(db, ['proj_demo'], '2000-01-01', DEMO_TODAY, null)) as unknown as DemoPoint[];
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.writeFileSync(cache, JSON.stringify(points.map(({ project_id: _, ...rest }) => rest)));
      return JSON.parse(fs.readFileSync(cache, 'utf8')) as DemoPoint[];
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
