import { wholeList } from '../pages.js';
import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Res } from '../api.js';
import { route } from '../router.js';
import { useStore } from '../store.js';
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
import { Day, Instant, useLinks } from './common.js';
import { Connections } from './connections.js';

type Run = Res<'/api/flows/runs', 'get'>['runs'][number];
type Datastream = Res<'/api/flows', 'get'>['datastreams'][number];

const settled = (r: Run | undefined) => r !== undefined && (r.status === 'succeeded' || r.status === 'failed');

/** A run's status, asked again until it settles (every 500 ms, then slower). */
function LiveRun(props: { runId: string; datastreamId: string; onSettled(): void }) {
  const { project } = useProject();
  const [run, setRun] = useState<Run>();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    let attempt = 0;
    const poll = async () => {
      try {
        const page = await ok(
          api.GET('/api/flows/runs', {
            params: { query: { project_id: project.id, datastream_id: props.datastreamId, limit: 20 } },
          }),
        );
        const mine = page.runs.find((r) => r.id === props.runId);
        if (!live) return;
        setRun(mine);
        if (settled(mine)) return props.onSettled();
      } catch (e) {
        if (live) setError(e);
        return;
      }
      attempt += 1;
      if (live) setTimeout(poll, Math.min(3000, 500 * 1.3 ** attempt));
    };
    void poll();
    return () => {
      live = false;
    };
  }, [props.runId]);
  return (
    <p role="status" aria-live="polite" class="row">
      Run <span class="mono">{props.runId}</span>: <StatusBadge status={run?.status ?? 'queued'} />
      {run && settled(run) && (
        <span>
          {run.rows_read} rows read, {run.rows_written} written{run.error ? ` · ${run.error}` : ''}
        </span>
      )}
      <ErrorBox error={error} />
    </p>
  );
}

function Datastreams() {
  const { project, can } = useProject();
  const link = useLinks();
  const flows = useLoad(
    () => ok(api.GET('/api/flows', { params: { query: { project_id: project.id } } })),
    [project.id],
  );
  const [editing, setEditing] = useState<Datastream | 'new' | null>(null);
  const [runs, setRuns] = useState<Record<string, string>>({});
  const [runError, setRunError] = useState<unknown>(null);
  const runNow = async (id: string) => {
    setRunError(null);
    try {
      const queued = await ok(api.POST('/api/flows/{id}/run', { params: { path: { id } }, body: {} }));
      setRuns({ ...runs, [id]: queued.id });
    } catch (e) {
      setRunError(e);
    }
  };
  return (
    <>
      <PageTitle
        sub={
          can('admin') && (
            <button type="button" class="action" onClick={() => setEditing('new')}>
              New datastream
            </button>
          )
        }
      >
        Datastreams
      </PageTitle>
      <ErrorBox error={flows.error ?? runError} />
      {flows.loading && !flows.data && <Loading what="datastreams" />}
      {editing && (
        <DatastreamForm
          existing={editing === 'new' ? undefined : editing}
          onDone={() => {
            setEditing(null);
            flows.reload();
          }}
        />
      )}
      <ul class="plain stack" data-loaded={flows.data ? 'true' : undefined}>
        {flows.data?.datastreams.map((d) => (
          <li key={d.id} class="card stack" aria-label={`Datastream ${d.name}`}>
            <div class="spread">
              <h2>{d.name}</h2>
              <div class="row">
                {can('admin') && (
                  <button type="button" class="action" onClick={() => setEditing(d)}>
                    Edit schedule
                  </button>
                )}
                {can('context.write') && (
                  <button type="button" class="action" onClick={() => runNow(d.id)}>
                    Run now
                  </button>
                )}
              </div>
            </div>
            <dl class="facts small">
              <dt>Connection</dt>
              <dd>
                {d.connection_ref_id} ({d.provider})
              </dd>
              <dt>Cadence</dt>
              <dd>
                {d.cadence ?? 'nightly default'} <span class="mono">{d.schedule.cron ?? ''}</span>
              </dd>
              <dt>Window</dt>
              <dd>
                last {d.retrieval_window.lookback_days} days
                {d.retrieval_window.start_date && (
                  <>
                    , from <Day day={d.retrieval_window.start_date} />
                  </>
                )}
              </dd>
              <dt>Timezone</dt>
              <dd>{d.timezone}</dd>
              <dt>Next run</dt>
              <dd>
                <Instant at={d.next_run_at} />
              </dd>
            </dl>
            {runs[d.id] && <LiveRun runId={runs[d.id]!} datastreamId={d.id} onSettled={() => undefined} />}
            <a href={link(`runs?datastream=${d.id}`)}>Run history</a>
          </li>
        ))}
      </ul>
    </>
  );
}

/** New, or the schedule of an existing one: the API upserts a datastream by its name. */
function DatastreamForm(props: { existing?: Datastream; onDone(): void }) {
  const { project } = useProject();
  const connections = useLoad(
    () =>
      wholeList('connections', (cursor) =>
        ok(api.GET('/api/credentials/list', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const e = props.existing;
  const [form, setForm] = useState({
    name: e?.name ?? '',
    connection: e?.connection_ref_id ?? '',
    cadence: e ? (e.cadence ?? '') : 'daily',
    lookback_days: String(e?.retrieval_window.lookback_days ?? 7),
    timezone: e?.timezone ?? '',
  });
  const chosen = connections.data?.connections.find((c) => c.connection_ref_id === form.connection);
  const save = useSubmit(
    () =>
      ok(
        api.POST('/api/flows/upsert', {
          body: {
            project_id: project.id,
            kind: 'datastream',
            definition: {
              name: form.name,
              connection_ref_id: form.connection,
              provider: chosen?.provider ?? e?.provider ?? '',
              cadence: form.cadence || null,
              retrieval_window: {
                lookback_days: Number(form.lookback_days),
                ...(e?.retrieval_window.start_date ? { start_date: e.retrieval_window.start_date } : {}),
              },
              ...(form.timezone ? { timezone: form.timezone } : {}),
            },
          },
        }),
      ),
    props.onDone,
  );
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  const err = (f: string) => save.fieldError(`definition.${f}`) ?? save.fieldError(f);
  return (
    <form class="card stack" onSubmit={save.submit} aria-label={e ? `Schedule of ${e.name}` : 'New datastream'}>
      <h2>{e ? `Schedule of ${e.name}` : 'New datastream'}</h2>
      <div class="form-grid">
        <Field label="Name" error={err('name')}>
          {(a) => <input {...a} value={form.name} onInput={set('name')} disabled={!!e} />}
        </Field>
        <Field label="Connection" error={err('connection_ref_id')}>
          {(a) => (
            <select {...a} value={form.connection} onChange={set('connection')} disabled={!!e}>
              <option value="">Choose…</option>
              {connections.data?.connections.map((c) => (
                <option key={c.connection_ref_id} value={c.connection_ref_id}>
                  {c.connection_ref_id} ({c.provider})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Cadence" error={err('cadence')} hint="hourly, daily, weekly, manual or a cron">
          {(a) => <input {...a} value={form.cadence} onInput={set('cadence')} />}
        </Field>
        <Field label="Lookback (days)" error={err('retrieval_window.lookback_days')}>
          {(a) => <input {...a} type="number" min="1" value={form.lookback_days} onInput={set('lookback_days')} />}
        </Field>
        <Field label="Timezone" error={err('timezone')} hint={`default ${project.timezone}`}>
          {(a) => <input {...a} value={form.timezone} onInput={set('timezone')} />}
        </Field>
      </div>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" class="action primary" disabled={save.busy}>
          {e ? 'Save schedule' : 'Create datastream'}
        </button>
        <button type="button" class="action" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Runs() {
  const { project } = useProject();
  const r = useStore(route);
  const datastream = r.query.get('datastream') ?? undefined;
  const runs = useLoad(
    () =>
      ok(
        api.GET('/api/flows/runs', {
          params: {
            query: { project_id: project.id, limit: 100, ...(datastream ? { datastream_id: datastream } : {}) },
          },
        }),
      ),
    [project.id, datastream],
  );
  return (
    <>
      <PageTitle sub={datastream && <span class="mono small">{datastream}</span>}>Runs</PageTitle>
      <ErrorBox error={runs.error} />
      {runs.loading && !runs.data && <Loading what="runs" />}
      <TableWrap>
        <DataTable
          caption={'Run history'}
          columns={[
            'Status',
            'Run',
            'Trigger',
            'Window',
            { num: 'Rows read' },
            { num: 'Rows written' },
            'Queued',
            'Finished',
            'Error',
          ]}
          data-loaded={runs.data ? 'true' : undefined}
        >
          {runs.data?.runs.map((run) => (
            <tr key={run.id}>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td class="mono small">{run.id}</td>
              <td>{run.trigger}</td>
              <td class="small">
                <Day day={run.window.from} /> – <Day day={run.window.to} />
              </td>
              <td class="num">{run.rows_read}</td>
              <td class="num">{run.rows_written}</td>
              <td>
                <Instant at={run.queued_at} />
              </td>
              <td>
                <Instant at={run.finished_at} />
              </td>
              <td class="small prose-cell">{run.error ?? run.waiting_reason ?? ''}</td>
            </tr>
          ))}
        </DataTable>
      </TableWrap>
    </>
  );
}

export const sections = { connections: Connections, datastreams: Datastreams, runs: Runs };
