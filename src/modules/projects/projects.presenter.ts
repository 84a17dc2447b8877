import type { ProjectRow } from './projects.repo.js';
import type { ProjectOutput } from './projects.schemas.js';

export function presentProject(row: ProjectRow): ProjectOutput {
  return {
    id: row.id,
    name: row.name,
    reporting_currency: row.reporting_currency.trim(),
    timezone: row.timezone,
    agent_writes: row.agent_writes,
  };
}
