import fs from 'node:fs';
import path from 'node:path';
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, McpServer, ReadResourceResult } from '@modelcontextprotocol/server';
import type { AnyToolSpec } from './kit/tool.js';

/** MCP Apps (ext-apps 2.x): the MIME type a host recognizes as a view. */
export const VIEW_MIME_TYPE = RESOURCE_MIME_TYPE;

/** Whether a client renders our views: it declared the MCP Apps extension with our MIME type. */
export function rendersViews(capabilities: ClientCapabilities | null | undefined): boolean {
  return getUiCapability(capabilities ?? undefined)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/** A view loads nothing from anywhere (no outside domain) and asks the host for a border. */
const VIEW_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };

/**
 * A view is the same for every caller and changes only with a deployment: hosts may share it and
 * keep it a few minutes (2026-07-28 cache hint; earlier eras carry none).
 */
export const VIEW_CACHE_HINT = { ttlMs: 300_000, cacheScope: 'public' } as const;

export const viewResourceUri = (view: string) => `ui://context-hub/${view}.html`;

/**
 * The built views (dist/web/widgets/<name>.html), read once at start and answered from memory.
 * Every view is self-contained: its CSP names no outside domain because it loads nothing.
 */
export class ViewCatalog {
  private constructor(private readonly html: ReadonlyMap<string, string>) {}

  static load(dir: string | undefined = findViewsDir()): ViewCatalog {
    const html = new Map<string, string>();
    if (dir && fs.existsSync(dir)) {
      for (const file of fs.readdirSync(dir).sort()) {
        if (file.endsWith('.html')) html.set(file.slice(0, -5), fs.readFileSync(path.join(dir, file), 'utf8'));
      }
    }
    return new ViewCatalog(html);
  }

  static empty(): ViewCatalog {
    return new ViewCatalog(new Map());
  }

  get names(): string[] {
    return [...this.html.keys()];
  }

  has(view: string): boolean {
    return this.html.has(view);
  }

  /** The `_meta` a tool's tools/list entry carries: the standard key and the two legacy ones. */
  toolMeta(tool: AnyToolSpec): Record<string, unknown> | undefined {
    const ui: Record<string, unknown> = {};
    const meta: Record<string, unknown> = {};
    if (tool.view && this.has(tool.view)) {
      const uri = viewResourceUri(tool.view);
      ui.resourceUri = uri;
      meta['ui/resourceUri'] = uri;
      meta['openai/outputTemplate'] = uri;
    }
    if (tool.visibility) ui.visibility = tool.visibility;
    if (Object.keys(ui).length === 0) return undefined;
    return { ui, ...meta };
  }

  /** Every view's URI with the resources/read result that answers it (the one definition of it). */
  *readResults(): Iterable<[string, ReadResourceResult]> {
    for (const name of this.html.keys()) {
      const uri = viewResourceUri(name);
      yield [uri, this.readResult(name)];
    }
  }

  private readResult(name: string): ReadResourceResult {
    const uri = viewResourceUri(name);
    return { contents: [{ uri, mimeType: VIEW_MIME_TYPE, text: this.html.get(name) ?? '', _meta: VIEW_META }] };
  }

  /** Registers every view as a static resource of the server instance. */
  register(server: McpServer): void {
    for (const name of this.html.keys()) {
      const uri = viewResourceUri(name);
      server.registerResource(
        `view-${name}`,
        uri,
        {
          title: `Context Hub view: ${name}`,
          description: `MCP Apps view for ${name}`,
          mimeType: VIEW_MIME_TYPE,
          _meta: VIEW_META,
          cacheHint: VIEW_CACHE_HINT,
        },
        async () => this.readResult(name),
      );
    }
  }
}

/** dist/web/widgets next to the running code: dist/ when built, the repository's dist/ from src/. */
function findViewsDir(): string | undefined {
  const here = import.meta.dirname;
  for (const candidate of [path.resolve(here, '../web/widgets'), path.resolve(here, '../../dist/web/widgets')]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}
