import type { ResolvedProject } from '../projects/index.js';

/** What every context tool puts in the envelope's provenance: where the answer came from. */
export function provenanceOf(resolved: ResolvedProject, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { source: 'context_hub', project_resolved_from: resolved.resolvedFrom, ...extra };
}
