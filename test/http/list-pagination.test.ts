import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

// Every REST list answers its named array plus next_cursor (null on the last
// page). Before, GET /api/anomalies, /api/credentials/list and the two version histories answered
// a bare array that stopped (or would grow) without saying so.

/**
 * GET routes whose answer holds an array but is not paginated, each with why (the README's list
 * convention names the same). Anything else with an array must also answer next_cursor.
 */
const NOT_PAGINATED: Record<string, string> = {
  '/api/flows': 'datastreams and report definitions, bounded by the datastreams_per_project entitlement',
  '/api/org/members/{subject}/grants': 'at most one grant per project, bounded by the projects entitlement',
  '/api/org/settings': 'roles: the fixed set of roles',
  '/api/taxonomy': 'a tree, not a list (key_count says its size); /api/taxonomy/keys pages the same keys',
  '/api/search': 'ranked hits cut to limit (max 50); total and truncated say what was left out',
  '/api/skills/{name}/diff': 'one comparison of two versions: at most two fields, the steps of two bodies',
  '/api/knowledge/{topic_id}/diff': 'one comparison of two versions: at most two fields (title, owner)',
  '/api/org/me': "the caller's own grants (one per project) and its token's scopes and permissions",
  '/api/anomalies/series': 'one point per day between from and to, a range the caller chose',
  '/api/skills/{name}/prompt': "one Skill's prompt: at most 11 arguments, and the caller's projects that hold it",
  '/api/anomalies/{id}/explain': "one anomaly's parts (at most 50) and the events active on its days (at most 92)",
  '/api/anomalies/{id}/triage': 'allowed_next: the statuses one anomaly may move to, at most four',
  '/api/anomalies/feedback': 'one row per metric and channel that fired in the last 90 days (9 metrics × channels)',
  '/api/anomalies/feedback/suggestions': 'the fixed candidate settings replayed: at most six',
  '/api/providers': 'the providers this build ships: a fixed catalogue, one entry per provider file',
};

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; anyOf?: Schema[]; $ref?: string };

describe.each(STORES)('every REST list pages [%s]', (store) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startService(store);
  });
  afterAll(async () => service?.close());

  it('each GET answer with an array also declares next_cursor, unless documented as bounded', async () => {
    const doc = (await api(`${service.url}/api/openapi.json`)).body as {
      paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, { schema: Schema }> }> } }>;
      components?: { schemas?: Record<string, Schema> };
    };
    const resolve = (s: Schema): Schema => (s.$ref ? resolve(doc.components!.schemas![s.$ref.split('/').pop()!]!) : s);
    const isArray = (s: Schema): boolean => {
      const r = resolve(s);
      return r.type === 'array' || (Array.isArray(r.type) && r.type.includes('array')) || !!r.anyOf?.some(isArray);
    };
    const unpaged: string[] = [];
    const lists: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const schema = item.get?.responses['200']?.content?.['application/json']?.schema;
      // A path ending in a parameter reads one object (its arrays are its own fields, not a list).
      if (!schema || /\}$/.test(path)) continue;
      const props = resolve(schema).properties ?? {};
      const arrays = Object.keys(props).filter((k) => isArray(props[k]!));
      if (arrays.length === 0) continue;
      lists.push(path);
      if (!('next_cursor' in props) && !(path in NOT_PAGINATED)) unpaged.push(`${path} (${arrays.join(', ')})`);
    }
    expect(unpaged).toEqual([]);
    // The check saw the lists it is about (a document shape change would otherwise pass it vacuously).
    expect(lists).toEqual(
      expect.arrayContaining([
        '/api/anomalies',
        '/api/credentials/list',
        '/api/projects',
        '/api/skills/{name}/versions',
        '/api/knowledge/{topic_id}/versions',
      ]),
    );
  });

  it('version histories and connections page with limit and cursor', async () => {
    const url = service.url;
    const P = 'proj_pages';
    expect((await api(`${url}/api/projects`, { method: 'POST', json: { id: P, name: 'Pages' } })).status).toBe(201);
    for (let v = 1; v <= 5; v += 1) {
      const skill = await api(`${url}/api/skills`, {
        method: 'POST',
        json: { project_id: P, name: 'paged', description: `v${v}`, body_md: '## Steps\n1. Look.' },
      });
      expect(skill.status).toBeLessThan(300);
      const sheet = await api(`${url}/api/knowledge`, {
        method: 'POST',
        json: { project_id: P, topic_id: 'paged', title: `v${v}`, body_md: 'Body.' },
      });
      expect(sheet.status).toBeLessThan(300);
      const conn = await api(`${url}/api/credentials`, {
        method: 'POST',
        json: {
          project_id: P,
          provider: 'demo',
          connection_ref_id: `conn-${v}`,
          config: {},
          secrets: {},
        },
      });
      expect(conn.status).toBeLessThan(300);
    }
    const walk = async (path: string, key: string, field: string) => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const sep = path.includes('?') ? '&' : '?';
        const res = await api(`${url}${path}${sep}limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status, path).toBe(200);
        expect(res.body[key].length).toBeLessThanOrEqual(2);
        seen.push(...res.body[key].map((row: Record<string, unknown>) => row[field]));
        cursor = res.body.next_cursor;
      } while (cursor);
      return seen;
    };
    expect(await walk(`/api/skills/paged/versions?project_id=${P}`, 'versions', 'version')).toEqual([1, 2, 3, 4, 5]);
    expect(await walk(`/api/knowledge/paged/versions?project_id=${P}`, 'versions', 'version_number')).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(await walk(`/api/credentials/list?project_id=${P}`, 'connections', 'connection_ref_id')).toEqual([
      'conn-1',
      'conn-2',
      'conn-3',
      'conn-4',
      'conn-5',
    ]);
  });
});
