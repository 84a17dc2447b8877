import { useState } from 'preact/hooks';
import { channelName, kpiLabel } from '../../shared/kpi.js';
import { api, ok, type Res } from '../api.js';
import { wholeList } from '../pages.js';
import { ErrorBox, Field, Loading, PageTitle, StatusBadge, useLoad, useProject, useSubmit } from '../ui.js';

type Rule = Res<'/api/alerts/rules', 'get'>['rules'][number];
type Source = Rule['on'][number];
type Direction = Rule['filters']['direction'];

const SOURCES: { id: Source; label: string }[] = [
  { id: 'anomaly', label: 'Anomalies' },
  { id: 'data_quality', label: 'Failed data-quality checks' },
  { id: 'run_failed', label: 'Runs that failed after their retries' },
  { id: 'daily_insight', label: 'Daily insight digest' },
];
export const METRICS = ['spend', 'revenue', 'conversions', 'clicks', 'impressions', 'roas', 'cpa', 'ctr', 'cvr'];

export const listRules = (projectId: string) =>
  wholeList('rules', (cursor) =>
    ok(api.GET('/api/alerts/rules', { params: { query: { project_id: projectId, limit: 200, cursor } } })),
  );

function filterSummary(r: Rule): string {
  const f = r.filters;
  const parts = [
    f.metrics?.length ? f.metrics.map(kpiLabel).join(', ') : 'every metric',
    f.channels?.length ? f.channels.map(channelName).join(', ') : 'every channel',
    f.direction === 'both' ? 'spikes and drops' : `${f.direction}s only`,
  ];
  if (f.min_abs_z !== undefined) parts.push(`|z| ≥ ${f.min_abs_z}`);
  if (f.min_score !== undefined) parts.push(`score ≥ ${f.min_score}`);
  if (!f.include_totals) parts.push('no project totals');
  return parts.join(' · ');
}

/** The rules: what is sent where, filtered how, outside which quiet hours. */
export function Rules() {
  const { project, can } = useProject();
  const list = useLoad(() => listRules(project.id), [project.id]);
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  return (
    <>
      <PageTitle
        sub={
          can('admin') && (
            <button type="button" class="action" onClick={() => setEditing('new')}>
              New rule
            </button>
          )
        }
      >
        Alert rules
      </PageTitle>
      <ErrorBox error={list.error} />
      {list.loading && !list.data && <Loading what="rules" />}
      {editing && (
        <RuleForm
          existing={editing === 'new' ? undefined : editing}
          onDone={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ul class="plain stack" data-loaded={list.data ? 'true' : undefined} aria-label="Rules">
        {list.data?.rules.map((r) => (
          <RuleCard key={r.id} r={r} onEdit={() => setEditing(r)} onChanged={list.reload} />
        ))}
      </ul>
      {list.data?.rules.length === 0 && <p class="muted">No rule yet: nothing is sent.</p>}
    </>
  );
}

function RuleCard(props: { r: Rule; onEdit(): void; onChanged(): void }) {
  const { can } = useProject();
  const r = props.r;
  const remove = useSubmit(async () => {
    if (!confirm(`Delete rule ${r.name}? Its delivery log stays.`)) return;
    await ok(api.DELETE('/api/alerts/rules/{id}', { params: { path: { id: r.id } } }));
  }, props.onChanged);
  return (
    <li class="card stack" aria-label={`Rule ${r.name}`}>
      <div class="spread">
        <h2>{r.name}</h2>
        <StatusBadge status={r.enabled ? 'active' : 'disabled'} />
      </div>
      <dl class="facts small">
        <dt>On</dt>
        <dd>{r.on.map((s) => SOURCES.find((x) => x.id === s)?.label ?? s).join(', ')}</dd>
        {r.on.includes('anomaly') && (
          <>
            <dt>Anomalies</dt>
            <dd>{filterSummary(r)}</dd>
          </>
        )}
        <dt>Sends to</dt>
        <dd>{r.destinations.map((d) => `${d.name} (${d.kind})`).join(', ')}</dd>
        <dt>Quiet hours</dt>
        <dd>{r.quiet_hours ? `${r.quiet_hours.from}–${r.quiet_hours.to}, held and sent when they end` : 'none'}</dd>
      </dl>
      {can('admin') && (
        <div class="row">
          <button type="button" class="action" onClick={props.onEdit}>
            Edit
          </button>
          <button type="button" class="action danger" onClick={remove.submit} disabled={remove.busy}>
            Delete
          </button>
        </div>
      )}
      <ErrorBox error={remove.error} />
    </li>
  );
}

function RuleForm(props: { existing?: Rule; onDone(): void }) {
  const { project } = useProject();
  const e = props.existing;
  const destinations = useLoad(
    () =>
      wholeList('destinations', (cursor) =>
        ok(api.GET('/api/alerts/destinations', { params: { query: { project_id: project.id, limit: 200, cursor } } })),
      ),
    [project.id],
  );
  const [form, setForm] = useState({
    name: e?.name ?? '',
    on: new Set<Source>(e?.on ?? ['anomaly']),
    destinations: new Set<string>(e?.destinations.map((d) => d.id) ?? []),
    metrics: new Set<string>(e?.filters.metrics ?? []),
    channels: (e?.filters.channels ?? []).join(', '),
    direction: (e?.filters.direction ?? 'both') as Direction,
    min_abs_z: e?.filters.min_abs_z === undefined ? '' : String(e.filters.min_abs_z),
    min_score: e?.filters.min_score === undefined ? '' : String(e.filters.min_score),
    include_totals: e?.filters.include_totals ?? true,
    quiet: !!e?.quiet_hours,
    from: e?.quiet_hours?.from ?? '22:00',
    to: e?.quiet_hours?.to ?? '07:00',
    enabled: e?.enabled ?? true,
  });
  const toggle = <T,>(set: Set<T>, v: T) => {
    const next = new Set(set);
    if (next.has(v)) next.delete(v);
    else next.add(v);
    return next;
  };
  const save = useSubmit(async () => {
    const body = {
      name: form.name,
      on: [...form.on],
      destinations: [...form.destinations],
      filters: {
        direction: form.direction,
        include_totals: form.include_totals,
        ...(form.metrics.size ? { metrics: [...form.metrics] as never } : {}),
        ...(form.channels.trim()
          ? {
              channels: form.channels
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
        ...(form.min_abs_z !== '' ? { min_abs_z: Number(form.min_abs_z) } : {}),
        ...(form.min_score !== '' ? { min_score: Number(form.min_score) } : {}),
      },
      quiet_hours: form.quiet ? { from: form.from, to: form.to } : null,
      enabled: form.enabled,
    };
    if (e) await ok(api.PATCH('/api/alerts/rules/{id}', { params: { path: { id: e.id } }, body }));
    else await ok(api.POST('/api/alerts/rules', { body: { project_id: project.id, ...body } }));
  }, props.onDone);
  return (
    <form class="card stack" onSubmit={save.submit} aria-label={e ? `Edit ${e.name}` : 'New rule'}>
      <h2>{e ? `Edit ${e.name}` : 'New rule'}</h2>
      <Field label="Name" error={save.fieldError('name')}>
        {(a) => <input {...a} value={form.name} onInput={(ev) => setForm({ ...form, name: ev.currentTarget.value })} />}
      </Field>
      <fieldset>
        <legend>Alert on</legend>
        {SOURCES.map((s) => (
          <label key={s.id} class="row">
            <input
              type="checkbox"
              checked={form.on.has(s.id)}
              onChange={() => setForm({ ...form, on: toggle(form.on, s.id) })}
            />
            {s.label}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Send to</legend>
        <ErrorBox error={destinations.error} />
        {destinations.data?.destinations.map((d) => (
          <label key={d.id} class="row">
            <input
              type="checkbox"
              checked={form.destinations.has(d.id)}
              onChange={() => setForm({ ...form, destinations: toggle(form.destinations, d.id) })}
            />
            {d.name} <span class="muted small">{d.kind}</span>
          </label>
        ))}
        {destinations.data?.destinations.length === 0 && <p class="muted">Create a destination first.</p>}
      </fieldset>
      {form.on.has('anomaly') && (
        <fieldset class="stack">
          <legend>Which anomalies</legend>
          <fieldset class="row">
            <legend class="small">Metrics (none ticked: every metric)</legend>
            {METRICS.map((m) => (
              <label key={m} class="row">
                <input
                  type="checkbox"
                  checked={form.metrics.has(m)}
                  onChange={() => setForm({ ...form, metrics: toggle(form.metrics, m) })}
                />
                {kpiLabel(m)}
              </label>
            ))}
          </fieldset>
          <div class="form-grid">
            <Field label="Channels (comma-separated; empty: all)" error={save.fieldError('filters.channels')}>
              {(a) => (
                <input
                  {...a}
                  value={form.channels}
                  onInput={(ev) => setForm({ ...form, channels: ev.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="Direction">
              {(a) => (
                <select
                  {...a}
                  value={form.direction}
                  onChange={(ev) => setForm({ ...form, direction: ev.currentTarget.value as Direction })}
                >
                  <option value="both">Spikes and drops</option>
                  <option value="spike">Spikes</option>
                  <option value="drop">Drops</option>
                </select>
              )}
            </Field>
            <Field label="Minimum |z|" error={save.fieldError('filters.min_abs_z')}>
              {(a) => (
                <input
                  {...a}
                  type="number"
                  min="0"
                  step="0.1"
                  value={form.min_abs_z}
                  onInput={(ev) => setForm({ ...form, min_abs_z: ev.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              label="Minimum score (0–1)"
              hint="for anomalies that carry a score"
              error={save.fieldError('filters.min_score')}
            >
              {(a) => (
                <input
                  {...a}
                  type="number"
                  min="0"
                  max="1"
                  step="0.05"
                  value={form.min_score}
                  onInput={(ev) => setForm({ ...form, min_score: ev.currentTarget.value })}
                />
              )}
            </Field>
          </div>
          <label class="row">
            <input
              type="checkbox"
              checked={form.include_totals}
              onChange={() => setForm({ ...form, include_totals: !form.include_totals })}
            />
            Include the project totals (all channels)
          </label>
        </fieldset>
      )}
      <fieldset class="stack">
        <legend>Quiet hours ({project.timezone})</legend>
        <label class="row">
          <input type="checkbox" checked={form.quiet} onChange={() => setForm({ ...form, quiet: !form.quiet })} />
          Hold messages during quiet hours and send them when they end
        </label>
        {form.quiet && (
          <div class="form-grid">
            <Field label="From" error={save.fieldError('quiet_hours.from')}>
              {(a) => (
                <input
                  {...a}
                  type="time"
                  value={form.from}
                  onInput={(ev) => setForm({ ...form, from: ev.currentTarget.value })}
                />
              )}
            </Field>
            <Field label="To" error={save.fieldError('quiet_hours.to')}>
              {(a) => (
                <input
                  {...a}
                  type="time"
                  value={form.to}
                  onInput={(ev) => setForm({ ...form, to: ev.currentTarget.value })}
                />
              )}
            </Field>
          </div>
        )}
      </fieldset>
      <label class="row">
        <input type="checkbox" checked={form.enabled} onChange={() => setForm({ ...form, enabled: !form.enabled })} />
        Enabled
      </label>
      <ErrorBox error={save.error} />
      <div class="row">
        <button type="submit" class="action primary" disabled={save.busy}>
          {e ? 'Save rule' : 'Create rule'}
        </button>
        <button type="button" class="action" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
