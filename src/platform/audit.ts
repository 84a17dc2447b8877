import type { RequestContext } from './context/request-context.js';
import type { SqlExecutor } from './db/database.js';

/**
 * The port every write records itself through. It sits in the platform, below the modules, because
 * projects, hub files, proposals, triage, backups and alerts all record writes while the
 * organization module, which keeps the log, itself builds on projects.
 */
export interface AuditEntry {
  /** Dotted verb, e.g. `project.create`, `member.update`, `skill.add`. */
  action: string;
  /** What was changed, e.g. a project id, `member:<subject>`, `skill:<project>/<name>`. */
  target: string;
  /** The project the change belongs to, when it belongs to one (filters the log by project). */
  projectId?: string;
  /** Safe, small facts about the change (never secrets or whole bodies). */
  details?: Record<string, unknown>;
}

/** One call per write, inside the write's transaction when given. */
export interface AuditRecorder {
  record(ctx: RequestContext, entry: AuditEntry, tx?: SqlExecutor): Promise<void>;
}
