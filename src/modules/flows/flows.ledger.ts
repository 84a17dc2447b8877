import type { Database } from '../../platform/db/database.js';
import * as repo from './flows.repo.js';

export type NewRun = Parameters<typeof repo.insertRun>[1];

/** The reads and the run ledger the runner (ingestion) needs of flows, with no grant checks. */
export interface FlowRuns {
  datastreamRow(id: string): Promise<repo.DatastreamRow | undefined>;
  getRun(id: string): Promise<repo.RunRow | undefined>;
  recordRun(row: NewRun): Promise<repo.RunRow>;
}

/**
 * Datastream rows and runs as jobs read and record them. Apart from FlowsService so that the runner
 * can be built on it first and then handed to FlowsService, which starts runs through the runner.
 */
export class FlowRunLedger implements FlowRuns {
  constructor(private readonly db: Database) {}

  async getRun(id: string): Promise<repo.RunRow | undefined> {
    return repo.findRun(this.db, id);
  }

  /** A datastream's row by id, with no grant check (jobs: ingestion, the scheduler, the pipeline). */
  async datastreamRow(id: string): Promise<repo.DatastreamRow | undefined> {
    return repo.findDatastream(this.db, id);
  }

  /** Records a queued run. */
  async recordRun(row: NewRun): Promise<repo.RunRow> {
    return repo.insertRun(this.db, row);
  }
}
