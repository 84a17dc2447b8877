import { useState } from 'preact/hooks';
import { wholeList } from '../pages.js';
import { api, ok, type Res } from '../api.js';
import { ErrorBox, Field, Loading, useLoad, useProject, useSubmit } from '../ui.js';

type Triage = Res<'/api/anomalies/{id}/triage', 'get'>;
type Status = Triage['status'];

const WORD: Record<Status, string> = {
  open: 'open',
  acknowledged: 'acknowledged',
  resolved: 'resolved',
  expected: 'expected (left out of later baselines)',
  false_positive: 'false positive (counted as normal)',
};

/**
 * The anomaly page's triage controls: its status with the moves the service allows,
 * a note, an assignee (a member) and a linked context event. Editors and up change it; others
 * read it. The service validates each field; its answers show next to the field.
 */
export function TriageControls(props: { anomalyId: string; onChanged?: () => void }) {
  const { can } = useProject();
  const triage = useLoad(
    () => ok(api.GET('/api/anomalies/{id}/triage', { params: { path: { id: props.anomalyId } } })),
    [props.anomalyId],
  );
  if (!triage.data) return triage.error ? <ErrorBox error={triage.error} /> : <Loading what="the triage" />;
  return (
    <TriageForm
      key={`${triage.data.status}|${triage.data.updated_at}`}
      t={triage.data}
      editable={can('context.write')}
      onSaved={() => {
        triage.reload();
        props.onChanged?.();
      }}
    />
  );
}

function TriageForm(props: { t: Triage; editable: boolean; onSaved: () => void }) {
  const { project } = useProject();
  const t = props.t;
  const [form, setForm] = useState({
    status: t.status as string,
    note: t.note ?? '',
    assignee: t.assignee ?? '',
    context_event_id: t.context_event_id ?? '',
  });
  const events = useLoad(
    () =>
      wholeList('events', (cursor) =>
        ok(api.GET('/api/context/events', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const save = useSubmit(
    () =>
      ok(
        api.PATCH('/api/anomalies/{id}', {
          params: { path: { id: t.anomaly_id } },
          body: {
            status: form.status as Status,
            note: form.note || null,
            assignee: form.assignee || null,
            context_event_id: form.context_event_id || null,
          },
        }),
      ),
    props.onSaved,
  );
  const set = (k: keyof typeof form) => (ev: { currentTarget: { value: string } }) =>
    setForm({ ...form, [k]: ev.currentTarget.value });
  const who = t.updated_by ? ` by ${t.updated_by}` : '';
  return (
    <form class="stack" onSubmit={save.submit} aria-label="Triage">
      <h3>Triage</h3>
      <p class="small" data-loaded="true">
        Status: <strong>{WORD[t.status]}</strong>
        {t.updated_at ? ` (since ${new Date(t.updated_at).toLocaleString()}${who})` : ' (nobody triaged it yet)'}
      </p>
      {props.editable ? (
        <>
          <div class="form-grid">
            <Field label="Status" error={save.fieldError('status')}>
              {(a) => (
                <select {...a} value={form.status} onChange={set('status')}>
                  {[t.status, ...t.allowed_next].map((s) => (
                    <option key={s} value={s}>
                      {WORD[s]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Assignee (a member)" error={save.fieldError('assignee')}>
              {(a) => <input {...a} value={form.assignee} onInput={set('assignee')} />}
            </Field>
            <Field label="Context event" error={save.fieldError('context_event_id')}>
              {(a) => (
                <select {...a} value={form.context_event_id} onChange={set('context_event_id')}>
                  <option value="">None</option>
                  {(events.data?.events ?? []).map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.event_date} · {e.title}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field label="Note" error={save.fieldError('note')}>
            {(a) => <textarea {...a} class="short" rows={2} value={form.note} onInput={set('note')} />}
          </Field>
          <ErrorBox error={save.error} />
          <div>
            <button type="submit" class="action primary" disabled={save.busy}>
              Save triage
            </button>
          </div>
        </>
      ) : (
        <p class="small">
          {t.note ? `Note: ${t.note}. ` : ''}
          {t.assignee ? `Assignee: ${t.assignee}.` : ''}
        </p>
      )}
    </form>
  );
}
