import type { McpServer, ServerEvent } from '@modelcontextprotocol/server';

/**
 * The notification a change-feed event makes on a server with a long-lived stream (a 2025-era
 * session's GET stream, a 2024-11-05 SSE connection): list changes to every such server, a resource
 * update only where the client subscribed to that URI. Undefined when nothing is to be sent.
 */
export function sendChange(
  server: McpServer,
  event: ServerEvent,
  subscribed: (uri: string) => boolean,
): Promise<void> | undefined {
  switch (event.kind) {
    case 'resource_updated':
      return subscribed(event.uri) ? server.server.sendResourceUpdated({ uri: event.uri }) : undefined;
    case 'tools_list_changed':
      return server.server.sendToolListChanged();
    case 'resources_list_changed':
      return server.server.sendResourceListChanged();
    case 'prompts_list_changed':
      return server.server.sendPromptListChanged();
  }
}
