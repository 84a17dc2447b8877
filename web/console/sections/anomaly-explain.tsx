import { ExplainSection } from '../../shared/explain.js';
import { api, ok } from '../api.js';
import { href } from '../router.js';
import { ErrorBox, Loading, useLoad, useProject } from '../ui.js';

/** The anomaly page's "Why it moved" panel: GET /api/anomalies/{id}/explain, shown as the widget shows it. */
export function ExplainPanel(props: { id: string }) {
  const { project, format } = useProject();
  const explain = useLoad(
    () => ok(api.GET('/api/anomalies/{id}/explain', { params: { path: { id: props.id } } })),
    [props.id],
  );
  return (
    <section class="card" aria-label="Explanation" data-loaded={explain.data ? 'true' : undefined}>
      <ErrorBox error={explain.error} />
      {explain.loading && !explain.data && <Loading what="the explanation" />}
      {explain.data && (
        <ExplainSection
          data={explain.data}
          format={format}
          keyHref={(key) => href(`${project.id}/taxonomy?key=${key}`)}
        />
      )}
    </section>
  );
}
