import type { RequestContext } from '../../platform/context/request-context.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { DemoSeeder } from './demo.service.js';
import type { KnowledgeService } from '../knowledge/index.js';
import type { SkillsService } from '../skills/index.js';
import type { TaxonomyService } from '../taxonomy/index.js';
import { DEMO_KEYS, DEMO_KNOWLEDGE, DEMO_SKILL_LINKS } from './demo.knowledge.js';
import { DEMO_SKILLS } from './demo.skills.js';

async function exists(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

async function ignoreConflict(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
}

/** Fills the demo project's hub; idempotent (what exists is left as it is, so no new versions). */
export function contextHubDemoSeeder(deps: {
  skills: SkillsService;
  knowledge: KnowledgeService;
  taxonomy: TaxonomyService;
}): DemoSeeder {
  return async (ctx: RequestContext, projectId: string) => {
    for (const k of DEMO_KEYS) {
      await ignoreConflict(() =>
        deps.taxonomy.createKey(ctx, {
          project_id: projectId,
          key: k.key,
          label: k.label,
          description: k.description,
          parent: k.parent,
          synonyms: k.synonyms,
        }),
      );
    }
    for (const s of DEMO_SKILLS) {
      if (!(await exists(() => deps.skills.get(ctx, projectId, s.name))))
        await deps.skills.add(ctx, { project_id: projectId, ...s });
    }
    for (const k of DEMO_KNOWLEDGE) {
      if (!(await exists(() => deps.knowledge.get(ctx, projectId, k.topic_id)))) {
        await deps.knowledge.add(ctx, {
          project_id: projectId,
          topic_id: k.topic_id,
          title: k.title,
          owner: k.owner,
          body_md: k.body_md,
        });
      }
      for (const key of k.explains) {
        await ignoreConflict(() =>
          deps.taxonomy.createLink(ctx, {
            project_id: projectId,
            relation_type: 'explains',
            source_type: 'knowledge',
            source_id: k.topic_id,
            business_key: key,
          }),
        );
      }
    }
    for (const l of DEMO_SKILL_LINKS) {
      await ignoreConflict(() =>
        deps.taxonomy.createLink(ctx, {
          project_id: projectId,
          relation_type: l.relation,
          source_type: 'skill',
          source_id: l.skill,
          business_key: l.key,
        }),
      );
    }
  };
}
