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
  const [answer, setAnswer] = useState<Answer>();
  const run = useSubmit(
    () => ok(api.GET('/api/search', { params: { query: { q: query, project_id: project.id, limit: 20 } } })),
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
              columns={['Tier', 'Kind', 'Title', 'Snippet', { num: 'Score' }, 'Next call']}
            >
              {answer.hits.map((h) => (
                <tr key={`${h.kind}:${h.id}`}>
                  <td>{h.tier}</td>
                  <td>{h.kind}</td>
                  <td>
                    <a href={target(h)}>{h.title}</a>
                  </td>
                  <td class="small prose-cell">{h.snippet}</td>
                  <td class="num">{h.score.toFixed(2)}</td>
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

export const sections = { search: Search };
