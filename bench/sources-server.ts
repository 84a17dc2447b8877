// One platform's loopback server for bench:sources, in a process of its own: forked by
// sources-run.ts so the server's CPU (building and serialising every page) and its memory are not
// charged to the reader or the pipeline measured beside it. The parent talks to it over IPC:
//   → { kind: 'ready', url, key?, token? } once listening
//   ← 'stats' → { kind: 'stats', requests }     ← 'close' → closes and exits
import { ManualClock } from '../src/platform/clock.js';
import { startBigQueryServer } from '../test/support/sources/bigquery-server.js';
import { startGoogleAdsServer } from '../test/support/sources/google-ads-server.js';
import { startMetaServer } from '../test/support/sources/meta-server.js';

export interface ServerReady {
  kind: 'ready';
  url: string;
  /** BigQuery's service account key (the server holds its private half's public key). */
  key?: Record<string, string>;
  /** Meta's system-user token. */
  token?: string;
}

const [provider, from, to, campaignsArg, now, usage] = process.argv.slice(2) as [
  'bigquery' | 'google_ads' | 'meta_ads',
  string,
  string,
  string,
  string,
  string | undefined,
];
const data = { from, to, campaigns: Number(campaignsArg), version: () => 0 };
// The reader signs its assertions by the bench's fixed clock; the server checks them by the same.
const clock = new ManualClock(now);

async function start(): Promise<{ ready: ServerReady; requests(): number; close(): Promise<void> }> {
  if (provider === 'bigquery') {
    const bq = await startBigQueryServer({ location: 'EU', project: 'bench-proj', now: () => clock.now() });
    bq.data = data;
    return { ready: { kind: 'ready', url: bq.url, key: bq.key }, requests: () => bq.requests.length, close: bq.close };
  }
  if (provider === 'google_ads') {
    const ads = await startGoogleAdsServer();
    ads.data = data;
    return { ready: { kind: 'ready', url: ads.url }, requests: () => ads.reports, close: ads.close };
  }
  const meta = await startMetaServer();
  meta.data = data;
  meta.usagePct = Number(usage ?? 50);
  return {
    ready: { kind: 'ready', url: meta.url, token: meta.token },
    requests: () => meta.requests.length,
    close: meta.close,
  };
}

const server = await start();
process.on('message', async (message) => {
  if (message === 'stats') process.send?.({ kind: 'stats', requests: server.requests() });
  if (message === 'close') {
    await server.close();
    process.exit(0);
  }
});
// An orphan (the parent died) closes itself rather than listening forever.
process.on('disconnect', () => process.exit(0));
process.send?.(server.ready);
