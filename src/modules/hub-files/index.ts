export { HubFilesService } from './hub-files.service.js';
export { hubFilesRoutes, HUB_ARCHIVE_MEDIA_TYPE } from './hub-files.routes.js';
export { exportCommand, importCommand } from './hub-files.cli.js';
