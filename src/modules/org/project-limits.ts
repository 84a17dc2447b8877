import type { SqlExecutor } from '../../platform/db/database.js';
import type { OrgSettingsService } from './settings.service.js';

export type ContextObjectKind = 'skill' | 'knowledge' | 'business_key';

/**
 * The per-project entitlement limits (datastreams, context objects), counted where the objects
 * live. A new version of an existing object adds nothing; only a new name counts.
 */
export class ProjectLimits {
  constructor(
    private readonly db: SqlExecutor,
    private readonly settings: OrgSettingsService,
  ) {}

  async assertCanAddContextObject(projectId: string, kind: ContextObjectKind, name: string): Promise<void> {
    const [row] = await this.db.query<{ total: number; present: boolean }>(
      `SELECT
         (SELECT count(*) FROM skills WHERE project_id = $1 AND deleted_at IS NULL)
       + (SELECT count(*) FROM knowledge WHERE project_id = $1 AND deleted_at IS NULL)
       + (SELECT count(*) FROM business_keys WHERE project_id = $1) AS total,
         CASE $2
           WHEN 'skill' THEN EXISTS (SELECT 1 FROM skills WHERE project_id = $1 AND name = $3 AND deleted_at IS NULL)
           WHEN 'knowledge' THEN EXISTS (SELECT 1 FROM knowledge WHERE project_id = $1 AND topic_id = $3 AND deleted_at IS NULL)
           ELSE EXISTS (SELECT 1 FROM business_keys WHERE project_id = $1 AND key = $3)
         END AS present`,
      [projectId, kind, name],
    );
    if (!row!.present) await this.settings.assertWithinLimit('context_objects_per_project', Number(row!.total));
  }

  async assertCanAddDatastream(projectId: string, name: string): Promise<void> {
    const [row] = await this.db.query<{ total: number; present: boolean }>(
      `SELECT count(*) AS total, bool_or(name = $2) AS present FROM datastreams WHERE project_id = $1`,
      [projectId, name],
    );
    if (!row!.present) await this.settings.assertWithinLimit('datastreams_per_project', Number(row!.total));
  }
}
