import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { VIEW_CACHE_HINT, type ViewCatalog } from '../views.js';

/**
 * The resources/read answers of the MCP Apps views, serialized once per era at start. A view is
 * about 300 KB of HTML: through the SDK every read re-serialized it, framed it as an event stream
 * and kept a copy in the session's event store, which held reads to under 200 a second. The
 * bytes here are exactly what the SDK path answers (the fast-path tests compare them).
 */
export class ViewReads {
  private readonly legacy = new Map<string, Buffer>();
  private readonly modern = new Map<string, Buffer>();

  constructor(views: ViewCatalog, serverInfo: unknown) {
    for (const [uri, result] of views.readResults()) {
      this.legacy.set(uri, Buffer.from(JSON.stringify(result)));
      const modern = {
        ...result,
        ...VIEW_CACHE_HINT,
        resultType: 'complete',
        _meta: { [SERVER_INFO_META_KEY]: serverInfo },
      };
      this.modern.set(uri, Buffer.from(JSON.stringify(modern)));
    }
  }

  /** The serialized result for a view's URI in the given era, or undefined for any other URI. */
  result(era: 'legacy' | 'modern', uri: unknown): Buffer | undefined {
    if (typeof uri !== 'string') return undefined;
    return (era === 'legacy' ? this.legacy : this.modern).get(uri);
  }
}
