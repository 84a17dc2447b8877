import { useState } from 'preact/hooks';
import type { Answer } from '../../shared/answer.js';
import { type NextCall, OpenedObject } from '../../shared/context-views.js';
import { fmtNumber } from '../../shared/format.js';
import { startView, type ViewProps } from '../../shared/view.js';

interface Hit {
  kind: 'skill' | 'knowledge' | 'business_key' | string;
  id: string;
  key: string;
  title: string;
  tier: 'title' | 'description' | 'graph-neighbor';
  score: number;
  snippet: string;
  next: NextCall;
}

interface SearchData {
  query: string;
  hits: Hit[];
  total: number;
  total_is_lower_bound: boolean;
  truncated: boolean;
  tiers: Record<string, number>;
}

const TIERS: { tier: Hit['tier']; label: string }[] = [
  { tier: 'title', label: 'Title matches' },
  { tier: 'description', label: 'Description matches' },
  { tier: 'graph-neighbor', label: 'Linked through the taxonomy' },
];

const KIND_LABEL: Record<string, string> = { skill: 'Skill', knowledge: 'Knowledge', business_key: 'Business key' };

function SearchView({ answer, host }: ViewProps<SearchData>) {
  const d = answer.data;
  const [opened, setOpened] = useState<Answer<unknown> | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = async (next: NextCall, label: string) => {
    setBusy(label);
    setError(null);
    try {
      setOpened(await host.call(next.tool, { ...next.arguments, project_id: answer.projectId }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };
  if (opened) {
    return (
      <div class="stack">
        <button type="button" class="action" onClick={() => setOpened(null)}>
          ← Back to {d.hits.length} hits
        </button>
        <OpenedObject answer={opened} host={host} onOpen={(n) => open(n, n.tool)} />
      </div>
    );
  }
  return (
    <div class="stack">
      <div class="spread">
        <h1>
          Search: <q>{d.query}</q>
        </h1>
        <span class="muted small">
          {d.total_is_lower_bound ? 'at least ' : ''}
          {fmtNumber(d.total, host.format)} hit{d.total === 1 ? '' : 's'}
          {d.truncated ? ` (showing ${d.hits.length})` : ''}
        </span>
      </div>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      {d.hits.length === 0 && <p class="notice">No hits. Try a KPI, a channel, a surface or the problem itself.</p>}
      {TIERS.map(({ tier, label }) => {
        const hits = d.hits.filter((h) => h.tier === tier);
        if (hits.length === 0) return null;
        return (
          <section key={tier} aria-label={label}>
            <h2>
              {label} <span class="muted small">({hits.length})</span>
            </h2>
            <ul class="plain stack">
              {hits.map((h) => (
                <li key={`${h.kind}:${h.id}`} class="card">
                  <div class="spread">
                    <button type="button" class="link" onClick={() => open(h.next, h.key)} aria-busy={busy === h.key}>
                      {h.title}
                    </button>
                    <span class="badge info">{KIND_LABEL[h.kind] ?? h.kind}</span>
                  </div>
                  <p class="muted small mono">{h.key}</p>
                  {h.snippet && <p class="small">{h.snippet}</p>}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

startView('search', 'search_context', SearchView);
