import { useState } from 'preact/hooks';
import { ErrorNotice, messageOf, StatusBadge } from '../../shared/data-views.js';
import type { ViewHost } from '../../shared/view.js';

/**
 * The selected anomaly's triage buttons. They call the app-only tool
 * triage_anomaly_from_view, which passes the same permission check as triage_anomaly: a viewer
 * sees the service's refusal, not a hidden button. Which buttons show follows the service's
 * transitions (docs/api.md "Triage"); the answer's allowed_next replaces them after each change.
 */
export type TriageStatus = 'open' | 'acknowledged' | 'resolved' | 'expected' | 'false_positive';

const NEXT: Record<TriageStatus, TriageStatus[]> = {
  open: ['acknowledged', 'resolved', 'expected', 'false_positive'],
  acknowledged: ['resolved', 'expected', 'false_positive', 'open'],
  resolved: ['open'],
  expected: ['open'],
  false_positive: ['open'],
};

const LABEL: Record<TriageStatus, string> = {
  open: 'Reopen',
  acknowledged: 'Acknowledge',
  resolved: 'Resolve',
  expected: 'Expected',
  false_positive: 'False positive',
};

const WORD: Record<TriageStatus, string> = {
  open: 'open',
  acknowledged: 'acknowledged',
  resolved: 'resolved',
  expected: 'expected',
  false_positive: 'false positive',
};

export function TriageButtons(props: { anomalyId: string; status: TriageStatus; host: ViewHost }) {
  const [status, setStatus] = useState<TriageStatus>(props.status);
  const [allowed, setAllowed] = useState<TriageStatus[]>(NEXT[props.status]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const set = async (to: TriageStatus) => {
    setBusy(true);
    setError(null);
    try {
      const a = await props.host.call<{ triage: { status: TriageStatus; allowed_next: TriageStatus[] } }>(
        'triage_anomaly_from_view',
        { anomaly_id: props.anomalyId, status: to },
      );
      setStatus(a.data.triage.status);
      setAllowed(a.data.triage.allowed_next);
      setSaid(`Marked ${WORD[a.data.triage.status]}.`);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="stack" aria-label="Triage">
      <div class="row">
        <span class="small">Triage:</span> <StatusBadge status={WORD[status]} />
        {allowed.map((to) => (
          <button key={to} type="button" class="action" disabled={busy} onClick={() => set(to)}>
            {LABEL[to]}
          </button>
        ))}
      </div>
      <p class="visually-hidden" aria-live="polite">
        {said ?? ''}
      </p>
      <ErrorNotice error={error} />
    </section>
  );
}
