import { BINARY_MEDIA_TYPES } from '../../platform/http/body-parsing.js';
import { defineRoute } from '../../platform/http/route.js';
import { ProjectPathParams } from '../projects/index.js';
import { ImportQuery, ImportResultOutput } from './hub-files.schemas.js';
import type { HubFilesService } from './hub-files.service.js';

export const HUB_ARCHIVE_MEDIA_TYPE = 'application/gzip';
/** A compressed folder of text; it may inflate to MAX_ARCHIVE_BYTES. */
const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

export function hubFilesRoutes(files: HubFilesService) {
  return [
    defineRoute({
      method: 'GET',
      url: '/api/projects/:id/export',
      summary:
        'The hub as files (tar.gz): skills/<name>/SKILL.md, knowledge/<topic_id>.md, taxonomy.yaml ' +
        '(context as code; the same hub always gives the same bytes)',
      tags: ['context-hub'],
      rule: { permission: 'context.read' },
      params: ProjectPathParams,
      responseMediaType: HUB_ARCHIVE_MEDIA_TYPE,
      handler: async ({ ctx, params, reply }) => {
        const { projectId, archive } = await files.exportArchive(ctx, params.id);
        return reply
          .header('content-type', HUB_ARCHIVE_MEDIA_TYPE)
          .header('content-disposition', `attachment; filename="${projectId}-context.tar.gz"`)
          .header('cache-control', 'no-store')
          .send(archive);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/projects/:id/import',
      summary:
        'Apply a folder of files (tar.gz body, the export layout): new and changed objects become new ' +
        'versions, unchanged ones stay; ?dry_run=true plans only, ?prune=true deletes what the folder lacks; ' +
        'any bad file refuses it all (400 import_invalid, every problem with file:line)',
      tags: ['context-hub'],
      rule: { permission: 'context.write' },
      params: ProjectPathParams,
      query: ImportQuery,
      rawBody: BINARY_MEDIA_TYPES,
      bodyLimit: IMPORT_BODY_LIMIT,
      response: ImportResultOutput,
      handler: async ({ ctx, params, query, body }) =>
        files.importArchive(ctx, params.id, body as unknown as Buffer, query),
    }),
  ];
}
