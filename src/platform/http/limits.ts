export const REST_BODY_LIMIT = 2 * 1024 * 1024;
export const MCP_BODY_LIMIT = 4 * 1024 * 1024;
/** The longest path parameter the router accepts, as sent (percent-encoded). */
export const MAX_PATH_PARAM_CHARS = 4096;
