import type { ResolvedProject } from '../projects/index.js';
import type { PendingReview } from './documents.authorship.js';
import { pendingSummary } from './documents.authorship.js';
import { provenanceOf } from './documents.provenance.js';

/**
 * The answer a write tool gives when the project reviews agent writes and the write became a
 * proposal. `identity` is the kind's own naming fields (`name`, or `topic_id` and `title`), placed
 * where each kind's acknowledgement schema has them.
 */
export function pendingWriteAnswer(
  resolved: ResolvedProject,
  pending: PendingReview,
  identity: Record<string, string>,
) {
  return {
    kind: 'enveloped' as const,
    summary: pendingSummary(pending),
    projectId: resolved.project.id,
    provenance: provenanceOf(resolved, { agent_writes: resolved.project.agent_writes }),
    data: {
      status: pending.status,
      id: null,
      ...identity,
      version_number: null,
      proposal_id: pending.proposal_id,
      next: pending.next,
    },
  };
}
