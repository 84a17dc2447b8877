import { startView, type ViewProps } from '../../shared/view.js';
import { ScrollRegion } from '../../shared/data-views.js';

interface ProjectsData {
  projects: { id: string; name: string; reporting_currency: string; timezone: string }[];
  next_cursor: string | null;
}

function ProjectsView({ answer }: ViewProps<ProjectsData>) {
  const d = answer.data;
  return (
    <div class="stack">
      <div class="spread">
        <h1>Projects</h1>
        <span class="muted small">
          {d.projects.length} visible{d.next_cursor ? ' (more exist)' : ''}
        </span>
      </div>
      {d.projects.length === 0 ? (
        <p class="notice">You can see no project yet: ask an admin for a grant.</p>
      ) : (
        <ScrollRegion label="Projects you can use">
          <table>
            <caption class="visually-hidden">Projects you can use</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Currency</th>
                <th scope="col">Time zone</th>
              </tr>
            </thead>
            <tbody>
              {d.projects.map((p) => (
                <tr key={p.id}>
                  <th scope="row">{p.name}</th>
                  <td class="mono">{p.id}</td>
                  <td>{p.reporting_currency}</td>
                  <td>{p.timezone}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </div>
  );
}

startView('projects', 'list_projects', ProjectsView);
