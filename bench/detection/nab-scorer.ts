// The Numenta Anomaly Benchmark's scorer, re-implemented from NAB's nab/sweeper.py and
// nab/runner.py (github:numenta/NAB, MIT) so this repository's detectors are scored exactly as
// NAB scores its published ones. Nothing of NAB is copied here: the checkout is read at run time
// (bench/detection/nab-corpus.ts) and test/bench/detection-nab-scorer.test.ts proves the
// reproduction against NAB's own results/final_results.json.
//
// The rules, in NAB's terms:
// - the first min(floor(15% × rows), 15% × 5000) rows of a file are probationary: not scored;
// - a detection inside a labelled window earns A_TP × scaledSigmoid(position) / scaledSigmoid(-1),
//   where position runs from -1 (left edge) to 0 (right edge); only the best detection of a window
//   counts, and a window with no detection costs A_FN;
// - a detection outside every window costs A_FP × scaledSigmoid(distance past the previous window,
//   in window widths) (so a late detection just after a window is cheap), or A_FP × 1 before any;
// - a corpus score is normalized so that the detector that never fires scores 0 and a perfect one
//   (every window at its left edge, nothing else) scores 100.

export interface CostMatrix {
  tpWeight: number;
  fpWeight: number;
  fnWeight: number;
}

/** NAB's "standard" application profile (config/profiles.json). */
export const STANDARD_PROFILE: CostMatrix = { tpWeight: 1, fpWeight: 0.11, fnWeight: 1 };
export const PROBATION_PERCENT = 0.15;

/** A labelled window: the first and last timestamp inside it (both must be timestamps of the file). */
export type LabelWindow = readonly [start: string | number, end: string | number];

export interface ScoredFile {
  /** Raw NAB score of the file (sum of the best TP per window, FN costs and FP costs). */
  score: number;
  /** Score of the detector that never fires on this file (−A_FN per window that is scored). */
  nullScore: number;
  /** Windows of the file (all of them: NAB's "perfect" counts every labelled window). */
  windows: number;
  /** Windows with a scorable row, and how many of them hold at least one detection. */
  scoredWindows: number;
  detectedWindows: number;
  /** Scorable detections inside / outside every window (for precision). */
  detectionsInWindows: number;
  detectionsOutside: number;
  /** Scorable rows (after the probationary period). */
  rows: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** NAB's scaledSigmoid: 0.987 at the left edge (−1), 0 at the right edge, → −1 far after it. */
export function scaledSigmoid(relativePosition: number): number {
  if (relativePosition > 3.0) return -1.0;
  return 2 * sigmoid(-5 * relativePosition) - 1.0;
}

export function probationaryLength(rows: number, percent = PROBATION_PERCENT): number {
  return Math.min(Math.floor(percent * rows), percent * 5000);
}

/**
 * Scores one file. `detections[i]` says whether the detector fired at `timestamps[i]`; for a
 * detector with anomaly scores NAB's detection is `anomalyScore >= threshold` (see
 * `detectionsFromScores`).
 */
export function scoreFile(
  timestamps: readonly (string | number)[],
  detections: readonly boolean[],
  windows: readonly LabelWindow[],
  profile: CostMatrix = STANDARD_PROFILE,
  probationPercent = PROBATION_PERCENT,
): ScoredFile {
  if (timestamps.length !== detections.length) {
    throw new Error('timestamps and detections differ in length');
  }
  const index = new Map<string | number, number>();
  timestamps.forEach((t, i) => {
    index.set(t, i);
  });
  const limits = windows.map(([start, end]) => {
    const left = index.get(start);
    const right = index.get(end);
    // NAB refuses label files whose window edges are not timestamps of the data, and so do we.
    if (left === undefined || right === undefined) {
      throw new Error(`window ${start} … ${end} does not match timestamps of the file`);
    }
    return { left, right };
  });
  const maxTP = scaledSigmoid(-1.0);
  const probation = probationaryLength(timestamps.length, probationPercent);

  // Per window: best weighted score so far, starting at the cost of missing it.
  const best = new Map<number, number>();
  const hit = new Set<number>();
  let fp = 0;
  let inWindows = 0;
  let outside = 0;
  let scoredWindows = 0;
  let w = 0;
  let current: { left: number; right: number; width: number; id: number } | undefined;
  let previous: { right: number; width: number } | undefined;

  for (let i = 0; i < timestamps.length; i++) {
    if (!current && w < limits.length && i === limits[w].left) {
      const { left, right } = limits[w];
      current = { left, right, width: right - left + 1, id: w };
      w++;
    }
    const scorable = i >= probation;
    if (current) {
      if (scorable && !best.has(current.id)) {
        best.set(current.id, -profile.fnWeight);
        scoredWindows++;
      }
      if (scorable && detections[i]) {
        const position = -(current.right - i + 1) / current.width;
        const weighted = (scaledSigmoid(position) * profile.tpWeight) / maxTP;
        best.set(current.id, Math.max(best.get(current.id) ?? -profile.fnWeight, weighted));
        hit.add(current.id);
        inWindows++;
      }
    } else if (scorable && detections[i]) {
      const unweighted = previous ? scaledSigmoid(Math.abs(previous.right - i) / (previous.width - 1)) : -1.0;
      fp += unweighted * profile.fpWeight;
      outside++;
    }
    if (current && i === current.right) {
      previous = { right: i, width: current.width };
      current = undefined;
    }
  }

  let score = fp;
  for (const v of best.values()) score += v;
  return {
    score,
    nullScore: -profile.fnWeight * scoredWindows,
    windows: windows.length,
    scoredWindows,
    detectedWindows: hit.size,
    detectionsInWindows: inWindows,
    detectionsOutside: outside,
    rows: Math.max(0, timestamps.length - Math.ceil(probation)),
  };
}

/** NAB's conversion of anomaly scores to detections: a row fires when its score ≥ the threshold. */
export function detectionsFromScores(scores: readonly number[], threshold: number): boolean[] {
  return scores.map((s) => s >= threshold);
}

export interface CorpusScore {
  /** Raw sums over the files. */
  score: number;
  nullScore: number;
  /** Every labelled window × A_TP: NAB's "perfect" score. */
  perfect: number;
  /** NAB's normalized score: 100 × (score − null) / (perfect − null). */
  normalized: number;
  windows: number;
  detectedWindows: number;
  detectionsInWindows: number;
  detectionsOutside: number;
  rows: number;
  /** Window F1: recall = windows with a detection / scored windows; precision = detections in a window / detections. */
  recall: number;
  precision: number;
  f1: number;
  /** Detections per 1,000 scorable rows. */
  firesPer1000: number;
}

/** Sums file scores and normalizes them the way NAB's runner.normalize() does. */
export function scoreCorpus(files: readonly ScoredFile[], profile: CostMatrix = STANDARD_PROFILE): CorpusScore {
  const sum = (f: (s: ScoredFile) => number) => files.reduce((a, s) => a + f(s), 0);
  const score = sum((s) => s.score);
  const nullScore = sum((s) => s.nullScore);
  const windows = sum((s) => s.windows);
  const perfect = windows * profile.tpWeight;
  const scoredWindows = sum((s) => s.scoredWindows);
  const detectedWindows = sum((s) => s.detectedWindows);
  const detectionsInWindows = sum((s) => s.detectionsInWindows);
  const detectionsOutside = sum((s) => s.detectionsOutside);
  const rows = sum((s) => s.rows);
  const detections = detectionsInWindows + detectionsOutside;
  const recall = scoredWindows ? detectedWindows / scoredWindows : 0;
  const precision = detections ? detectionsInWindows / detections : 0;
  return {
    score,
    nullScore,
    perfect,
    normalized: perfect === nullScore ? 0 : (100 * (score - nullScore)) / (perfect - nullScore),
    windows,
    detectedWindows,
    detectionsInWindows,
    detectionsOutside,
    rows,
    recall,
    precision,
    f1: recall + precision ? (2 * recall * precision) / (recall + precision) : 0,
    firesPer1000: rows ? (1000 * detections) / rows : 0,
  };
}
