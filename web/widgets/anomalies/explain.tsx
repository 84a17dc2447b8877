import { ErrorNotice, useToolData } from '../../shared/data-views.js';
import { type Explanation, ExplainSection } from '../../shared/explain.js';
import type { ViewHost } from '../../shared/view.js';

/** Calls explain_anomaly for one anomaly and shows the answer. */
export function ExplainLoader(props: { projectId: string; anomalyId: string; host: ViewHost }) {
  const r = useToolData<Explanation>(props.host, 'explain_anomaly', {
    project_id: props.projectId,
    anomaly_id: props.anomalyId,
  });
  return (
    <>
      <ErrorNotice error={r.error} />
      {r.loading && <p class="muted small">Working out what moved it…</p>}
      {r.data && <ExplainSection data={r.data} format={props.host.format} />}
    </>
  );
}
