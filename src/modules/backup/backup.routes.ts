import { defineRoute } from '../../platform/http/route.js';
import type { BackupService } from './backup.service.js';

export const BACKUP_MEDIA_TYPE = 'application/gzip';

export function backupRoutes(backups: BackupService) {
  return [
    defineRoute({
      method: 'POST',
      url: '/api/admin/backup',
      summary:
        'A consistent snapshot of the embedded store (gzip tarball of the PGlite data directory), for ' +
        '`context-hub restore`; 409 backup_not_embedded on PostgreSQL (use pg_dump)',
      tags: ['admin'],
      rule: { permission: 'admin' },
      responseMediaType: BACKUP_MEDIA_TYPE,
      handler: async ({ ctx, reply }) => {
        const tarball = await backups.snapshot(ctx);
        const stamp = ctx.clock.now().toISOString().replace(/[:.]/g, '-');
        return reply
          .header('content-type', BACKUP_MEDIA_TYPE)
          .header('content-disposition', `attachment; filename="context-hub-${stamp}.tar.gz"`)
          .header('cache-control', 'no-store')
          .send(Buffer.from(tarball.buffer, tarball.byteOffset, tarball.byteLength));
      },
    }),
  ];
}
