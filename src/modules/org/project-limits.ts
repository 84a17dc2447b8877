import type { SqlExecutor } from '../../platform/db/database.js';
import * as repo from './org.repo.js';
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
    const row = await repo.countContextObjects(this.db, projectId, kind, name);
    if (!row.present) await this.settings.assertWithinLimit('context_objects_per_project', row.total);
  }

  /** Room for `adding` new context objects at once (an import). */
  async assertCanAddContextObjects(projectId: string, adding: number): Promise<void> {
    if (adding === 0) return;
    // No object is named "": this counts the total only.
    const row = await repo.countContextObjects(this.db, projectId, 'skill', '');
    await this.settings.assertWithinLimit('context_objects_per_project', row.total, adding);
  }

  async assertCanAddDatastream(projectId: string, name: string): Promise<void> {
    const row = await repo.countDatastreams(this.db, projectId, name);
    if (!row.present) await this.settings.assertWithinLimit('datastreams_per_project', row.total);
  }
}
