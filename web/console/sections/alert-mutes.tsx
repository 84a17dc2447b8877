import { useState } from 'preact/hooks';
import { channelName, kpiLabel } from '../../shared/kpi.js';
import { api, ok, type Res } from '../api.js';
import { wholeList } from '../pages.js';
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
import { listRules, METRICS } from './alert-rules.js';
import { Day, todayIn } from './common.js';

type Mute = Res<'/api/alerts/mutes', 'get'>['mutes'][number];

/** Mutes: a metric and/or channel silenced until a day (editors may mute). */
export function Mutes() {
  const { project, can } = useProject();
  const list = useLoad(
    () =>
      wholeList('mutes', (cursor) =>
        ok(api.GET('/api/alerts/mutes', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const rules = useLoad(() => listRules(project.id), [project.id]);
  const [form, setForm] = useState({
    metric: '',
    channel: '',
    until: todayIn(project.timezone),
    rule_id: '',
    reason: '',
  });
  const add = useSubmit(
    () =>
      ok(
        api.POST('/api/alerts/mutes', {
          body: {
            project_id: project.id,
            until: form.until,
            reason: form.reason,
            ...(form.metric ? { metric: form.metric as never } : {}),
            ...(form.channel.trim() ? { channel: form.channel.trim() } : {}),
            ...(form.rule_id ? { rule_id: form.rule_id } : {}),
          },
        }),
      ),
    list.reload,
  );
  const ruleName = (id: string | null) =>
    id ? (rules.data?.rules.find((r) => r.id === id)?.name ?? id) : 'every rule';
  return (
    <>
      <PageTitle>Mutes</PageTitle>
      {can('context.write') && (
        <form class="card stack" onSubmit={add.submit} aria-label="New mute">
          <h2>Mute a metric or channel</h2>
          <div class="form-grid">
            <Field label="Metric" error={add.fieldError('metric')}>
              {(a) => (
                <select
                  {...a}
                  value={form.metric}
                  onChange={(ev) => setForm({ ...form, metric: ev.currentTarget.value })}
                >
                  <option value="">Any metric</option>
                  {METRICS.map((m) => (
                    <option key={m} value={m}>
                      {kpiLabel(m)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Channel" hint="empty: any channel" error={add.fieldError('channel')}>
              {(a) => (
                <input
                  {...a}
                  value={form.channel}
                  onInput={(ev) => setForm({ ...form, channel: ev.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="Until (inclusive)" error={add.fieldError('until')}>
              {(a) => (
                <input
                  {...a}
                  type="date"
                  value={form.until}
                  onInput={(ev) => setForm({ ...form, until: ev.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="Rule">
              {(a) => (
                <select
                  {...a}
                  value={form.rule_id}
                  onChange={(ev) => setForm({ ...form, rule_id: ev.currentTarget.value })}
                >
                  <option value="">Every rule</option>
                  {rules.data?.rules.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Reason" error={add.fieldError('reason')}>
              {(a) => (
                <input
                  {...a}
                  value={form.reason}
                  onInput={(ev) => setForm({ ...form, reason: ev.currentTarget.value })}
                />
              )}
            </Field>
          </div>
          <ErrorBox error={add.error} />
          <div>
            <button type="submit" class="action primary" disabled={add.busy}>
              Mute
            </button>
          </div>
        </form>
      )}
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="mutes" />}
      <TableWrap hidden={list.data?.mutes.length === 0}>
        <DataTable
          caption="Mutes"
          columns={['Metric', 'Channel', 'Rule', 'Until', 'Status', 'Reason', '']}
          data-loaded={list.data ? 'true' : undefined}
        >
          {list.data?.mutes.map((m) => (
            <tr key={m.id}>
              <td>{m.metric ? kpiLabel(m.metric) : 'any'}</td>
              <td>{m.channel ? channelName(m.channel) : 'any'}</td>
              <td>{ruleName(m.rule_id)}</td>
              <td>
                <Day day={m.until} />
              </td>
              <td>
                <StatusBadge status={m.active ? 'active' : 'ended'} />
              </td>
              <td class="prose-cell">{m.reason}</td>
              <td>{can('context.write') && m.active && <EndMute m={m} onDone={list.reload} />}</td>
            </tr>
          ))}
        </DataTable>
      </TableWrap>
      {list.data?.mutes.length === 0 && <p class="muted">Nothing is muted.</p>}
    </>
  );
}

function EndMute(props: { m: Mute; onDone(): void }) {
  const { m } = props;
  const end = useSubmit(
    () => ok(api.DELETE('/api/alerts/mutes/{id}', { params: { path: { id: m.id } } })),
    props.onDone,
  );
  const what = [m.metric && kpiLabel(m.metric), m.channel && channelName(m.channel)].filter(Boolean).join(' on ');
  return (
    <>
      <button
        type="button"
        class="action"
        onClick={end.submit}
        disabled={end.busy}
        aria-label={`End now: the mute of ${what}`}
      >
        End now
      </button>
      <ErrorBox error={end.error} />
    </>
  );
}
