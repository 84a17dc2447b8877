import { defineRoute } from '../../platform/http/route.js';
import {
  BusinessKeyOutput,
  CreateKeyInput,
  CreateLinkInput,
  KeyListOutput,
  KeyPathParams,
  LinkListOutput,
  LinkOutput,
  LinkPathParams,
  ProjectPageQuery,
  ProjectQuery,
  TaxonomyTreeOutput,
  UpdateKeyInput,
} from './taxonomy.schemas.js';
import type { TaxonomyService } from './taxonomy.service.js';

export function taxonomyRoutes(taxonomy: TaxonomyService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/taxonomy',
      summary: "The project's business taxonomy as a tree",
      tags: ['taxonomy'],
      rule: { permission: 'context.read' },
      query: ProjectQuery,
      response: TaxonomyTreeOutput,
      handler: async ({ ctx, query }) => taxonomy.tree(ctx, query.project_id),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/taxonomy/keys',
      summary: 'List business keys (by key)',
      tags: ['taxonomy'],
      rule: { permission: 'context.read' },
      query: ProjectPageQuery,
      response: KeyListOutput,
      handler: async ({ ctx, query }) => taxonomy.listKeys(ctx, query.project_id, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/taxonomy/keys',
      summary: 'Create a business key (its parent must exist)',
      tags: ['taxonomy'],
      rule: { permission: 'context.write' },
      body: CreateKeyInput,
      response: BusinessKeyOutput,
      successStatus: 201,
      handler: async ({ ctx, body }) => taxonomy.createKey(ctx, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/taxonomy/keys/:key',
      summary: 'Read a business key',
      tags: ['taxonomy'],
      rule: { permission: 'context.read' },
      params: KeyPathParams,
      query: ProjectQuery,
      response: BusinessKeyOutput,
      handler: async ({ ctx, params, query }) => taxonomy.getKey(ctx, query.project_id, params.key),
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/taxonomy/keys/:key',
      summary: 'Change a business key (label, description, parent, synonyms); a parent cycle is a 400',
      tags: ['taxonomy'],
      rule: { permission: 'context.write' },
      params: KeyPathParams,
      query: ProjectQuery,
      body: UpdateKeyInput,
      response: BusinessKeyOutput,
      handler: async ({ ctx, params, query, body }) => taxonomy.updateKey(ctx, query.project_id, params.key, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/taxonomy/keys/:key',
      summary: 'Delete a business key without children (its links go with it)',
      tags: ['taxonomy'],
      rule: { permission: 'context.write' },
      params: KeyPathParams,
      query: ProjectQuery,
      successStatus: 204,
      handler: async ({ ctx, params, query, reply }) => {
        await taxonomy.deleteKey(ctx, query.project_id, params.key);
        return reply.code(204).send();
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/context/business-links',
      summary: 'List business links whose source is live',
      tags: ['taxonomy'],
      rule: { permission: 'context.read' },
      query: ProjectPageQuery,
      response: LinkListOutput,
      handler: async ({ ctx, query }) => taxonomy.listLinks(ctx, query.project_id, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/context/business-links',
      summary: 'Link a Knowledge sheet or Skill to a business key (duplicate: 409)',
      tags: ['taxonomy'],
      rule: { permission: 'context.write' },
      body: CreateLinkInput,
      response: LinkOutput,
      successStatus: 201,
      handler: async ({ ctx, body }) => taxonomy.createLink(ctx, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/context/business-links/:id',
      summary: 'Delete a business link',
      tags: ['taxonomy'],
      rule: { permission: 'context.write' },
      params: LinkPathParams,
      query: ProjectQuery,
      successStatus: 204,
      handler: async ({ ctx, params, query, reply }) => {
        await taxonomy.deleteLink(ctx, query.project_id, params.id);
        return reply.code(204).send();
      },
    }),
  ];
}
