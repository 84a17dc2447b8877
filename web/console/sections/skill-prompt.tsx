import { api, ok } from '../api.js';
import { DataTable, ErrorBox, useLoad, useProject, TableWrap } from '../ui.js';

/** What completion/complete offers for an argument, in words. */
const COMPLETES: Record<string, string> = {
  project: 'your project ids',
  skill: 'Skill names',
  topic: 'Knowledge topic ids',
  business_key: 'business keys',
  metric: 'metric names',
  channel: 'channel names',
  run: 'recent run ids',
};

/**
 * How a Skill appears to MCP clients as a prompt: the name clients offer as a slash
 * command and the arguments it asks for, as the service computes them for the person looking
 * (GET /api/skills/{name}/prompt). It follows the current version, as prompts/list does.
 */
export function SkillPrompt(props: { name: string; version: number }) {
  const { project } = useProject();
  const prompt = useLoad(
    () =>
      ok(
        api.GET('/api/skills/{name}/prompt', {
          params: { path: { name: props.name }, query: { project_id: project.id } },
        }),
      ),
    [props.name, props.version, project.id],
  );
  const p = prompt.data;
  return (
    <section class="card stack" aria-label="As an MCP prompt" data-loaded={p ? 'true' : undefined}>
      <h3>As an MCP prompt</h3>
      <ErrorBox error={prompt.error} />
      {p && (
        <>
          <p class="small">
            Agents&apos; clients offer it as the prompt <code class="mono">{p.name}</code> (“{p.title}”), a slash
            command in Claude Code and VS Code; it hands the model the steps, the acceptance checklist, the business
            keys and the Knowledge they rely on.
          </p>
          {p.arguments.length === 0 ? (
            <p class="muted small">It takes no arguments.</p>
          ) : (
            <TableWrap>
              <DataTable
                caption={`Arguments of the prompt ${p.name}`}
                columns={['Argument', 'Required', 'Completes', 'Description']}
              >
                {p.arguments.map((a) => (
                  <tr key={a.name}>
                    <td class="mono">{a.name}</td>
                    <td>{a.required ? 'yes' : 'no'}</td>
                    <td>{a.complete ? COMPLETES[a.complete] : '—'}</td>
                    <td class="prose-cell">{a.description ?? ''}</td>
                  </tr>
                ))}
              </DataTable>
            </TableWrap>
          )}
          {p.projects.length > 1 && (
            <p class="muted small">One prompt serves your projects that hold this Skill: {p.projects.join(', ')}.</p>
          )}
          <p class="muted small">
            Declare inputs in an <code class="mono">## Arguments</code> section of the body, one bullet each.
          </p>
        </>
      )}
    </section>
  );
}
