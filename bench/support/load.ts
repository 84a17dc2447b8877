// Closed-loop HTTP load generator for the benchmarks, run in a process of its own so that it does
// not share an event loop with the server under test. N virtual users each keep one request in
// flight over an undici keep-alive pool of N connections; user i sends template i % templates.
// A response counts as ok when its status is 2xx and its body carries a JSON-RPC "result".
// Usage: tsx bench/support/load.ts '<json LoadSpec>'; prints one JSON LoadResult line.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

export interface LoadTemplate {
  headers: Record<string, string>;
  /** JSON-RPC body; the literal "__ID__" is replaced by a fresh numeric id per request. */
  body: string;
}

export interface LoadSpec {
  origin: string;
  path: string;
  templates: LoadTemplate[];
  connections: number;
  durationMs: number;
  warmupMs: number;
}

export interface LoadResult {
  ok: number;
  errors: number;
  /** First error seen, for the report (status and a short body excerpt). */
  firstError?: string;
  seconds: number;
  rps: number;
  p50ms: number;
  p99ms: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  let nextId = 1;
  let measuring = false;
  let stop = false;
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];

  async function user(index: number): Promise<void> {
    const template = spec.templates[index % spec.templates.length]!;
    while (!stop) {
      const body = template.body.replace('"__ID__"', String(nextId++));
      const started = performance.now();
      try {
        const res = await pool.request({ path: spec.path, method: 'POST', headers: template.headers, body });
        const text = await res.body.text();
        const elapsed = performance.now() - started;
        if (!measuring) continue;
        if (res.statusCode >= 200 && res.statusCode < 300 && text.includes('"result"')) {
          ok++;
          latencies.push(elapsed);
        } else {
          errors++;
          firstError ??= `HTTP ${res.statusCode}: ${text.slice(0, 200)}`;
        }
      } catch (error) {
        if (measuring) {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }
  }

  const users = Array.from({ length: spec.connections }, (_, i) => user(i));
  await new Promise((r) => setTimeout(r, spec.warmupMs));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, spec.durationMs));
  measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(users);
  await pool.close();
  const sorted = Float64Array.from(latencies).sort();
  return { ok, errors, firstError, seconds, rps: ok / seconds, p50ms: percentile(sorted, 50), p99ms: percentile(sorted, 99) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runLoad(JSON.parse(process.argv[2]!) as LoadSpec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
