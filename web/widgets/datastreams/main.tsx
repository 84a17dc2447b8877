import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice, messageOf, StatusBadge, ScrollRegion } from '../../shared/data-views.js';
import { fmtDay, fmtInstant, fmtNumber } from '../../shared/format.js';
import { isSettled, MAX_POLLS, pollDelayMs } from '../../shared/series.js';
import { startView, type ViewHost, type ViewProps } from '../../shared/view.js';

interface Datastream {
  id: string;
  name: string;
  provider: string;
  connection_ref_id: string;
  cadence: string | null;
  schedule_source: string;
  next_run_at: string | null;
}
interface Run {
  id: string;
  project_id: string;
  datastream_id: string;
  status: string;
  trigger: string;
  retries_exhausted: boolean;
  attempts: number;
  window: { from: string; to: string };
  rows_read: number;
  rows_written: number;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  waiting_reason: string | null;
  error: string | null;
}
/** list_datastreams answers the list; run_datastream the run it queued (settled when it waited). */
type DatastreamsData = { datastreams: Datastream[] } | { run: Run };

/** Follows a run until it settles: polls get_run_status with backoff, a bounded number of times. */
function RunProgress(props: { run: Run; name?: string; host: ViewHost }) {
  const [run, setRun] = useState(props.run);
  const [error, setError] = useState<string | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const f = props.host.format;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = (attempt: number) => {
      if (attempt >= MAX_POLLS) {
        setGaveUp(true);
        return;
      }
      timer = setTimeout(async () => {
        try {
          const a = await props.host.call<{ run: Run }>('get_run_status', {
            project_id: props.run.project_id,
            run_id: props.run.id,
          });
          if (!live) return;
          setRun(a.data.run);
          setError(null);
          if (!isSettled(a.data.run)) poll(attempt + 1);
        } catch (e) {
          if (!live) return;
          setError(messageOf(e));
          poll(attempt + 1);
        }
      }, pollDelayMs(attempt));
    };
    if (!isSettled(props.run)) poll(0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.run.id]);
  const settled = isSettled(run);
  return (
    <section class="card stack" aria-label={`Run ${run.id}`}>
      <div class="spread">
        <h2>Run of {props.name ?? run.datastream_id}</h2>
        <span role="status" aria-live="polite">
          <StatusBadge status={run.status} />
          {run.status === 'failed' && !run.retries_exhausted ? ' (retrying)' : ''}
        </span>
      </div>
      {!settled && !gaveUp && <progress aria-label={`Run ${run.status}`} />}
      <dl class="facts small">
        <dt class="muted">Window</dt>
        <dd>
          {fmtDay(run.window.from, f)} – {fmtDay(run.window.to, f)}
        </dd>
        <dt class="muted">Rows read</dt>
        <dd>{fmtNumber(run.rows_read, f)}</dd>
        <dt class="muted">Rows written</dt>
        <dd>{fmtNumber(run.rows_written, f)}</dd>
        <dt class="muted">Attempts</dt>
        <dd>{run.attempts}</dd>
        <dt class="muted">Queued</dt>
        <dd>{fmtInstant(run.queued_at, f)}</dd>
        {run.finished_at && (
          <>
            <dt class="muted">Finished</dt>
            <dd>{fmtInstant(run.finished_at, f)}</dd>
          </>
        )}
      </dl>
      {run.waiting_reason && <p class="notice small">Waiting: {run.waiting_reason}</p>}
      {run.error && (
        <p class="notice error small">
          {run.error}
          {run.retries_exhausted ? ' (retries exhausted)' : ''}
        </p>
      )}
      {gaveUp && !settled && (
        <p class="notice small">Still {run.status} after a long wait; the run goes on without this view.</p>
      )}
      <ErrorNotice error={error} />
    </section>
  );
}

function DatastreamsView({ answer, host }: ViewProps<DatastreamsData>) {
  const d = answer.data;
  const f = host.format;
  const [started, setStarted] = useState<{ run: Run; name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if ('run' in d) {
    return (
      <div class="stack">
        <h1>Datastream run</h1>
        <RunProgress run={d.run} host={host} />
      </div>
    );
  }
  const runNow = async (ds: Datastream) => {
    setBusy(ds.id);
    setError(null);
    try {
      const a = await host.call<{ run: Run }>('run_datastream', {
        project_id: answer.projectId,
        datastream: ds.id,
        wait: false,
      });
      setStarted({ run: a.data.run, name: ds.name });
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div class="stack">
      <div class="spread">
        <h1>Datastreams</h1>
        <span class="muted small">{d.datastreams.length} in this project</span>
      </div>
      {d.datastreams.length === 0 ? (
        <p class="notice">No datastream yet: create one with POST /api/flows/upsert.</p>
      ) : (
        <ScrollRegion label="Datastreams">
          <table>
            <caption class="visually-hidden">Datastreams</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Provider</th>
                <th scope="col">Cadence</th>
                <th scope="col">Next run</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {d.datastreams.map((ds) => (
                <tr key={ds.id}>
                  <td>
                    {ds.name}
                    <div class="muted small mono">{ds.id}</div>
                  </td>
                  <td>
                    {ds.provider} <span class="muted small">({ds.connection_ref_id})</span>
                  </td>
                  <td>{ds.cadence ?? 'nightly default'}</td>
                  <td class="small">{ds.next_run_at ? fmtInstant(ds.next_run_at, f) : 'manual only'}</td>
                  <td>
                    <button type="button" class="action" disabled={busy === ds.id} onClick={() => runNow(ds)}>
                      Run <span class="visually-hidden">{ds.name} </span>now
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <ErrorNotice error={error} />
      {started && <RunProgress key={started.run.id} run={started.run} name={started.name} host={host} />}
    </div>
  );
}

startView('datastreams', 'list_datastreams', DatastreamsView);
