/**
 * A monitor's verdict, apart from the monitors: the repo stores it, and the monitors read through
 * the repo, so defined beside them it made the two files import each other.
 */

export type DqStatus = 'pass' | 'warn' | 'fail' | 'error';

export interface CheckResult {
  monitor: string;
  dataset: string;
  status: DqStatus;
  observed: number | null;
  threshold: number | null;
  message: string;
}
