export { BackupService, PG_DUMP_HINT } from './backup.service.js';
export { backupRoutes, BACKUP_MEDIA_TYPE } from './backup.routes.js';
export { backupCommand, restoreCommand, runningService } from './backup.cli.js';
