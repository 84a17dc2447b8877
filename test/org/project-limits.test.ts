import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startService, type RunningService } from '../support/service.js';

/** The per-project entitlement limits: a new name past the limit is 409; a new version is not. */
describe('per-project limits (context objects, datastreams)', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService('pglite');
    await api(`${service.url}/api/projects`, { method: 'POST', json: { id: 'proj_limits', name: 'Limits' } });
    const put = await api(`${service.url}/api/org/settings`, {
      method: 'PUT',
      json: { limits: { context_objects_per_project: 2, datastreams_per_project: 1 } },
    });
    expect(put.status).toBe(200);
  });
  afterAll(async () => service?.close());

  it('counts skills, knowledge and keys together, and lets existing objects take new versions', async () => {
    const skill = {
      project_id: 'proj_limits',
      name: 'check-spend',
      description: 'Check spend',
      body_md: '1. Look at spend.',
    };
    expect((await api(`${service.url}/api/skills`, { method: 'POST', json: skill })).status).toBe(201);
    expect(
      (
        await api(`${service.url}/api/knowledge`, {
          method: 'POST',
          json: { project_id: 'proj_limits', title: 'ROAS basics', body_md: 'Revenue / spend.' },
        })
      ).status,
    ).toBe(201);
    const third = await api(`${service.url}/api/taxonomy/keys`, {
      method: 'POST',
      json: { project_id: 'proj_limits', key: 'kpi.roas', label: 'ROAS' },
    });
    expect(third.status).toBe(409);
    expect(third.body).toMatchObject({ code: 'limit_exceeded', limit: 'context_objects_per_project', max: 2 });
    const nextVersion = await api(`${service.url}/api/skills`, {
      method: 'POST',
      json: { ...skill, body_md: '1. Look at spend twice.' },
    });
    expect(nextVersion.status).toBe(200);
    expect(nextVersion.body.version).toBe(2);
  });

  it('limits datastreams per project', async () => {
    const conn = await api(`${service.url}/api/credentials`, {
      method: 'POST',
      json: { project_id: 'proj_limits', provider: 'demo', connection_ref_id: 'demo-limits', config: {} },
    });
    expect(conn.status).toBeLessThan(300);
    const ds = (name: string) => ({
      project_id: 'proj_limits',
      kind: 'datastream',
      definition: { name, connection_ref_id: 'demo-limits', provider: 'demo', cadence: 'daily' },
    });
    expect((await api(`${service.url}/api/flows/upsert`, { method: 'POST', json: ds('first') })).status).toBeLessThan(
      300,
    );
    expect((await api(`${service.url}/api/flows/upsert`, { method: 'POST', json: ds('first') })).status).toBeLessThan(
      300,
    );
    const second = await api(`${service.url}/api/flows/upsert`, { method: 'POST', json: ds('second') });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'limit_exceeded', limit: 'datastreams_per_project', max: 1 });
  });
});
