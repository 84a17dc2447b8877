import type { SkillBundleCatalog } from './skill-catalog.js';
import type { RequestContext } from '../../platform/context/request-context.js';
import type { Permission } from '../../platform/auth/permissions.js';
import type { ValueCompleter, ValueKind } from './completion.js';
import type { PromptCatalog } from './prompt-catalog.js';
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
  /** The kind of value each template variable takes, for completion/complete. */
  variables?: Record<string, ValueKind>;
  /** Lists concrete resources the caller can see (resources/list). */
  list(ctx: RequestContext): Promise<{ uri: string; name: string; title?: string }[]>;
  read(ctx: RequestContext, uri: string, variables: Record<string, string>): Promise<{ text: string }>;
}

/** Built once at start; every MCP server instance (session, request, SSE connection) serves it. */
export interface McpRegistry {
  tools: AnyToolSpec[];
  resources: ResourceSpec[];
  /** Extra registrations (the conformance fixtures) applied to every server instance. */
  extensions: ((server: import('@modelcontextprotocol/server').McpServer) => void)[];
  /** The MCP Apps views (ui:// resources) tools name. */
  views: import('../views.js').ViewCatalog;
  /** The prompts a caller may use (Skills), per request; absent: the server offers no prompts. */
  prompts?: PromptCatalog;
  /** The Skills a caller may read, served over the MCP Skills extension; absent: not declared. */
  skills?: SkillBundleCatalog;
  /** Values for prompt arguments and resource-template variables (completion/complete). */
  completer?: ValueCompleter;
}
