import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { PendingReviewOutput, RestoreVersionInput, VersionDiffQuery } from '../documents/index.js';
import { defineRoute } from '../../platform/http/route.js';
import { ProjectRef } from '../projects/index.js';
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
import type { KnowledgeService, KnowledgeWrite } from './knowledge.service.js';

/** A write's answer: the new version, or 202 and the proposal it became. */
const KnowledgeWriteOutput = z.union([KnowledgeOutput, PendingReviewOutput]);

function sendWrite(reply: FastifyReply, written: KnowledgeWrite, published?: number) {
  if (written.pending) return reply.code(202).send(written.pending);
  return reply.code(published ?? (written.knowledge.version_number === 1 ? 201 : 200)).send(written.knowledge);
}

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
      summary: 'Add a Knowledge sheet, or a new version of a topic_id (201 for version 1, else 200; 202 when proposed)',
      tags: ['knowledge'],
      rule: { permission: 'context.write' },
      body: AddKnowledgeInput,
      response: KnowledgeWriteOutput,
      handler: async ({ ctx, body, reply }) => sendWrite(reply, await knowledge.add(ctx, body)),
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
      summary: 'Change a Knowledge sheet: writes its next version (202 and a proposal when the project reviews)',
      tags: ['knowledge'],
      rule: { permission: 'context.write' },
      params: KnowledgePathParams,
      query: ProjectQuery,
      body: UpdateKnowledgeInput,
      response: KnowledgeWriteOutput,
      handler: async ({ ctx, params, query, body, reply }) =>
        sendWrite(reply, await knowledge.update(ctx, query.project_id, params.topic_id, body), 200),
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
      summary:
        "Restore a version: writes that version's content as the next version (history is never rewritten; " +
        '202 and a proposal when the project reviews)',
      tags: ['knowledge'],
      rule: { permission: 'context.write' },
      params: KnowledgePathParams,
      query: ProjectQuery,
      body: RestoreVersionInput,
      response: KnowledgeWriteOutput,
      handler: async ({ ctx, params, query, body, reply }) =>
        sendWrite(reply, await knowledge.restore(ctx, query.project_id, params.topic_id, body.version), 200),
    }),
  ];
}
