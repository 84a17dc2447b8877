import { ADDITIVE_WRITE, defineTool, READ_ONLY } from '../../mcp/kit/tool.js';
import { pendingWriteAnswer, provenanceOf } from '../documents/index.js';
import { AddKnowledgeAck, AddKnowledgeInput, GetKnowledgeInput, type KnowledgeOutput } from './knowledge.schemas.js';
import type { KnowledgeService } from './knowledge.service.js';

/** Body lines the text channel shows: enough for a text-only agent to read a typical sheet. */
const BODY_LINES = 26;

function knowledgeSummary(sheet: KnowledgeOutput): string[] {
  const lines = sheet.body_md
    .split(/\r?\n/)
    .filter((l, i, all) => l.trim() !== '' || (i > 0 && all[i - 1]!.trim() !== ''));
  const shown = lines.slice(0, BODY_LINES);
  const header = `Knowledge ${sheet.topic_id} v${sheet.version_number}${sheet.version_number !== sheet.current_version ? ` (current is v${sheet.current_version})` : ''}: ${sheet.title}${sheet.owner ? ` (owner: ${sheet.owner})` : ''}`;
  const footer =
    lines.length > shown.length
      ? [`… ${lines.length - shown.length} more lines: the full body is in data.body_md.`]
      : [];
  return [header, ...shown, ...footer];
}

export function knowledgeTools(knowledge: KnowledgeService) {
  return [
    defineTool({
      name: 'get_knowledge',
      title: 'Get a Knowledge sheet',
      description:
        'Opens a Knowledge sheet (definitions, caveats) by topic_id from search_context. Without topic_id: every sheet, raw and unbounded.',
      input: GetKnowledgeInput,
      view: 'knowledge',
      permission: 'context.read',
      annotations: READ_ONLY,
      run: async (ctx, input) => {
        if (input.topic_id === undefined) {
          const { resolved, knowledge: all } = await knowledge.all(ctx, input.project_id);
          return { kind: 'raw', value: { project_id: resolved.project.id, knowledge: all } };
        }
        const { resolved, knowledge: sheet } = await knowledge.get(
          ctx,
          input.project_id,
          input.topic_id,
          input.version,
        );
        return {
          kind: 'enveloped',
          summary: knowledgeSummary(sheet),
          projectId: resolved.project.id,
          provenance: provenanceOf(resolved, {
            object: `knowledge:${sheet.topic_id}`,
            version: sheet.version_number,
            updated_at: sheet.created_at,
            author: sheet.author,
          }),
          data: {
            id: sheet.id,
            topic_id: sheet.topic_id,
            title: sheet.title,
            owner: sheet.owner,
            version_number: sheet.version_number,
            current_version: sheet.current_version,
            body_md: sheet.body_md,
            updated_at: sheet.created_at,
          },
        };
      },
    }),
    defineTool({
      name: 'add_knowledge',
      title: 'Add or revise a Knowledge sheet',
      description:
        'Saves a Knowledge sheet (Markdown) as a new version. An answer with status pending_review waits for a reviewer: follow it with get_proposal.',
      input: AddKnowledgeInput,
      view: 'knowledge',
      permission: 'context.write',
      annotations: ADDITIVE_WRITE,
      dataShape: AddKnowledgeAck.shape,
      run: async (ctx, input) => {
        const { resolved, knowledge: sheet, pending } = await knowledge.add(ctx, input);
        if (pending) return pendingWriteAnswer(resolved, pending, { topic_id: pending.key, title: input.title });
        const next = `Open it with get_knowledge {"topic_id": "${sheet.topic_id}"}.`;
        return {
          kind: 'enveloped',
          summary: [`Saved knowledge ${sheet.topic_id} ("${sheet.title}") as version ${sheet.version_number}.`, next],
          projectId: resolved.project.id,
          provenance: provenanceOf(resolved),
          data: {
            status: 'published',
            id: sheet.id,
            topic_id: sheet.topic_id,
            title: sheet.title,
            version_number: sheet.version_number,
            proposal_id: null,
            next,
          },
        };
      },
    }),
  ];
}
