import type { ServerEvent } from '@modelcontextprotocol/server';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import * as repo from './projects.repo.js';

/** Above this many projects the directory stops caching and every read goes to the database. */
const MAX_CACHED_PROJECTS = 5_000;

export interface ProjectChangeSource {
  subscribe(listener: (event: ServerEvent) => void): () => void;
}

/**
 * Every tool call resolves its project (explicit id or "default"), so the project rows were read
 * once per call: on the embedded store that read was a third of a cheap tool call's CPU. Projects
 * change rarely and only through ProjectsService, so their rows are kept in memory.
 *
 * Freshness: a write on this replica drops the copy before the writer returns; a write on another
 * replica reaches this one through the change feed (LISTEN/NOTIFY, milliseconds); and no copy is
 * used longer than `maxAgeMs`, which bounds staleness should a notification ever be lost (the
 * feed's LISTEN connection is re-established after a database restart, but what was sent while
 * it was down is not replayed).
 */
export class ProjectDirectory {
  private snapshot: { rows: Promise<repo.ProjectRow[] | undefined>; loadedAt: number } | undefined;
  private generation = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** Where project changes made by other replicas are heard; without it only `maxAgeMs` bounds staleness. */
    changes?: ProjectChangeSource,
    private readonly maxAgeMs = 5_000,
  ) {
    this.unsubscribe = changes?.subscribe((event) => {
      if (
        event.kind === 'resources_list_changed' ||
        (event.kind === 'resource_updated' && event.uri.startsWith('project://'))
      )
        this.invalidate();
    });
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  invalidate(): void {
    this.generation++;
    this.snapshot = undefined;
  }

  /** Projects ordered by id, from the copy; undefined when there are too many to keep. */
  private async all(): Promise<repo.ProjectRow[] | undefined> {
    const now = this.clock.now().getTime();
    if (this.snapshot && now - this.snapshot.loadedAt <= this.maxAgeMs) return this.snapshot.rows;
    const generation = this.generation;
    const rows = repo
      .listProjects(this.db, { limit: MAX_CACHED_PROJECTS + 1 })
      .then((list) => (list.length > MAX_CACHED_PROJECTS ? undefined : list));
    const snapshot = { rows, loadedAt: now };
    this.snapshot = snapshot;
    // A change that landed while the rows were being read may be missing from them: do not keep them.
    rows.then(
      () => {
        if (generation !== this.generation && this.snapshot === snapshot) this.snapshot = undefined;
      },
      () => {
        if (this.snapshot === snapshot) this.snapshot = undefined;
      },
    );
    return rows;
  }

  async find(id: string): Promise<repo.ProjectRow | undefined> {
    const rows = await this.all();
    if (!rows) return repo.findProject(this.db, id);
    // A project another replica created a moment ago may not have reached the copy yet.
    return rows.find((row) => row.id === id) ?? repo.findProject(this.db, id);
  }

  /** The same page repo.listProjects gives: ordered by id, after `after`, restricted to `ids`. */
  async list(options: { after?: string; limit: number; ids?: string[] }): Promise<repo.ProjectRow[]> {
    const rows = await this.all();
    if (!rows) return repo.listProjects(this.db, options);
    const allowed = options.ids ? new Set(options.ids) : undefined;
    const page: repo.ProjectRow[] = [];
    for (const row of rows) {
      if (options.after !== undefined && row.id <= options.after) continue;
      if (allowed && !allowed.has(row.id)) continue;
      page.push(row);
      if (page.length >= options.limit) break;
    }
    return page;
  }
}
