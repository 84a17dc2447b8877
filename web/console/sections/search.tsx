import { useState } from 'preact/hooks';
import { api, ok, type Res } from '../api.js';
import { DataTable, ErrorBox, Field, PageTitle, useProject, useSubmit, TableWrap } from '../ui.js';
import { useLinks } from './common.js';

type Answer = Res<'/api/search', 'get'>;

/** What an agent gets from search_context for a query: the summary text, then the hits by tier. */
function Search() {
  const { project } = useProject();
  const link = useLinks();
  const [query, setQuery] = useState('');
  const [explain, setExplain] = useState(false);
  const [answer, setAnswer] = useState<Answer>();
  const run = useSubmit(
    () =>
      ok(
        api.GET('/api/search', {
          params: { query: { q: query, project_id: project.id, limit: 20, explain: explain ? 'true' : 'false' } },
        }),
      ),
    setAnswer,
  );
  const target = (h: Answer['hits'][number]) =>
    h.kind === 'skill'
      ? link(`skills/${h.key}`)
      : h.kind === 'knowledge'
        ? link(`knowledge/${h.key}`)
        : link('taxonomy');
  return (
    <>
      <PageTitle>Search playground</PageTitle>
      <search>
        <form class="row" onSubmit={run.submit}>
          <Field label="Query" error={run.fieldError('q')}>
            {(a) => <input {...a} type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />}
          </Field>
          <label class="row small">
            <input type="checkbox" checked={explain} onChange={(e) => setExplain(e.currentTarget.checked)} />
            Explain scores (editors and up)
          </label>
          <button type="submit" class="action primary" disabled={run.busy || !query.trim()}>
            Search
          </button>
        </form>
      </search>
      <ErrorBox error={run.error} />
      {answer && (
        <div class="stack" data-loaded="true">
          <h2>What the agent reads</h2>
          <figure>
            <figcaption class="visually-hidden">search_context summary</figcaption>
            <pre class="summary" data-testid="summary">
              {answer.summary.join('\n')}
            </pre>
          </figure>
          <h2>
            Hits ({answer.total}
            {answer.total_is_lower_bound ? '+' : ''})
          </h2>
          <TableWrap>
            <DataTable
              caption={`Hits for ${answer.query}`}
              columns={['Tier', 'Kind', 'Title', 'Matched', 'Snippet', { num: 'Score' }, 'Next call']}
            >
              {answer.hits.map((h) => (
                <tr key={`${h.kind}:${h.id}`}>
                  <td>{h.tier}</td>
                  <td>{h.kind}</td>
                  <td>
                    <a href={target(h)}>{h.title}</a>
                  </td>
                  <td class="small">
                    {h.matched.fields.join(', ') || '—'}
                    {h.matched.words.length > 0 && <span class="mono"> ({h.matched.words.join(' ')})</span>}
                  </td>
                  <td class="small prose-cell">{h.snippet}</td>
                  <td class="num">{h.explain ? <ScoreParts hit={h} /> : h.score.toFixed(2)}</td>
                  <td class="mono small">{h.next.tool}</td>
                </tr>
              ))}
            </DataTable>
          </TableWrap>
        </div>
      )}
    </>
  );
}

/** A hit's score parts: per stem its idf, field frequencies and part; then the boosts. */
function ScoreParts({ hit }: { hit: Answer['hits'][number] }) {
  const e = hit.explain!;
  return (
    <details>
      <summary>{hit.score.toFixed(4)}</summary>
      <table class="small">
        <caption class="visually-hidden">Score parts of {hit.title}</caption>
        <thead>
          <tr>
            <th scope="col">Stem</th>
            <th scope="col">Fields (tf / length)</th>
            <th scope="col" class="num">
              idf
            </th>
            <th scope="col" class="num">
              Part
            </th>
          </tr>
        </thead>
        <tbody>
          {e.terms.map((t) => (
            <tr key={t.term}>
              <td class="mono">
                {t.term}
                {t.typo_of ? ` (typo of ${t.typo_of}, ×${t.similarity})` : ''}
              </td>
              <td>
                {Object.entries(t.fields)
                  .map(([name, f]) => `${name} ${f.tf}/${f.length}`)
                  .join(', ')}
              </td>
              <td class="num">{t.idf.toFixed(3)}</td>
              <td class="num">{t.score.toFixed(3)}</td>
            </tr>
          ))}
          {e.boosts.map((b) => (
            <tr key={`boost:${b.via}`}>
              <td>graph boost</td>
              <td class="mono">via {b.via}</td>
              <td />
              <td class="num">{b.score.toFixed(3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

export const sections = { search: Search };
