import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each test file took (test/file-times.json, written by scripts/test-file-times.mjs). */
const FILE_TIMES = path.resolve(import.meta.dirname, '../file-times.json');

/**
 * The longest files first, from a table kept in the repository. Two workers take files from one
 * queue, so the run ends when the last file does: a 30 s file started last leaves the other worker
 * idle for most of it. vitest orders by the durations of the last run in this checkout
 * (node_modules/.vite) and, in a fresh clone that has none, by file size, which put the CLI suites
 * (small files, 10–30 s each) at the end. A file the table does not know yet runs first, as vitest
 * does with a file it has no duration for; a file that failed in this checkout's last run too.
 */
export class FileTimesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const times = JSON.parse(fs.readFileSync(FILE_TIMES, 'utf8')) as Record<string, number>;
    const root = this.ctx.config.root;
    const key = (spec: TestSpecification) => path.relative(root, spec.moduleId).split(path.sep).join('/');
    const failed = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${key(spec)}`)?.failed === true;
    const weight = (spec: TestSpecification) => (failed(spec) ? Infinity : (times[key(spec)] ?? Infinity));
    return [...files].sort((a, b) => weight(b) - weight(a) || key(a).localeCompare(key(b)));
  }
}
