// Closed-loop HTTP load generator for the benchmarks, run in a process of its own so that it does
// not share an event loop with the server under test. N virtual users each keep one request in
// flight over N keep-alive connections; user i sends template i % templates.
// A response counts as ok when its status is 2xx and its body carries a JSON-RPC "result".
// Two clients: `undici` (a Pool, the default) and `socket` (bench/support/http1-socket.ts, a bare
// keep-alive socket whose client CPU per answer hardly depends on its size, where undici's grows
// with it; BENCHMARKS.md, mcp notes). The result reports the client's own CPU per call over the
// measured window, so a row the load generator limits shows as one.
// Usage: tsx bench/support/load.ts '<json LoadSpec>'; prints one JSON LoadResult line.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { Http1Socket } from './http1-socket.js';

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
  /** Which HTTP client sends the load; undici unless named. */
  client?: 'undici' | 'socket';
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
  /** The load generator's own CPU (user + system) per counted call over the measured window, µs. */
  clientCpuUsPerCall: number;
}

/** One request/response exchange: status and body text (or bytes), whichever client sends it. */
type Exchange = (body: string) => Promise<{ status: number; ok: boolean; excerpt: () => string }>;

function undiciExchange(pool: Pool, path: string, template: LoadTemplate): Exchange {
  return async (body) => {
    const res = await pool.request({ path, method: 'POST', headers: template.headers, body });
    const text = await res.body.text();
    return { status: res.statusCode, ok: text.includes('"result"'), excerpt: () => text.slice(0, 200) };
  };
}

function socketExchange(origin: URL, path: string, template: LoadTemplate, closers: (() => void)[]): Exchange {
  let head = `POST ${path} HTTP/1.1\r\nhost: ${origin.host}\r\n`;
  for (const [name, value] of Object.entries(template.headers)) head += `${name}: ${value}\r\n`;
  let connection: Http1Socket | undefined;
  return async (body) => {
    if (!connection || connection.isClosed) {
      const opened = new Http1Socket(origin.hostname, Number(origin.port));
      closers.push(() => opened.close());
      connection = opened;
    }
    const bytes = Buffer.from(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const res = await connection.request(bytes);
    return { status: res.status, ok: res.hasResult, excerpt: () => res.excerpt };
  };
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const origin = new URL(spec.origin);
  const sockets: (() => void)[] = [];
  const pool =
    spec.client === 'socket'
      ? undefined
      : new Pool(spec.origin, { connections: spec.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  let nextId = 1;
  let measuring = false;
  let stop = false;
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];

  async function user(index: number): Promise<void> {
    const template = spec.templates[index % spec.templates.length]!;
    const exchange = pool
      ? undiciExchange(pool, spec.path, template)
      : socketExchange(origin, spec.path, template, sockets);
    while (!stop) {
      const body = template.body.replace('"__ID__"', String(nextId++));
      const started = performance.now();
      try {
        const res = await exchange(body);
        const elapsed = performance.now() - started;
        if (!measuring) continue;
        if (res.status >= 200 && res.status < 300 && res.ok) {
          ok++;
          latencies.push(elapsed);
        } else {
          errors++;
          firstError ??= `HTTP ${res.status}: ${res.excerpt()}`;
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
  const cpu0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, spec.durationMs));
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(users);
  await pool?.close();
  sockets.forEach((close) => close());
  const sorted = Float64Array.from(latencies).sort();
  const clientCpuUsPerCall = (cpu.user + cpu.system) / ok;
  return {
    ok,
    errors,
    firstError,
    seconds,
    rps: ok / seconds,
    p50ms: percentile(sorted, 50),
    p99ms: percentile(sorted, 99),
    clientCpuUsPerCall,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runLoad(JSON.parse(process.argv[2]!) as LoadSpec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
