import fs from 'node:fs';
import { type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';

/**
 * The turns of this process's event loop, as the work in them: a timer asks for a callback every
 * few milliseconds, and each gap between two callbacks is one stretch the loop could not turn. A gap
 * measured on the wall clock also holds what is not the code under test: the machine taking the
 * thread away (two cores shared by two test workers and their databases) and garbage-collection
 * pauses, which on the 2-core CI machine reach 240–390 ms for one scavenge under load. So each gap
 * is also measured as the main thread's own CPU time (Linux: /proc/self/task/<pid>/stat, where the
 * main thread's id is the pid), less the GC pauses that started in it (perf_hooks 'gc' entries):
 * what the code held the loop for.
 */

export interface LoopTurns {
  /** The longest gap in main-thread CPU time, GC pauses left out (wall time where /proc is absent). */
  longestWorkMs: number;
  /** The longest gap on the wall clock, everything included (for the record). */
  longestWallMs: number;
  /** GC pause time seen while watching. */
  gcMs: number;
  turns: number;
}

/** How often the timer asks for a turn. */
const TIMER_MS = 10;
const STAT = `/proc/self/task/${process.pid}/stat`;
const hasThreadStat = fs.existsSync(STAT);
/** USER_HZ is 100 on every Linux this runs on: a tick is 10 ms. */
const MS_PER_CLOCK_TICK = 10;

/** The main thread's CPU time so far (user + system), or null where /proc does not say. */
function mainThreadCpuMs(): number | null {
  if (!hasThreadStat) return null;
  const stat = fs.readFileSync(STAT, 'utf8');
  // Fields after the command name (which may hold spaces) start at the state, field 3: utime and
  // stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_CLOCK_TICK;
}

/** Starts watching; stop() answers the turns seen since (the same answer when called again). */
export function watchLoopTurns(): { stop: () => Promise<LoopTurns> } {
  const gaps: { from: number; to: number; cpuMs: number | null }[] = [];
  const gcs: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEntry[]) gcs.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  let lastWall = performance.now();
  let lastCpu = mainThreadCpuMs();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const wall = performance.now();
    const cpu = mainThreadCpuMs();
    gaps.push({ from: lastWall, to: wall, cpuMs: cpu === null || lastCpu === null ? null : cpu - lastCpu });
    lastWall = wall;
    lastCpu = cpu;
    timer = setTimeout(tick, TIMER_MS);
  };
  timer = setTimeout(tick, TIMER_MS);
  let stopped: Promise<LoopTurns> | undefined;
  const stop = async (): Promise<LoopTurns> => {
    clearTimeout(timer);
    // GC entries arrive on a later turn: one more lets the observer deliver the last of them.
    await new Promise((resolve) => setImmediate(resolve));
    observer.disconnect();
    let longestWorkMs = 0;
    let longestWallMs = 0;
    for (const gap of gaps) {
      const wallMs = gap.to - gap.from;
      let gcInGap = 0;
      for (const gc of gcs) if (gc.start >= gap.from && gc.start < gap.to) gcInGap += gc.duration;
      longestWallMs = Math.max(longestWallMs, wallMs);
      longestWorkMs = Math.max(longestWorkMs, Math.max(0, (gap.cpuMs ?? wallMs) - gcInGap));
    }
    return {
      longestWorkMs,
      longestWallMs,
      gcMs: gcs.reduce((sum, gc) => sum + gc.duration, 0),
      turns: gaps.length,
    };
  };
  return { stop: () => (stopped ??= stop()) };
}
