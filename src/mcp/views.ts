import fs from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import type { AnyToolSpec } from './tool.js';

/** MCP Apps (ext-apps 2.x): the MIME type a host recognizes as a view. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

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

  /** Registers every view as a static resource of the server instance. */
  register(server: McpServer): void {
    for (const [name, text] of this.html) {
      const uri = viewResourceUri(name);
      const meta = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };
      server.registerResource(
        `view-${name}`,
        uri,
        {
          title: `Context Hub view: ${name}`,
          description: `MCP Apps view for ${name}`,
          mimeType: VIEW_MIME_TYPE,
          _meta: meta,
        },
        async () => ({ contents: [{ uri, mimeType: VIEW_MIME_TYPE, text, _meta: meta }] }),
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
