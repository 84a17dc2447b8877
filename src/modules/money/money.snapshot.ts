import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../../platform/db/database.js';
import { PACKAGE_ROOT } from '../../platform/db/migrate.js';
import { latestAcceptableDate, parseEcbFeed, type FeedDay } from './ecb-feed.js';
import * as repo from './money.repo.js';

/** The ECB history shipped inside the package, so conversions work with no network at all. */
export const BUNDLED_SNAPSHOT = path.join(PACKAGE_ROOT, 'data-bundled', 'ecb', 'eurofxref-hist.zip');
export const SNAPSHOT_SOURCE = 'ecb:bundled/eurofxref-hist.zip';

/** Serializes rate writers across processes sharing one PostgreSQL (snapshot load, refreshes). */
export const FX_WRITE_LOCK = 727_004;

export function columnsOf(days: FeedDay[]): repo.RateColumns {
  const columns: repo.RateColumns = { currencies: [], dates: [], rates: [] };
  for (const day of days) {
    for (const [currency, rate] of day.rates) {
      columns.currencies.push(currency);
      columns.dates.push(day.date);
      columns.rates.push(rate);
    }
  }
  return columns;
}

export interface SnapshotResult {
  loaded: boolean;
  rates_inserted: number;
}

/**
 * Loads the bundled snapshot unless this exact file (by checksum) was loaded before: a restart
 * costs one hash of ~600 KB and one indexed lookup. Existing rows are kept (ON CONFLICT DO
 * NOTHING), so a snapshot never rewrites a rate a feed stored. Also called by
 * scripts/prepare-template.mjs so a fresh embedded store starts with the history in place.
 */
export async function loadBundledRates(db: Database, now: Date, file = BUNDLED_SNAPSHOT): Promise<SnapshotResult> {
  const bytes = fs.readFileSync(file);
  const checksum = createHash('sha256').update(bytes).digest('hex');
  if (await repo.snapshotLoaded(db, checksum)) return { loaded: false, rates_inserted: 0 };
  const feed = await parseEcbFeed(bytes, { latestDate: latestAcceptableDate(now.toISOString().slice(0, 10)) });
  const columns = columnsOf(feed.days);
  return db.withAdvisoryLock(FX_WRITE_LOCK, async (tx) => {
    // Another process may have loaded it while this one parsed.
    if (await repo.snapshotLoaded(tx, checksum)) return { loaded: false, rates_inserted: 0 };
    const inserted = await repo.insertRates(tx, columns, SNAPSHOT_SOURCE, now);
    await repo.recordLoad(tx, {
      kind: 'snapshot',
      source: SNAPSHOT_SOURCE,
      checksum,
      status: 'loaded',
      detail: null,
      daysInFeed: feed.days.length,
      ratesInserted: inserted,
      firstDate: feed.days[0]!.date,
      lastDate: feed.days[feed.days.length - 1]!.date,
      startedAt: now,
      finishedAt: now,
    });
    return { loaded: true, rates_inserted: inserted };
  });
}

/**
 * For scripts/prepare-template.mjs: loads the snapshot into the embedded template, then
 * checkpoints with WAL recycling off so the WAL the load wrote is dropped rather than shipped: it
 * was most of the template, which every fresh embedded store and test store unpacks
 * (BENCHMARKS.md, startup notes).
 */
export async function loadBundledRatesForTemplate(db: Database, now: Date): Promise<SnapshotResult> {
  const result = await loadBundledRates(db, now);
  await db.exec('SET wal_recycle = off; CHECKPOINT;');
  return result;
}
