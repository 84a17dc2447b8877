import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { PendingReviewOutput } from '../documents/index.js';
import { defineRoute } from '../../platform/http/route.js';
import { ProjectRef } from '../projects/index.js';
import {
  AddSkillInput,
  ParsedSkillOutput,
  ParseSkillInput,
  RestoreVersionInput,
  SkillDiffOutput,
  SkillListOutput,
  SkillListQuery,
  SkillOutput,
  SkillPathParams,
  SkillPromptOutput,
  SkillReadQuery,
  SkillVersionsOutput,
  UpdateSkillInput,
  VersionDiffQuery,
} from './skills.schemas.js';
import type { SkillPromptsService } from './skills.prompts.js';
import type { SkillsService, SkillWrite } from './skills.service.js';

/** A write's answer: the new version, or 202 and the proposal it became. */
const SkillWriteOutput = z.union([SkillOutput, PendingReviewOutput]);

function sendWrite(reply: FastifyReply, written: SkillWrite, published?: number) {
  if (written.pending) return reply.code(202).send(written.pending);
  return reply.code(published ?? (written.skill.version === 1 ? 201 : 200)).send(written.skill);
}

const ProjectQuery = z.object({ project_id: ProjectRef });
/** SKILL.md imports may carry a 1 MiB body plus front matter. */
const IMPORT_BODY_LIMIT = 2 * 1024 * 1024;

export function skillRoutes(skills: SkillsService, prompts: SkillPromptsService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/skills',
      summary: 'List the live skills of a project (by name)',
      tags: ['skills'],
      rule: { permission: 'context.read' },
      query: SkillListQuery,
      response: SkillListOutput,
      handler: async ({ ctx, query }) => skills.list(ctx, query.project_id, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills',
      summary: 'Add a skill, or a new version of an existing name (201 for version 1, else 200; 202 when proposed)',
      tags: ['skills'],
      rule: { permission: 'context.write' },
      body: AddSkillInput,
      response: SkillWriteOutput,
      handler: async ({ ctx, body, reply }) => sendWrite(reply, await skills.add(ctx, body)),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/parse',
      summary: 'Parse a draft body as a save would (steps, acceptance, [[key]] references), storing nothing',
      tags: ['skills'],
      rule: { permission: 'context.read' },
      readOnly: true,
      body: ParseSkillInput,
      response: ParsedSkillOutput,
      handler: async ({ ctx, body }) => skills.parse(ctx, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/import',
      summary: 'Import a SKILL.md file (text/markdown body) as the next version of the skill it names',
      tags: ['skills'],
      rule: { permission: 'context.write' },
      query: ProjectQuery,
      rawBody: ['text/markdown'],
      bodyLimit: IMPORT_BODY_LIMIT,
      response: SkillWriteOutput,
      handler: async ({ ctx, query, body, reply }) =>
        sendWrite(reply, await skills.importFile(ctx, query.project_id, String(body as unknown))),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/skills/:name',
      summary: 'Read a skill (current version, or ?version=N)',
      tags: ['skills'],
      rule: { permission: 'context.read' },
      params: SkillPathParams,
      query: SkillReadQuery,
      response: SkillOutput,
      handler: async ({ ctx, params, query }) =>
        (await skills.get(ctx, query.project_id, params.name, query.version)).skill,
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/skills/:name',
      summary: 'Change a skill: writes its next version (202 and a proposal when the project reviews writes)',
      tags: ['skills'],
      rule: { permission: 'context.write' },
      params: SkillPathParams,
      query: ProjectQuery,
      body: UpdateSkillInput,
      response: SkillWriteOutput,
      handler: async ({ ctx, params, query, body, reply }) =>
        sendWrite(reply, await skills.update(ctx, query.project_id, params.name, body), 200),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/skills/:name',
      summary: 'Delete a skill: gone from search and lists; its versions stay readable to admins',
      tags: ['skills'],
      rule: { permission: 'context.write' },
      params: SkillPathParams,
      query: ProjectQuery,
      successStatus: 204,
      handler: async ({ ctx, params, query, reply }) => {
        await skills.remove(ctx, query.project_id, params.name);
        return reply.code(204).send();
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/skills/:name/versions',
      summary: "A skill's version history, oldest first, paginated",
      tags: ['skills'],
      rule: { permission: 'context.read' },
      params: SkillPathParams,
      query: SkillListQuery,
      response: SkillVersionsOutput,
      handler: async ({ ctx, params, query }) => skills.versions(ctx, query.project_id, params.name, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/skills/:name/diff',
      summary: 'What changed between two versions: unified diff of body_md, steps, acceptance, references, fields',
      tags: ['skills'],
      rule: { permission: 'context.read' },
      params: SkillPathParams,
      query: VersionDiffQuery,
      response: SkillDiffOutput,
      handler: async ({ ctx, params, query }) => skills.diff(ctx, query.project_id, params.name, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/skills/:name/restore',
      summary:
        "Restore a version: writes that version's content as the next version (history is never rewritten; " +
        '202 and a proposal when the project reviews)',
      tags: ['skills'],
      rule: { permission: 'context.write' },
      params: SkillPathParams,
      query: ProjectQuery,
      body: RestoreVersionInput,
      response: SkillWriteOutput,
      handler: async ({ ctx, params, query, body, reply }) =>
        sendWrite(reply, await skills.restore(ctx, query.project_id, params.name, body.version), 200),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/skills/:name/prompt',
      summary: 'How the skill appears to you as an MCP prompt: its name, title and arguments',
      tags: ['skills'],
      rule: { permission: 'context.read' },
      params: SkillPathParams,
      query: ProjectQuery,
      response: SkillPromptOutput,
      handler: async ({ ctx, params, query }) => prompts.describe(ctx, query.project_id, params.name),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/skills/:name/SKILL.md',
      summary: 'Export a skill as a SKILL.md file (Agent Skills format)',
      tags: ['skills'],
      rule: { permission: 'context.read' },
      params: SkillPathParams,
      query: SkillReadQuery,
      responseMediaType: 'text/markdown',
      handler: async ({ ctx, params, query, reply }) => {
        const text = await skills.exportFile(ctx, query.project_id, params.name, query.version);
        return reply.code(200).header('content-type', 'text/markdown; charset=utf-8').send(text);
      },
    }),
  ];
}
