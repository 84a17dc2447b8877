export { credentialRoutes } from './credentials.routes.js';
export { CredentialsService } from './credentials.service.js';
export { ConnectionRefId } from './credentials.schemas.js';
export { SecretBox } from './secret-box.js';
export { StoredTokens } from './token-manager.js';
