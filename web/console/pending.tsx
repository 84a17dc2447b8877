import { api, ok } from './api.js';
import { createStore, useStore } from './store.js';
import { useLoad } from './ui.js';

/** Bumped after anything that makes or decides a proposal, so the nav's count is asked again. */
export const proposalsChanged = createStore(0);

/**
 * The number of pending proposals the caller may see (all of the project's for a reviewer, their
 * own for others), next to "Proposals" in the project's nav.
 */
export function PendingCount(props: { projectId: string }) {
  const bump = useStore(proposalsChanged);
  const pending = useLoad(
    () =>
      ok(
        api.GET('/api/proposals', {
          params: { query: { project_id: props.projectId, status: 'pending', limit: 100 } },
        }),
      ),
    [props.projectId, bump],
  );
  const d = pending.data;
  if (!d || d.proposals.length === 0) return null;
  const n = d.next_cursor ? '100+' : String(d.proposals.length);
  return (
    <span class="badge warning" data-testid="pending-count">
      {n}
      <span class="visually-hidden"> pending</span>
    </span>
  );
}
