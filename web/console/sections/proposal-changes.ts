import { api, ok, type Res } from '../api.js';
import { useLoad, useProject } from '../ui.js';
import type { SkillDiff } from './diff-view.js';

// What a proposal changes beyond its body (the proposal answer carries only body diffs),
// computed in the browser from its base version and the service's parse of the proposed body.

type Proposal = Res<'/api/proposals/{id}', 'get'>;

/** What the proposal changes beyond the body, against its base: computed here from the service's parse. */
export function useProposedChanges(p: Proposal | undefined) {
  const { project } = useProject();
  return useLoad(async () => {
    if (!p) return undefined;
    const f = p.fields as Record<string, unknown>;
    const body = String(f.body_md ?? '');
    if (p.kind === 'knowledge') {
      const base = p.base_version
        ? await ok(
            api.GET('/api/knowledge/{topic_id}', {
              params: { path: { topic_id: p.topic_id! }, query: { project_id: project.id, version: p.base_version } },
            }),
          )
        : undefined;
      const fields = (['title', 'owner'] as const)
        .map((k) => ({ field: k, from: base?.[k] ?? null, to: (f[k] as string | null | undefined) ?? null }))
        .filter((c) => c.from !== c.to);
      return { fields };
    }
    const [base, parsed] = await Promise.all([
      p.base_version
        ? ok(
            api.GET('/api/skills/{name}', {
              params: { path: { name: p.name! }, query: { project_id: project.id, version: p.base_version } },
            }),
          )
        : undefined,
      ok(api.POST('/api/skills/parse', { body: { project_id: project.id, body_md: body } })),
    ]);
    const fields = [{ field: 'description', from: base?.description ?? null, to: f.description ?? null }].filter(
      (c) => c.from !== c.to,
    );
    const before = base?.steps.map((s) => s.title) ?? [];
    const after = parsed.steps.map((s) => s.title);
    const steps: SkillDiff['steps'] = [
      ...before
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => !after.includes(t))
        .map(({ t, i }) => step('removed', t, i, null)),
      ...after
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => !before.includes(t))
        .map(({ t, i }) => step('added', t, null, i)),
    ];
    const acceptance = setDiff(base?.acceptance ?? [], (f.acceptance as string[] | undefined) ?? parsed.acceptance);
    const references = setDiff(
      base?.mdm_references ?? [],
      (f.mdm_references as string[] | undefined) ?? parsed.mdm_references,
    );
    return { fields, steps, acceptance, references };
  }, [p?.id, p?.status]);
}

const step = (change: 'added' | 'removed', title: string, from: number | null, to: number | null) => ({
  change,
  title,
  from_index: from,
  to_index: to,
  from_instruction: null,
  to_instruction: null,
});
const setDiff = (a: string[], b: string[]) => ({
  added: b.filter((x) => !a.includes(x)),
  removed: a.filter((x) => !b.includes(x)),
  reordered: false,
});
