import { type ReadResourceResult, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import { VIEW_CACHE_HINT, type ViewCatalog } from '../views.js';

/**
 * The resources/read answers of the MCP Apps views, serialized once per era, on the first read of
 * each. A view is about 300 KB of HTML: through the SDK every read re-serialized it, framed it as
 * an event stream and kept a copy in the session's event store, which held reads to under 200 a
 * second. Serializing all of them at start cost ~40 ms of CPU per service start, most of it for
 * views no client of that process reads. The bytes here are exactly what the SDK path answers (the
 * fast-path tests compare them).
 */
export class ViewReads {
  private readonly results = new Map<string, ReadResourceResult>();
  private readonly legacy = new Map<string, Buffer>();
  private readonly modern = new Map<string, Buffer>();

  constructor(
    views: ViewCatalog,
    private readonly serverInfo: unknown,
  ) {
    for (const [uri, result] of views.readResults()) this.results.set(uri, result);
  }

  /** The serialized result for a view's URI in the given era, or undefined for any other URI. */
  result(era: 'legacy' | 'modern', uri: unknown): Buffer | undefined {
    if (typeof uri !== 'string') return undefined;
    const cache = era === 'legacy' ? this.legacy : this.modern;
    const cached = cache.get(uri);
    if (cached) return cached;
    const result = this.results.get(uri);
    if (result === undefined) return undefined;
    const bytes = Buffer.from(
      JSON.stringify(
        era === 'legacy'
          ? result
          : {
              ...result,
              ...VIEW_CACHE_HINT,
              resultType: 'complete',
              _meta: { [SERVER_INFO_META_KEY]: this.serverInfo },
            },
      ),
    );
    cache.set(uri, bytes);
    return bytes;
  }
}
