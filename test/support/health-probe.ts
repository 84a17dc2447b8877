import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type LoopTurns, watchLoopTurns } from './loop-turns.js';

export interface Probed<T> {
  result: T;
  /** /healthz answers (200) received while `work` ran. */
  probes: number;
  /** The longest turn of this process's event loop while `work` ran (the service runs in it). */
  maxDelayMs: number;
  p99DelayMs: number;
  durationMs: number;
  /** The same turns as the code's own work: main-thread CPU time, GC pauses left out (loop-turns.ts). */
  turns: LoopTurns;
}

/** The pause between two /healthz probes (up to ~200 a second while the loop turns freely). */
const PROBE_GAP_MS = 5;

/**
 * Runs `work` against a service started in this process (startService) while asking its /healthz
 * every few milliseconds over loopback and measuring the event loop's delay (perf_hooks): whether the
 * service kept answering while it worked, without a clock in any assertion.
 */
export async function whileProbing<T>(serviceUrl: string, work: () => Promise<T>): Promise<Probed<T>> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let done = false;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const res = await fetch(`${serviceUrl}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) probes += 1;
      // A few ms between probes: back to back, the probes took most of the loop's turns (the
      // service and this client share the thread), which made the import itself many times longer.
      await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
    }
  })();
  delay.enable();
  const turns = watchLoopTurns();
  const started = performance.now();
  try {
    const result = await work();
    const durationMs = performance.now() - started;
    return {
      result,
      probes,
      maxDelayMs: delay.max / 1e6,
      p99DelayMs: delay.percentile(99) / 1e6,
      durationMs,
      turns: await turns.stop(),
    };
  } finally {
    await turns.stop();
    delay.disable();
    done = true;
    await probing;
  }
}
