export { credentialRoutes } from './credentials.routes.js';
export { CredentialsService } from './credentials.service.js';
