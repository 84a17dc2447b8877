import type { RequestContext } from '../platform/context/request-context.js';
import type { Permission } from '../platform/auth/permissions.js';
import type { AnyToolSpec } from './tool.js';

/** A readable, subscribable resource family, e.g. `project://{project_id}`. */
export interface ResourceSpec {
  name: string;
  /** RFC 6570 template; `{project_id}` is the variable the grant check reads. */
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: string;
  permission: Permission;
  /** Lists concrete resources the caller can see (resources/list). */
  list(ctx: RequestContext): Promise<{ uri: string; name: string; title?: string }[]>;
  read(ctx: RequestContext, uri: string, variables: Record<string, string>): Promise<{ text: string }>;
}

export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  text: string;
}

/** Built once at start; every MCP server instance (session, request, SSE connection) serves it. */
export interface McpRegistry {
  tools: AnyToolSpec[];
  resources: ResourceSpec[];
  /** Extra registrations (the conformance fixtures) applied to every server instance. */
  extensions: ((server: import('@modelcontextprotocol/server').McpServer) => void)[];
  /** The MCP Apps views (ui:// resources) tools name. */
  views: import('./views.js').ViewCatalog;
}
