import type { SearchOutput } from './search.schemas.js';
import type { SearchResult } from './search.service.js';

/** Hit lines the text shows; the rest are in data.hits (the text stays within 30 lines). */
const HIT_LINES = 25;

export function searchSummary(result: SearchResult): string[] {
  const quoted = JSON.stringify(
    Array.from(result.query).slice(0, 60).join('') + (Array.from(result.query).length > 60 ? '…' : ''),
  );
  if (result.total === 0) {
    const why =
      result.empty_reason === 'no_words'
        ? ' (the query has no letters or digits to search for)'
        : result.empty_reason === 'only_stop_words'
          ? ' (the query has only stop words such as "the", "why", "is": name what you are looking for)'
          : '';
    return [
      `No hits for ${quoted}${why}.`,
      'Try other words: a KPI (ROAS, CAC), a channel, a surface, or the problem you are investigating.',
    ];
  }
  const t = result.tiers;
  const first = result.hits[0]!;
  return [
    `${result.total_is_lower_bound ? 'At least ' : ''}${result.total} hit${result.total === 1 ? '' : 's'} for ${quoted}: ${t.title} title, ${t.description} description, ${t['graph-neighbor']} graph-neighbor${result.truncated ? ` (showing ${result.hits.length})` : ''}.${result.ignored_words > 0 ? ` ${result.ignored_words} extra words ignored.` : ''}${result.ignored_chars > 0 ? ` Only the first 10,000 characters were read.` : ''}`,
    `Open first: ${first.next.tool} ${JSON.stringify(first.next.arguments)}`,
    ...result.hits
      .slice(0, HIT_LINES)
      .map(
        (h, i) =>
          `${i + 1}. [${h.tier}] ${h.kind} ${h.key}${h.title !== h.key ? ` "${h.title}"` : ''} → ${h.next.tool}`,
      ),
    ...(result.hits.length > HIT_LINES ? [`… ${result.hits.length - HIT_LINES} more hits in data.hits.`] : []),
  ];
}

export function presentSearch(result: SearchResult): SearchOutput {
  return {
    query: result.query,
    summary: searchSummary(result),
    hits: result.hits,
    total: result.total,
    total_is_lower_bound: result.total_is_lower_bound,
    truncated: result.truncated,
    tiers: result.tiers,
    ignored_words: result.ignored_words,
    ...(result.empty_reason ? { empty_reason: result.empty_reason } : {}),
  };
}
