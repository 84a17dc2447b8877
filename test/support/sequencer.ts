import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each test file took (test/file-times.json, written by scripts/test-file-times.mjs). */
const FILE_TIMES = path.resolve(import.meta.dirname, '../file-times.json');

/**
 * Files that spend most of their time waiting on a timer of the service, not on the CPU: a stale
 * heartbeat (worker-failover, 20 s), a message lease (alerts/workers), retries with backoff and an
 * attempt timeout (alerts/delivery). Next to each other in the queue, the two workers took two of
 * them at once and the machine sat half idle: worker-failover and alerts/workers overlapped for
 * ~25 s of each run with PostgreSQL (BENCHMARKS.md, tests, ninth round). Each is placed next to a
 * long file that works the CPU instead, so that one worker waits while the other works.
 */
export const WAITING_FILES = [
  'test/evaluators/worker-failover.test.ts',
  'test/alerts/workers.test.ts',
  'test/alerts/delivery.test.ts',
];

/**
 * The longest files first, from a table kept in the repository. Two workers take files from one
 * queue, so the run ends when the last file does: a 30 s file started last leaves the other worker
 * idle for most of it. vitest orders by the durations of the last run in this checkout
 * (node_modules/.vite) and, in a fresh clone that has none, by file size, which put the CLI suites
 * (small files, 10–30 s each) at the end. A file the table does not know yet runs first, as vitest
 * does with a file it has no duration for; a file that failed in this checkout's last run too.
 * The waiting files (above) go one after each of the longest files, never two in a row.
 */
export class FileTimesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const times = JSON.parse(fs.readFileSync(FILE_TIMES, 'utf8')) as Record<string, number>;
    const root = this.ctx.config.root;
    const key = (spec: TestSpecification) => path.relative(root, spec.moduleId).split(path.sep).join('/');
    const failed = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${key(spec)}`)?.failed === true;
    const weight = (spec: TestSpecification) => (failed(spec) ? Infinity : (times[key(spec)] ?? Infinity));
    const sorted = [...files].sort((a, b) => weight(b) - weight(a) || key(a).localeCompare(key(b)));
    return interleaveWaiting(sorted, (spec) => WAITING_FILES.includes(key(spec)) && weight(spec) !== Infinity);
  }
}

/** `sorted` with each waiting file moved to just after the next of the other files, in order. */
export function interleaveWaiting<T>(sorted: T[], waiting: (item: T) => boolean): T[] {
  const waits = sorted.filter(waiting);
  const others = sorted.filter((item) => !waiting(item));
  const out: T[] = [];
  for (const item of others) {
    out.push(item);
    const next = waits.shift();
    if (next !== undefined) out.push(next);
  }
  return [...out, ...waits];
}
