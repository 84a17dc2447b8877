// Reads a checkout of the public NAB repository (github:numenta/NAB, MIT) where NAB_DIR points:
// data files, labelled windows, the published detectors' per-file results, their thresholds and
// their final scores. Nothing is copied into this repository; every figure is read at run time.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  type CorpusScore,
  type LabelWindow,
  STANDARD_PROFILE,
  type ScoredFile,
  detectionsFromScores,
  scoreCorpus,
  scoreFile,
} from './nab-scorer.js';

/** The two categories this repository may tune on; NAB's others are held out for acceptance. */
export const OPEN_CATEGORIES = ['realAWSCloudwatch', 'artificialWithAnomaly'] as const;

export interface NabFile {
  /** e.g. "realAWSCloudwatch/ec2_cpu_utilization_24ae8d.csv" */
  relativePath: string;
  category: string;
  timestamps: string[];
  values: number[];
  windows: LabelWindow[];
}

/** "2014-02-19 00:22:00.000000" and "2014-02-19 00:22:00" name the same row. */
const stamp = (s: string) => s.trim().slice(0, 19);

function readCsv(file: string): { header: string[]; rows: string[][] } {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).filter(Boolean);
  return { header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

export function nabDir(): string | undefined {
  const dir = process.env.NAB_DIR;
  return dir && existsSync(path.join(dir, 'labels', 'combined_windows.json')) ? dir : undefined;
}

export function readWindows(dir: string): Map<string, LabelWindow[]> {
  const raw = JSON.parse(readFileSync(path.join(dir, 'labels', 'combined_windows.json'), 'utf8')) as Record<
    string,
    [string, string][]
  >;
  return new Map(Object.entries(raw).map(([k, ws]) => [k, ws.map(([a, b]) => [stamp(a), stamp(b)] as const)]));
}

/** The labelled data files of the given categories (all of them when none are given). */
export function readNabFiles(dir: string, categories?: readonly string[]): NabFile[] {
  const windows = readWindows(dir);
  const files: NabFile[] = [];
  for (const [relativePath, ws] of [...windows.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const category = relativePath.split('/')[0];
    if (categories && !categories.includes(category)) continue;
    const { header, rows } = readCsv(path.join(dir, 'data', relativePath));
    const t = header.indexOf('timestamp');
    const v = header.indexOf('value');
    files.push({
      relativePath,
      category,
      timestamps: rows.map((r) => stamp(r[t])),
      values: rows.map((r) => Number(r[v])),
      windows: ws,
    });
  }
  return files;
}

/** The standard-profile threshold NAB optimized for a published detector (config/thresholds.json). */
export function publishedThreshold(dir: string, detector: string): number {
  const t = JSON.parse(readFileSync(path.join(dir, 'config', 'thresholds.json'), 'utf8')) as Record<
    string,
    { standard: { threshold: number } }
  >;
  if (!t[detector]) throw new Error(`NAB has no threshold for detector ${detector}`);
  return t[detector].standard.threshold;
}

/** NAB's published final standard score of a detector (results/final_results.json). */
export function publishedFinalScore(dir: string, detector: string): number {
  const r = JSON.parse(readFileSync(path.join(dir, 'results', 'final_results.json'), 'utf8')) as Record<
    string,
    { standard: number }
  >;
  if (!r[detector]) throw new Error(`NAB has no final score for detector ${detector}`);
  return r[detector].standard;
}

export function publishedDetectors(dir: string): string[] {
  return readdirSync(path.join(dir, 'results'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/**
 * Rescores one of NAB's published detectors from its per-file results (anomaly_score column),
 * with NAB's threshold, over the files of `categories` (all when none are given): per file and
 * summed. The normalization is over the same files, so a category subset is normalized to its
 * own null and perfect scores.
 */
export function rescorePublished(
  dir: string,
  detector: string,
  categories?: readonly string[],
): { files: Map<string, ScoredFile>; corpus: CorpusScore } {
  const threshold = publishedThreshold(dir, detector);
  const windows = readWindows(dir);
  const files = new Map<string, ScoredFile>();
  for (const [relativePath, ws] of [...windows.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const [category, name] = relativePath.split('/');
    if (categories && !categories.includes(category)) continue;
    const { header, rows } = readCsv(path.join(dir, 'results', detector, category, `${detector}_${name}`));
    const t = header.indexOf('timestamp');
    const s = header.indexOf('anomaly_score');
    const scores = rows.map((r) => Number(r[s]));
    files.set(
      relativePath,
      scoreFile(
        rows.map((r) => stamp(r[t])),
        detectionsFromScores(scores, threshold),
        ws,
        STANDARD_PROFILE,
      ),
    );
  }
  return { files, corpus: scoreCorpus([...files.values()]) };
}
