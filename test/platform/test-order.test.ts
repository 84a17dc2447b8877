import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { interleaveWaiting, WAITING_FILES } from '../support/sequencer.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The suite's own order (test/support/sequencer.ts). Nothing fails when a file the sequencer names
 * is renamed or its time is missing: the run only gets slower. These checks make that a failure.
 */
describe('the order the test files run in', () => {
  it('names waiting files that exist and that the table of file times knows', () => {
    const times = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'file-times.json'), 'utf8')) as Record<
      string,
      number
    >;
    for (const file of WAITING_FILES) {
      expect([file, fs.existsSync(path.join(ROOT, file))]).toEqual([file, true]);
      expect([file, typeof times[file]]).toEqual([file, 'number']);
    }
  });

  it('puts each waiting file after one that works, never two waiting files in a row', () => {
    const sorted = ['a', 'w1', 'w2', 'b', 'c', 'w3', 'd'];
    const waiting = (x: string) => x.startsWith('w');
    const order = interleaveWaiting(sorted, waiting);
    expect(order).toEqual(['a', 'w1', 'b', 'w2', 'c', 'w3', 'd']);
    // More waiting files than others: the rest go last, in their order.
    expect(interleaveWaiting(['w1', 'w2', 'a', 'w3'], waiting)).toEqual(['a', 'w1', 'w2', 'w3']);
    expect(interleaveWaiting([], waiting)).toEqual([]);
  });
});
