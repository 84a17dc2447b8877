import { wholeList } from '../pages.js';
import { useState } from 'preact/hooks';
import { api, ok, type Res } from '../api.js';
import { ErrorBox, Field, Loading, PageTitle, useLoad, useProject, useSubmit } from '../ui.js';
import { Day, todayIn } from './common.js';

type Event = Res<'/api/context/events', 'get'>['events'][number];

/** The context events (launches, price changes, tracking breaks) on a timeline, newest first. */
function Events() {
  const { project, can } = useProject();
  const list = useLoad(
    () =>
      wholeList('events', (cursor) =>
        ok(api.GET('/api/context/events', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const [editing, setEditing] = useState<Event | 'new' | null>(null);
  const events = [...(list.data?.events ?? [])].sort((a, b) => b.event_date.localeCompare(a.event_date));
  return (
    <>
      <PageTitle
        sub={
          can('context.write') && (
            <button type="button" class="action" onClick={() => setEditing('new')}>
              New event
            </button>
          )
        }
      >
        Events
      </PageTitle>
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="events" />}
      {editing && (
        <EventForm
          existing={editing === 'new' ? undefined : editing}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ol class="timeline" data-loaded={list.data ? 'true' : undefined} aria-label="Context events">
        {events.map((e) => (
          <li key={e.id} class="card stack">
            <div class="spread">
              <strong>{e.title}</strong>
              <span class="row small">
                <span class="badge">{e.event_type}</span>
                {e.active_today && <span class="badge warning">active today</span>}
              </span>
            </div>
            <div class="muted small">
              <Day day={e.event_date} />
              {e.end_date && (
                <>
                  {' '}
                  – <Day day={e.end_date} />
                </>
              )}{' '}
              · impact window {e.impact_window_days} days, until <Day day={e.active_until} />
            </div>
            {e.description && <p>{e.description}</p>}
            {can('context.write') && (
              <div>
                <button type="button" class="action" onClick={() => setEditing(e)} aria-label={`Edit ${e.title}`}>
                  Edit
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
      {events.length === 0 && list.data && <p class="muted">No context event yet.</p>}
    </>
  );
}

function EventForm(props: { existing?: Event; onDone(): void }) {
  const { project } = useProject();
  const e = props.existing;
  const [form, setForm] = useState({
    event_type: e?.event_type ?? 'campaign_launch',
    title: e?.title ?? '',
    description: e?.description ?? '',
    event_date: e?.event_date ?? todayIn(project.timezone),
    end_date: e?.end_date ?? '',
    impact_window_days: String(e?.impact_window_days ?? 7),
  });
  const body = {
    event_type: form.event_type,
    title: form.title,
    description: form.description,
    event_date: form.event_date,
    end_date: form.end_date || null,
    impact_window_days: Number(form.impact_window_days),
  };
  const save = useSubmit(
    () =>
      e
        ? ok(api.PATCH('/api/context/events/{id}', { params: { path: { id: e.id } }, body }))
        : ok(api.POST('/api/context/events', { body: { project_id: project.id, ...body } })),
    props.onDone,
  );
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  return (
    <form class="card stack" onSubmit={save.submit} aria-label={e ? `Edit ${e.title}` : 'New event'}>
      <h2>{e ? 'Edit event' : 'New event'}</h2>
      <div class="form-grid">
        <Field label="Title" error={save.fieldError('title')}>
          {(a) => <input {...a} value={form.title} onInput={set('title')} />}
        </Field>
        <Field label="Type" error={save.fieldError('event_type')} hint="e.g. campaign_launch, pricing_change">
          {(a) => <input {...a} value={form.event_type} onInput={set('event_type')} />}
        </Field>
        <Field label="Date" error={save.fieldError('event_date')}>
          {(a) => <input {...a} type="date" value={form.event_date} onInput={set('event_date')} />}
        </Field>
        <Field label="End date (optional)" error={save.fieldError('end_date')}>
          {(a) => <input {...a} type="date" value={form.end_date} onInput={set('end_date')} />}
        </Field>
        <Field label="Impact window (days)" error={save.fieldError('impact_window_days')}>
          {(a) => (
            <input {...a} type="number" min="0" value={form.impact_window_days} onInput={set('impact_window_days')} />
          )}
        </Field>
      </div>
      <Field label="Description" error={save.fieldError('description')}>
        {(a) => <textarea {...a} class="short" value={form.description} onInput={set('description')} />}
      </Field>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" class="action primary" disabled={save.busy}>
          {e ? 'Save event' : 'Create event'}
        </button>
        <button type="button" class="action" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export const sections = { events: Events };
