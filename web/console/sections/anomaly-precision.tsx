import { useState } from 'preact/hooks';
import { fmtNumber } from '../../shared/format.js';
import { api, ok, type Res } from '../api.js';
import { DataTable, ErrorBox, Loading, useLoad, useProject, useSubmit, TableWrap } from '../ui.js';
import { metricLabel } from './common.js';

type Suggestion = Res<'/api/anomalies/feedback/suggestions', 'get'>['candidates'][number];

/**
 * How precise surveillance was, by what people triaged, and what candidate
 * settings would have done to the same 90 days (a replay through the evaluator, nothing written).
 * An admin applies a candidate: the existing PUT of the anomaly settings.
 */
export function PrecisionPanel() {
  const { project, format, can } = useProject();
  const table = useLoad(
    () => ok(api.GET('/api/anomalies/feedback', { params: { query: { project_id: project.id } } })),
    [project.id],
  );
  const [asked, setAsked] = useState(false);
  const [applied, setApplied] = useState<string | null>(null);
  const suggestions = useLoad(
    () =>
      asked
        ? ok(api.GET('/api/anomalies/feedback/suggestions', { params: { query: { project_id: project.id } } }))
        : Promise.resolve(null),
    [project.id, asked],
  );
  const pct = (x: number | null) => (x === null ? '–' : `${fmtNumber(x * 100, format, 0)} %`);
  const rows = table.data?.rows ?? [];
  return (
    <div class="stack">
      <ErrorBox error={table.error} />
      {table.loading && !table.data && <Loading what="the precision table" />}
      {table.data && (
        <p class="small">
          Anomalies from {table.data.from} to {table.data.to}; precision counts the triaged ones: confirmed
          (acknowledged, resolved, expected) over confirmed and false positives.
        </p>
      )}
      <TableWrap>
        <DataTable
          caption="Precision per metric and channel"
          columns={[
            'Metric',
            { num: 'Fired' },
            { num: 'Triaged' },
            { num: 'False positives' },
            { num: 'Confirmed' },
            { num: 'Precision' },
          ]}
          data-loaded={table.data ? 'true' : undefined}
        >
          {rows.map((r) => (
            <tr key={`${r.metric}|${r.channel}`}>
              <td>{metricLabel(r.metric, r.channel)}</td>
              <td class="num">{r.fired}</td>
              <td class="num">{r.triaged}</td>
              <td class="num">{r.false_positives}</td>
              <td class="num">{r.confirmed}</td>
              <td class="num">{pct(r.precision)}</td>
            </tr>
          ))}
        </DataTable>
      </TableWrap>
      {table.data && rows.length === 0 && <p class="muted">Nothing fired in the last 90 days.</p>}
      <div>
        <button type="button" class="action" disabled={asked && suggestions.loading} onClick={() => setAsked(true)}>
          Suggest settings
        </button>
      </div>
      <ErrorBox error={suggestions.error} />
      {asked && suggestions.loading && !suggestions.data && <Loading what="the replays" />}
      {suggestions.data && (
        <section class="stack" aria-label="Suggested settings">
          <h3>Suggested settings</h3>
          <p class="small">
            {suggestions.data.false_positives} false positive(s) and {suggestions.data.confirmed} confirmed anomal
            {suggestions.data.confirmed === 1 ? 'y' : 'ies'} triaged; the current settings fire{' '}
            {suggestions.data.current.fired} anomalies over the period.
          </p>
          {applied && (
            <p class="notice" role="status">
              Applied: {applied}. Re-evaluate past days from the Settings tab to see them under it.
            </p>
          )}
          <TableWrap>
            <DataTable
              caption="Candidate settings replayed over the period"
              columns={[
                'Candidate',
                { num: 'Fired' },
                { num: 'False positives silenced' },
                { num: 'Confirmed still fired' },
                '',
              ]}
              data-loaded="true"
            >
              {suggestions.data.candidates.map((c) => (
                <tr key={c.label}>
                  <td>{c.label}</td>
                  <td class="num">{c.fired}</td>
                  <td class="num">{c.false_positives_silenced}</td>
                  <td class="num">
                    {c.confirmed_still_fired} of {c.confirmed_still_fired + c.confirmed_missed}
                  </td>
                  <td>{can('admin') && <ApplyButton c={c} onApplied={() => setApplied(c.label)} />}</td>
                </tr>
              ))}
            </DataTable>
          </TableWrap>
        </section>
      )}
    </div>
  );
}

function ApplyButton(props: { c: Suggestion; onApplied: () => void }) {
  const { project } = useProject();
  const apply = useSubmit(
    () =>
      ok(
        api.PUT('/api/anomalies/settings', {
          params: { query: { project_id: project.id } },
          body: props.c.settings,
        }),
      ),
    props.onApplied,
  );
  return (
    <>
      <button
        type="button"
        class="action"
        disabled={apply.busy}
        aria-label={`Apply ${props.c.label}`}
        onClick={() => apply.submit()}
      >
        Apply
      </button>
      <ErrorBox error={apply.error} />
    </>
  );
}
