import { useState } from 'preact/hooks';
import { ErrorNotice, useToolData } from '../../shared/data-views.js';
import { fmtDay } from '../../shared/format.js';
import { startView, type ViewProps } from '../../shared/view.js';

interface ContextEvent {
  id: string;
  event_type: string;
  title: string;
  description: string;
  event_date: string;
  end_date: string | null;
  impact_window_days: number;
  active_from: string;
  active_until: string;
  active_today: boolean;
}
/** list_context_events answers a page of events; add_context_event the one it stored. */
type EventsData = { events: ContextEvent[]; next_cursor: string | null } | { event: ContextEvent };

function Timeline(props: { events: ContextEvent[]; highlight?: string; host: ViewProps<EventsData>['host'] }) {
  const f = props.host.format;
  const [type, setType] = useState('all');
  const types = [...new Set(props.events.map((e) => e.event_type))].sort();
  const shown = type === 'all' ? props.events : props.events.filter((e) => e.event_type === type);
  return (
    <section class="stack" aria-label="Timeline">
      <div class="spread">
        <h2>Timeline</h2>
        <label class="row small" for="event-type">
          <span class="muted">Type</span>
          <select id="event-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            <option value="all">all ({props.events.length})</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t} ({props.events.filter((e) => e.event_type === t).length})
              </option>
            ))}
          </select>
        </label>
      </div>
      {shown.length === 0 ? (
        <p class="muted small">No context event recorded yet.</p>
      ) : (
        <ol class="timeline">
          {shown.map((e) => (
            <li
              key={e.id}
              class={`${e.active_today ? 'active' : ''} ${e.id === props.highlight ? 'new' : ''}`}
              aria-current={e.id === props.highlight ? 'true' : undefined}
            >
              <div class="row small">
                <time dateTime={e.event_date}>
                  <strong>
                    {fmtDay(e.event_date, f)}
                    {e.end_date && e.end_date !== e.event_date ? ` – ${fmtDay(e.end_date, f)}` : ''}
                  </strong>
                </time>
                <span class="badge">{e.event_type}</span>
                {e.active_today && <span class="badge info">active today</span>}
                {e.id === props.highlight && <span class="badge success">just recorded</span>}
              </div>
              <div>{e.title}</div>
              {e.description && <p class="muted small">{e.description}</p>}
              <p class="muted small">
                Explains data from {fmtDay(e.active_from, f)} to {fmtDay(e.active_until, f)} ({e.impact_window_days} day
                {e.impact_window_days === 1 ? '' : 's'} after it)
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function EventsView({ answer, host }: ViewProps<EventsData>) {
  const d = answer.data;
  const added = 'event' in d ? d.event : null;
  // After an add, the timeline around it comes from the list tool (same gate and permission).
  const list = useToolData<{ events: ContextEvent[] }>(
    host,
    'list_context_events',
    added ? { project_id: answer.projectId } : null,
  );
  const events = added ? (list.data?.events ?? [added]) : 'events' in d ? d.events : [];
  return (
    <div class="stack">
      <div class="spread">
        <h1>Context events</h1>
        <span class="muted small">
          {events.length} event{events.length === 1 ? '' : 's'}
          {'next_cursor' in d && d.next_cursor ? ' (more exist)' : ''}
        </span>
      </div>
      {added && (
        <p class="notice" role="status">
          Recorded “{added.title}” on {fmtDay(added.event_date, host.format)}.
        </p>
      )}
      <ErrorNotice error={list.error} />
      <Timeline events={events} highlight={added?.id} host={host} />
    </div>
  );
}

startView('events', 'list_context_events', EventsView);
