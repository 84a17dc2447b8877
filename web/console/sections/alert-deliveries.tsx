import { useState } from 'preact/hooks';
import { api, ok, type Res } from '../api.js';
import {
  DataTable,
  ErrorBox,
  Field,
  Loading,
  PageTitle,
  StatusBadge,
  useLoad,
  useProject,
  useSubmit,
  TableWrap,
} from '../ui.js';
import { Instant } from './common.js';

type Delivery = Res<'/api/alerts/deliveries', 'get'>['deliveries'][number];
type Status = NonNullable<Delivery['status']>;
const STATUSES: Status[] = ['held', 'pending', 'delivering', 'delivered', 'failed', 'dead'];

/** The delivery log: every message, newest first, and each of its attempts. */
export function Deliveries() {
  const { project } = useProject();
  const [status, setStatus] = useState<Status | ''>('');
  const [cursor, setCursor] = useState<string>();
  const page = useLoad(
    () =>
      ok(
        api.GET('/api/alerts/deliveries', {
          params: { query: { project_id: project.id, limit: 50, cursor, ...(status ? { status } : {}) } },
        }),
      ),
    [project.id, status, cursor],
  );
  return (
    <>
      <PageTitle>Delivery log</PageTitle>
      <div class="form-grid">
        <Field label="Status">
          {(a) => (
            <select
              {...a}
              value={status}
              onChange={(ev) => {
                setCursor(undefined);
                setStatus(ev.currentTarget.value as Status | '');
              }}
            >
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <ErrorBox error={page.error} />
      {page.loading && !page.data && <Loading what="deliveries" />}
      <ul class="plain stack" data-loaded={page.data ? 'true' : undefined} aria-label="Deliveries">
        {page.data?.deliveries.map((d) => (
          <DeliveryCard key={d.id} d={d} onChanged={page.reload} />
        ))}
      </ul>
      {page.data?.deliveries.length === 0 && (
        <p class="muted">Nothing was sent{status ? ` with status ${status}` : ''}.</p>
      )}
      <div class="row">
        {cursor && (
          <button type="button" class="action" onClick={() => setCursor(undefined)}>
            Newest
          </button>
        )}
        {page.data?.next_cursor && (
          <button type="button" class="action" onClick={() => setCursor(page.data!.next_cursor!)}>
            Older
          </button>
        )}
      </div>
    </>
  );
}

function DeliveryCard(props: { d: Delivery; onChanged(): void }) {
  const { can } = useProject();
  const d = props.d;
  const retry = useSubmit(
    () => ok(api.POST('/api/alerts/deliveries/{id}/retry', { params: { path: { id: d.id } } })),
    props.onChanged,
  );
  return (
    <li class="card stack" aria-label={`Delivery ${d.id}`}>
      <div class="spread">
        <strong>{d.title || d.event_type}</strong>
        <StatusBadge status={d.status} />
      </div>
      <dl class="facts small">
        <dt>Created</dt>
        <dd>
          <Instant at={d.created_at} />
        </dd>
        <dt>Rule</dt>
        <dd>{d.rule.name}</dd>
        <dt>Destination</dt>
        <dd>
          {d.destination.name} <span class="muted">({d.destination.kind})</span>
        </dd>
        <dt>Items</dt>
        <dd>{d.item_count}</dd>
        {d.status === 'held' && (
          <>
            <dt>Held until</dt>
            <dd>
              <Instant at={d.deliver_after} /> (quiet hours)
            </dd>
          </>
        )}
        {d.last_error && (
          <>
            <dt>Last error</dt>
            <dd class="unresolved">{d.last_error}</dd>
          </>
        )}
        <dt>Message id</dt>
        <dd class="mono">{d.id}</dd>
      </dl>
      {d.attempts.length > 0 && (
        <details>
          <summary>
            {d.attempt_count} {d.attempt_count === 1 ? 'attempt' : 'attempts'} of {d.max_attempts}
          </summary>
          <TableWrap>
            <DataTable
              caption={`Attempts of ${d.id}`}
              columns={['#', 'Started', 'Outcome', 'HTTP', { num: 'ms' }, 'Error', 'Answer']}
            >
              {d.attempts.map((a) => (
                <tr key={a.attempt}>
                  <td>{a.attempt}</td>
                  <td>
                    <Instant at={a.started_at} />
                  </td>
                  <td>
                    <StatusBadge status={a.outcome} />
                    {a.retry_at && (
                      <div class="muted small">
                        next <Instant at={a.retry_at} />
                      </div>
                    )}
                  </td>
                  <td>{a.http_status ?? '–'}</td>
                  <td class="num">{a.latency_ms ?? '–'}</td>
                  <td class="prose-cell">{a.error ?? ''}</td>
                  <td class="mono small prose-cell">{a.response_excerpt ?? ''}</td>
                </tr>
              ))}
            </DataTable>
          </TableWrap>
        </details>
      )}
      {can('admin') && (d.status === 'dead' || d.status === 'failed') && (
        <div>
          <button type="button" class="action" onClick={retry.submit} disabled={retry.busy}>
            Send again
          </button>
        </div>
      )}
      <ErrorBox error={retry.error} />
    </li>
  );
}
