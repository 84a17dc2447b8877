import { z } from 'zod';
import { ADDITIVE_WRITE, defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { pendingWriteAnswer, provenanceOf } from '../documents/index.js';
import { procedureSummary } from './skills.presenter.js';
import { AddSkillAck, AddSkillInput, GetProcedureInput, GetSkillsInput, StepOutput } from './skills.schemas.js';
import type { SkillsService } from './skills.service.js';

export function skillTools(skills: SkillsService) {
  return [
    defineTool({
      name: 'get_procedure',
      title: 'Get a procedure (Skill)',
      description:
        'Opens a Skill by name (from a search_context hit): the numbered steps to follow, acceptance criteria and business keys.',
      input: GetProcedureInput,
      view: 'procedure',
      permission: 'context.read',
      annotations: READ_ONLY,
      dataShape: {
        name: z.string(),
        version: z.number(),
        current_version: z.number(),
        description: z.string(),
        steps: z.array(StepOutput),
        acceptance: z.array(z.string()),
        mdm_references: z.array(z.string()),
        unresolved_references: z.array(z.string()),
        body_md: z.string(),
        metadata: z.record(z.string(), z.unknown()),
      },
      run: async (ctx, input) => {
        const { resolved, skill } = await skills.get(ctx, input.project_id, input.name, input.version);
        return {
          kind: 'enveloped',
          summary: procedureSummary(skill),
          projectId: resolved.project.id,
          provenance: provenanceOf(resolved, {
            object: `skill:${skill.name}`,
            version: skill.version,
            updated_at: skill.created_at,
            author: skill.author,
          }),
          data: {
            name: skill.name,
            version: skill.version,
            current_version: skill.current_version,
            description: skill.description,
            steps: skill.steps,
            acceptance: skill.acceptance,
            mdm_references: skill.mdm_references,
            unresolved_references: skill.unresolved_references,
            body_md: skill.body_md,
            metadata: skill.metadata,
          },
        };
      },
    }),
    defineTool({
      name: 'add_skill',
      title: 'Add or revise a Skill',
      description:
        'Saves a procedure as a new version: steps as an ordered list under "Steps", checks under "Acceptance", business keys as [[kpi.roas]]. An answer with status pending_review waits for a reviewer: follow it with get_proposal.',
      input: AddSkillInput,
      view: 'procedure',
      permission: 'context.write',
      annotations: ADDITIVE_WRITE,
      dataShape: AddSkillAck.shape,
      run: async (ctx, input) => {
        const { resolved, skill, pending } = await skills.add(ctx, input);
        if (pending) return pendingWriteAnswer(resolved, pending, { name: pending.key });
        const unresolved =
          skill.unresolved_references.length > 0
            ? ` Unresolved business keys (kept): ${skill.unresolved_references.join(', ')}.`
            : '';
        const next = `Open it with get_procedure {"name": "${skill.name}"}.`;
        return {
          kind: 'enveloped',
          summary: [
            `Saved skill ${skill.name} as version ${skill.version} with ${skill.steps.length} steps and ${skill.acceptance.length} acceptance items.${unresolved}`,
            next,
          ],
          projectId: resolved.project.id,
          provenance: provenanceOf(resolved),
          data: {
            status: 'published',
            id: skill.id,
            name: skill.name,
            version_number: skill.version,
            proposal_id: null,
            next,
          },
        };
      },
    }),
    defineTool({
      name: 'get_skills',
      title: 'All Skills (raw)',
      description: 'Every Skill in full as one raw, unbounded JSON block. Prefer search_context, then get_procedure.',
      input: GetSkillsInput,
      permission: 'context.read',
      annotations: READ_ONLY,
      run: async (ctx, input) => {
        const { resolved, skills: all } = await skills.all(ctx, input.project_id);
        return { kind: 'raw', value: { project_id: resolved.project.id, skills: all } };
      },
    }),
  ];
}
