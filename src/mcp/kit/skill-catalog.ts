import type { Resource } from '@modelcontextprotocol/server';
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import type { RequestContext } from '../../platform/context/request-context.js';

/**
 * What a module implements to serve Skills over the MCP Skills extension (skills/list, skills/get,
 * and each file as a resource). The handlers belong to the transport (mcp/skills-extension.ts).
 * Everything depends on the caller's grants: a URI the caller may not read is answered `undefined`,
 * exactly as a URI that names nothing.
 */
export interface SkillBundleCatalog {
  /** One page of entries; `cursor` is the nextCursor of the page before. */
  list(ctx: RequestContext, cursor: string | undefined): Promise<{ skills: Skill[]; nextCursor?: string }>;
  /** The entry whose SKILL.md is at `uri`, listed or not. */
  get(ctx: RequestContext, uri: string): Promise<Skill | undefined>;
  /** A file of a served Skill. */
  read(ctx: RequestContext, uri: string): Promise<{ text: string; mimeType: string } | undefined>;
  /** The direct children of a served Skill's folder (`resources/directory/read`). */
  readDirectory(ctx: RequestContext, uri: string): Promise<{ resources: Resource[] } | undefined>;
}
