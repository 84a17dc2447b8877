import { z } from 'zod';
import { defineRoute } from '../../platform/http/route.js';
import { ProjectRef } from '../projects/projects.schemas.js';
import {
  AddKnowledgeInput,
  KnowledgeDiffOutput,
  KnowledgeListOutput,
  KnowledgeListQuery,
  KnowledgeOutput,
  KnowledgePathParams,
  KnowledgeReadQuery,
  KnowledgeVersionsOutput,
  UpdateKnowledgeInput,
} from './knowledge.schemas.js';
import { RestoreVersionInput, VersionDiffQuery } from '../skills/skills.schemas.js';
import type { KnowledgeService } from './knowledge.service.js';

const ProjectQuery = z.object({ project_id: ProjectRef });

export function knowledgeRoutes(knowledge: KnowledgeService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/knowledge',
      summary: 'List the live Knowledge sheets of a project (by topic_id)',
      tags: ['knowledge'],
      rule: { permission: 'context.read' },
      query: KnowledgeListQuery,
      response: KnowledgeListOutput,
      handler: async ({ ctx, query }) => knowledge.list(ctx, query.project_id, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/knowledge',
      summary: 'Add a Knowledge sheet, or a new version of an existing topic_id (201 for version 1, else 200)',
      tags: ['knowledge'],
      rule: { permission: 'context.write' },
      body: AddKnowledgeInput,
      response: KnowledgeOutput,
      handler: async ({ ctx, body, reply }) => {
        const { knowledge: sheet } = await knowledge.add(ctx, body);
        return reply.code(sheet.version_number === 1 ? 201 : 200).send(sheet);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/knowledge/:topic_id',
      summary: 'Read a Knowledge sheet (current version, or ?version=N)',
      tags: ['knowledge'],
      rule: { permission: 'context.read' },
      params: KnowledgePathParams,
      query: KnowledgeReadQuery,
      response: KnowledgeOutput,
      handler: async ({ ctx, params, query }) =>
        (await knowledge.get(ctx, query.project_id, params.topic_id, query.version)).knowledge,
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/knowledge/:topic_id',
      summary: 'Change a Knowledge sheet: writes its next version',
      tags: ['knowledge'],
      rule: { permission: 'context.write' },
      params: KnowledgePathParams,
      query: ProjectQuery,
      body: UpdateKnowledgeInput,
      response: KnowledgeOutput,
      handler: async ({ ctx, params, query, body }) => knowledge.update(ctx, query.project_id, params.topic_id, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/knowledge/:topic_id',
      summary: 'Delete a Knowledge sheet: gone from search and lists; versions stay readable to admins',
      tags: ['knowledge'],
      rule: { permission: 'context.write' },
      params: KnowledgePathParams,
      query: ProjectQuery,
      successStatus: 204,
      handler: async ({ ctx, params, query, reply }) => {
        await knowledge.remove(ctx, query.project_id, params.topic_id);
        return reply.code(204).send();
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/knowledge/:topic_id/versions',
      summary: "A Knowledge sheet's version history, oldest first, paginated",
      tags: ['knowledge'],
      rule: { permission: 'context.read' },
      params: KnowledgePathParams,
      query: KnowledgeListQuery,
      response: KnowledgeVersionsOutput,
      handler: async ({ ctx, params, query }) => knowledge.versions(ctx, query.project_id, params.topic_id, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/knowledge/:topic_id/diff',
      summary: 'What changed between two versions: unified diff of body_md, and title/owner',
      tags: ['knowledge'],
      rule: { permission: 'context.read' },
      params: KnowledgePathParams,
      query: VersionDiffQuery,
      response: KnowledgeDiffOutput,
      handler: async ({ ctx, params, query }) => knowledge.diff(ctx, query.project_id, params.topic_id, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/knowledge/:topic_id/restore',
      summary: "Restore a version: writes that version's content as the next version (history is never rewritten)",
      tags: ['knowledge'],
      rule: { permission: 'context.write' },
      params: KnowledgePathParams,
      query: ProjectQuery,
      body: RestoreVersionInput,
      response: KnowledgeOutput,
      handler: async ({ ctx, params, query, body }) =>
        knowledge.restore(ctx, query.project_id, params.topic_id, body.version),
    }),
  ];
}
