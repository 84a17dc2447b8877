import type { ListToolsResult } from '@modelcontextprotocol/server';
import { type Actor, actorHas } from '../platform/auth/actor.js';
import type { Permission } from '../platform/auth/permissions.js';
import type { McpRegistry } from './kit/registry.js';

/**
 * Which tools a caller sees and may call: a registry tool needs its permission; a tool
 * an extension registers (the conformance fixtures) is open to every caller the gate let in.
 * tools/list, tools/call on the SDK path and the fast path all decide through `allows`.
 */
export class ToolAccess {
  private readonly permissions: Map<string, Permission>;
  /** The distinct permissions the registry's tools need, in a fixed order. */
  private readonly distinct: Permission[];
  /** Tools only views call (MCP Apps `visibility: ["app"]`). */
  private readonly appOnly: Set<string>;

  constructor(registry: McpRegistry) {
    this.permissions = new Map(registry.tools.map((tool) => [tool.name, tool.permission]));
    this.distinct = [...new Set(this.permissions.values())].sort();
    this.appOnly = new Set(
      registry.tools.filter((tool) => tool.visibility && !tool.visibility.includes('model')).map((t) => t.name),
    );
  }

  /** The permission a registry tool needs (undefined for a tool outside the registry). */
  permissionOf(name: string): Permission | undefined {
    return this.permissions.get(name);
  }

  allows(actor: Actor, name: string): boolean {
    const permission = this.permissions.get(name);
    return permission === undefined || actorHas(actor, permission);
  }

  /**
   * A listing cut down to the tools this actor may use. App-only tools are listed only to a client
   * that renders views (it declared the MCP Apps extension): such a host keeps them from the model,
   * as the MCP Apps spec requires of it, while a host that knows nothing of views would hand them to
   * the model, which cannot use them (the spec lets a server list tools by the host's capabilities).
   */
  visibleListing(listing: ListToolsResult, actor: Actor, rendersViews: boolean): ListToolsResult {
    return {
      ...listing,
      tools: listing.tools.filter(
        (tool) => this.allows(actor, tool.name) && (rendersViews || !this.appOnly.has(tool.name)),
      ),
    };
  }

  /**
   * Equal for callers that see the same tools: whether the client renders views, then which of the
   * tools' permissions the actor holds ('1' held, '0' not), the only inputs `visibleListing` reads.
   */
  visibilityKey(actor: Actor, rendersViews: boolean): string {
    let key = rendersViews ? 'v' : '-';
    for (const permission of this.distinct) key += actorHas(actor, permission) ? '1' : '0';
    return key;
  }
}

const accessByRegistry = new WeakMap<McpRegistry, ToolAccess>();

/** The registry's ToolAccess, built once (an SDK server is built per modern request). */
export function toolAccessFor(registry: McpRegistry): ToolAccess {
  let access = accessByRegistry.get(registry);
  if (!access) {
    access = new ToolAccess(registry);
    accessByRegistry.set(registry, access);
  }
  return access;
}
