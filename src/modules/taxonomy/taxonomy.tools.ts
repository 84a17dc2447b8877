import { openCall, provenanceOf } from '../documents/index.js';
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { BusinessKeyOutput, GetBusinessKeyToolInput } from './taxonomy.schemas.js';
import type { TaxonomyService } from './taxonomy.service.js';

const Ref = z.object({ key: z.string(), label: z.string() });
const Linked = z.object({
  kind: z.enum(['skill', 'knowledge']),
  id: z.string(),
  key: z.string(),
  title: z.string(),
  relation_type: z.string(),
  link_id: z.string().nullable(),
  next: z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }),
});

export function taxonomyTools(taxonomy: TaxonomyService) {
  return [
    defineTool({
      name: 'get_business_key',
      title: 'Get a business key',
      description:
        'Opens a business key (e.g. kpi.roas): its definition, parent and children, and the Skills and Knowledge linked to it.',
      input: GetBusinessKeyToolInput,
      view: 'business-key',
      permission: 'context.read',
      annotations: READ_ONLY,
      dataShape: { key: BusinessKeyOutput, parent: Ref.nullable(), children: z.array(Ref), linked: z.array(Linked) },
      run: async (ctx, input) => {
        const found = await taxonomy.describeKey(ctx, input.project_id, input.key);
        const projectId = found.resolved.project.id;
        const linked = found.linked.map((l) => ({
          ...l,
          next: openCall(l.kind, l.key, projectId),
        }));
        const k = found.key;
        const summary = [
          `${k.key}: ${k.label}${k.synonyms.length > 0 ? ` (also: ${k.synonyms.join(', ')})` : ''}`,
          ...(k.description ? [k.description] : []),
          `Parent: ${found.parent ? `${found.parent.key} (${found.parent.label})` : 'none (a root key)'}; children: ${found.children.length > 0 ? found.children.map((c) => c.key).join(', ') : 'none'}`,
          `${linked.length} linked object${linked.length === 1 ? '' : 's'}${linked.length > 0 ? ':' : '.'}`,
          ...linked.slice(0, 22).map((l) => `- ${l.kind} ${l.key} (${l.relation_type}): ${l.title} → ${l.next.tool}`),
        ];
        return {
          kind: 'enveloped',
          summary,
          projectId,
          provenance: provenanceOf(found.resolved, { object: `business_key:${k.key}` }),
          data: { key: k, parent: found.parent, children: found.children, linked },
        };
      },
    }),
  ];
}
