import type { RequestContext } from '../../platform/context/request-context.js';
import type { Database } from '../../platform/db/database.js';
import { ConflictError } from '../../platform/errors.js';
import type { AuditRecorder } from '../../platform/audit.js';

/** How PostgreSQL deployments back up: told by the route and by the CLI. */
export const PG_DUMP_HINT =
  'Back up with pg_dump --format=custom --file=context-hub.dump "$DATABASE_URL"; restore into an empty ' +
  'database with pg_restore --no-owner --dbname="$DATABASE_URL" context-hub.dump.';

/**
 * Backups of the embedded store. PGlite belongs to the one process that serves it (DATA_DIR's
 * lock), so a backup of a running store is taken by that process and handed out over REST.
 */
export class BackupService {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditRecorder,
  ) {}

  /** A gzip tarball of the embedded store, consistent as of one moment between two statements. */
  async snapshot(ctx: RequestContext): Promise<Uint8Array> {
    if (!this.db.snapshot) {
      throw new ConflictError(
        'backup_not_embedded',
        'This service runs on PostgreSQL, which it does not back up itself.',
        {
          hint: PG_DUMP_HINT,
        },
      );
    }
    const tarball = await this.db.snapshot();
    await this.audit.record(ctx, { action: 'store.backup', target: 'store', details: { bytes: tarball.byteLength } });
    return tarball;
  }
}
