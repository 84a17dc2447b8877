import { describe, expect, it } from 'vitest';
import {
  OPEN_CATEGORIES,
  nabDir,
  publishedDetectors,
  publishedFinalScore,
  rescorePublished,
} from '../../bench/detection/nab-corpus.js';
import {
  STANDARD_PROFILE,
  probationaryLength,
  scaledSigmoid,
  scoreCorpus,
  scoreFile,
} from '../../bench/detection/nab-scorer.js';

const rows = 100; // probation: floor(15) rows
const timestamps = Array.from({ length: rows }, (_, i) => i);
const fire = (...at: number[]) => timestamps.map((i) => at.includes(i));
const window = [[50, 59]] as const;
const maxTP = 2 / (1 + Math.exp(-5)) - 1;

describe('NAB scorer (standard profile)', () => {
  it('has NAB’s sigmoid and probationary period', () => {
    expect(scaledSigmoid(-1)).toBeCloseTo(0.98661, 5);
    expect(scaledSigmoid(0)).toBe(0);
    expect(scaledSigmoid(1)).toBeCloseTo(-0.98661, 5);
    expect(scaledSigmoid(3.5)).toBe(-1);
    expect(probationaryLength(100)).toBe(15);
    expect(probationaryLength(22_695)).toBe(750);
  });

  it('gives a detection at the left edge of a window the whole A_TP, and the never-firing detector 0', () => {
    const perfect = scoreFile(timestamps, fire(50), window);
    expect(perfect.score).toBeCloseTo(1, 12);
    expect(perfect.nullScore).toBe(-1);
    expect(scoreCorpus([perfect]).normalized).toBeCloseTo(100, 10);
    expect(scoreCorpus([scoreFile(timestamps, fire(), window)]).normalized).toBe(0);
  });

  it('counts only the best detection of a window, less the later it comes', () => {
    const late = scoreFile(timestamps, fire(59), window);
    expect(late.score).toBeCloseTo((2 / (1 + Math.exp(-0.5)) - 1) / maxTP, 12);
    const both = scoreFile(timestamps, fire(52, 59), window);
    expect(both.score).toBeCloseTo(scaledSigmoid(-0.8) / maxTP, 12);
    expect(both.detectedWindows).toBe(1);
    expect(both.detectionsInWindows).toBe(2);
  });

  it('charges A_FP for a false positive, less just after a window, nothing in the probationary period', () => {
    const early = scoreFile(timestamps, fire(5, 20), window);
    expect(early.score).toBeCloseTo(-1 - 0.11, 12);
    expect(early.detectionsOutside).toBe(1);
    const after = scoreFile(timestamps, fire(70), window);
    expect(after.score).toBeCloseTo(-1 + scaledSigmoid(11 / 9) * 0.11, 12);
    const right = scoreFile(timestamps, fire(60), window);
    expect(right.score).toBeCloseTo(-1 + scaledSigmoid(1 / 9) * 0.11, 12);
    expect(right.score).toBeGreaterThan(after.score);
  });

  it('does not count a window that lies wholly in the probationary period', () => {
    const probationary = scoreFile(timestamps, fire(), [[2, 8], ...window]);
    expect(probationary.nullScore).toBe(-1);
    expect(probationary.windows).toBe(2);
    expect(probationary.scoredWindows).toBe(1);
  });

  it('computes a window F1 over scorable detections', () => {
    const s = scoreCorpus([scoreFile(timestamps, fire(20, 30, 55), window)], STANDARD_PROFILE);
    expect(s.recall).toBe(1);
    expect(s.precision).toBeCloseTo(1 / 3, 12);
    expect(s.f1).toBeCloseTo(0.5, 12);
  });

  it('refuses a window whose edges are not timestamps of the file', () => {
    expect(() => scoreFile(timestamps, fire(), [[50, 500]])).toThrow(/does not match/);
  });
});

const dir = nabDir();
describe.skipIf(!dir)(`NAB reproduction${dir ? '' : ' (skipped: NAB_DIR is not set to a checkout of NAB)'}`, () => {
  // Every published detector of NAB's results/ folder, rescored from its per-file anomaly scores
  // with its threshold from config/thresholds.json, lands on NAB's results/final_results.json.
  it('reproduces NAB’s published final standard scores of its own detectors over the full corpus', () => {
    const nab = dir as string;
    const detectors = publishedDetectors(nab).filter((d) => {
      try {
        publishedFinalScore(nab, d);
        return true;
      } catch {
        return false;
      }
    });
    expect(detectors).toEqual(expect.arrayContaining(['null', 'random', 'numenta', 'windowedGaussian']));
    for (const d of detectors) {
      const { corpus } = rescorePublished(nab, d);
      expect({ d, score: corpus.normalized }).toEqual({ d, score: expect.closeTo(publishedFinalScore(nab, d), 8) });
    }
  });

  it('normalizes a category subset to its own null and perfect scores', () => {
    const { corpus } = rescorePublished(dir as string, 'null', OPEN_CATEGORIES);
    expect(corpus.normalized).toBe(0);
    expect(corpus.windows).toBeGreaterThan(0);
  });
});
