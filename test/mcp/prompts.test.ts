import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_TEXT_MAX } from '../../src/modules/skills/index.js';
import { TestIdp } from '../support/auth/idp.js';
import { connectLegacy, connectModern, connectSse } from '../support/mcp-clients.js';
import { api, startService, type RunningService } from '../support/service.js';
import { STORES } from '../support/stores.js';

const DEMO = 'proj_demo';
const ALPHA = 'proj_alpha';

interface PromptMeta {
  skill: string;
  project_id: string;
  chars: number;
  truncated: boolean;
  left_out: Record<string, number>;
}
const metaOf = (result: { _meta?: Record<string, unknown> }) => result._meta?.['service.prompt'] as PromptMeta;
const textOf = (result: { messages: { content: { type: string; text?: string } }[] }) =>
  result.messages.map((m) => m.content.text ?? '').join('\n');

/** The JSON-RPC error a refused request throws in the client: its code, message and data. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string; data?: { code?: string } }> {
  try {
    await call;
  } catch (error) {
    const e = error as { code: number; message: string; data?: { code?: string } };
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('the request was not refused');
}

describe.each(STORES)('Skills as MCP prompts, and completion [%s]', (store) => {
  let idp: TestIdp;
  let service: RunningService;
  let owner: string;
  /** A member with a grant on proj_alpha only. */
  let ann: string;

  const post = (path: string, json: unknown) =>
    api(`${service.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${owner}` }, json });

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService(store, {
      demo: true,
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
    });
    owner = await idp.token('owner-1');
    expect((await post('/api/projects', { id: ALPHA, name: 'Alpha' })).status).toBe(201);
    const member = await post('/api/org/members', {
      subject: 'ann',
      role: 'viewer',
      grants: [{ project_id: ALPHA, role: 'viewer' }],
    });
    expect(member.status).toBe(201);
    ann = await idp.token('ann');
    // The same name as a demo Skill (one prompt for both projects), and one that declares inputs.
    for (const skill of [
      {
        name: 'weekly-performance-review',
        description: "Alpha's weekly review.",
        body_md: '## Steps\n1. Collect the KPIs.\n2. Write three actions.\n',
      },
      {
        name: 'alpha-check',
        description: 'Check a channel of Alpha.',
        body_md: '# Alpha channel check\n\n## Steps\n1. Look at [[kpi.roas]] on the channel.\n',
        metadata: {
          arguments: [
            { name: 'channel', description: 'The channel to check.', required: true },
            { name: 'key', complete: 'business_key' },
            'note',
            { name: 'project_id' },
            { name: 'Bad Name' },
          ],
        },
      },
    ]) {
      expect((await post('/api/skills', { project_id: ALPHA, ...skill })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  async function allPrompts(client: { listPrompts(p?: { cursor?: string }): Promise<unknown> }) {
    const prompts: { name: string; title?: string; arguments?: { name: string; required?: boolean }[] }[] = [];
    let cursor: string | undefined;
    do {
      const page = (await client.listPrompts(cursor ? { cursor } : undefined)) as {
        prompts: typeof prompts;
        nextCursor?: string;
      };
      prompts.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor);
    return prompts;
  }

  it('lists one prompt per Skill the caller may read, the same in every era', async () => {
    const modern = await connectModern(service.url, owner);
    const { client: legacy } = await connectLegacy(service.url, owner);
    const sse = await connectSse(service.url, owner);
    try {
      const listed = await allPrompts(modern);
      expect(await allPrompts(legacy)).toEqual(listed);
      expect(await allPrompts(sse)).toEqual(listed);
      const names = listed.map((p) => p.name);
      for (const name of ['investigate-roas-drop', 'weekly-performance-review', 'explain-todays-anomalies']) {
        expect(names).toContain(name);
      }
      expect(names.filter((n) => n === 'weekly-performance-review')).toHaveLength(1);
      const byName = new Map(listed.map((p) => [p.name, p]));
      expect(byName.get('investigate-roas-drop')?.title).toBe('Investigate a ROAS drop');
      // The owner sees two projects: every prompt takes project_id, required where both hold the Skill.
      const projectArg = (name: string) => byName.get(name)?.arguments?.find((a) => a.name === 'project_id');
      expect(projectArg('weekly-performance-review')?.required).toBe(true);
      expect(projectArg('investigate-roas-drop')?.required).toBe(false);
      expect(byName.get('explain-todays-anomalies')?.arguments?.map((a) => a.name)).toEqual([
        'project_id',
        'date',
        'metric',
        'channel',
      ]);
      // Declared inputs are read leniently: project_id and a malformed name are skipped.
      expect(byName.get('alpha-check')?.arguments).toEqual([
        { name: 'project_id', description: expect.stringContaining(ALPHA), required: false },
        { name: 'channel', description: 'The channel to check.', required: true },
        { name: 'key', required: false },
        { name: 'note', required: false },
      ]);
    } finally {
      await modern.close();
      await legacy.close();
      await sse.close();
    }
  });

  it('pages the list like every list; a cursor it did not issue is invalid params', async () => {
    const many = 'proj_many';
    expect((await post('/api/projects', { id: many, name: 'Many' })).status).toBe(201);
    for (let i = 0; i < 55; i++) {
      const name = `zz-step-${String(i).padStart(2, '0')}`;
      const created = await post('/api/skills', {
        project_id: many,
        name,
        description: `Procedure ${i}.`,
        body_md: '## Steps\n1. Do it.\n',
      });
      expect(created.status).toBe(201);
    }
    const client = await connectModern(service.url, owner);
    // The v1 client answers one page per call; the v2 client follows the cursors itself.
    const { client: legacy } = await connectLegacy(service.url, owner);
    try {
      const first = await legacy.listPrompts();
      expect(first.prompts).toHaveLength(50);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await client.listPrompts({ cursor: first.nextCursor! });
      expect(second.prompts[0]!.name > first.prompts[49]!.name).toBe(true);
      const all = await allPrompts(legacy);
      expect((await client.listPrompts()).prompts).toEqual(all);
      const names = all.map((p) => p.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((n) => n.startsWith('zz-step-'))).toHaveLength(55);
      expect(names).toEqual([...names].sort());
      const bad = await refusal(client.listPrompts({ cursor: 'not-a-cursor' }));
      expect(bad.code).toBe(-32602);
      expect(bad.data?.code).toBe('validation_failed');
    } finally {
      await client.close();
      await legacy.close();
    }
  });

  it('prompts/get hands the model the steps, checklist, keys with labels and Knowledge to read', async () => {
    const client = await connectModern(service.url, owner);
    try {
      const got = await client.getPrompt({ name: 'investigate-roas-drop', arguments: { project_id: DEMO } });
      const text = textOf(got);
      expect(text).toMatch(/^Follow the procedure "Investigate a ROAS drop" \(Skill investigate-roas-drop/);
      expect(text).toContain('\n1. **Confirm the drop is real**: compare the last 7 complete days');
      expect(text).toContain('\n8. **Write the finding**');
      expect(text).toContain('- [ ] Tracking was ruled in or out with a backend comparison.');
      expect(text).toContain('- kpi.roas: ROAS');
      expect(text).toMatch(/- roas-definition: How we compute ROAS \(explains kpi\.roas\)/);
      expect(text).toContain('get_knowledge');
      expect(metaOf(got)).toMatchObject({ skill: 'investigate-roas-drop', project_id: DEMO, truncated: false });
      expect(got.messages[0]!.role).toBe('user');
      // The 2025-era client (v1 SDK) and the HTTP+SSE transport get the same prompt.
      const { client: legacy } = await connectLegacy(service.url, owner);
      const sse = await connectSse(service.url, owner);
      try {
        for (const other of [legacy, sse]) {
          const same = await other.getPrompt({ name: 'investigate-roas-drop', arguments: { project_id: DEMO } });
          expect(same.messages).toEqual(got.messages);
          expect(same.description).toBe(got.description);
        }
      } finally {
        await legacy.close();
        await sse.close();
      }
      // Held by one project only, the prompt needs no project_id; in two, it must be named.
      expect(metaOf(await client.getPrompt({ name: 'investigate-roas-drop' })).project_id).toBe(DEMO);
      const ambiguous = await refusal(client.getPrompt({ name: 'weekly-performance-review' }));
      expect(ambiguous).toMatchObject({ code: -32602, data: { code: 'project_required' } });
      expect(ambiguous.message).toContain(`${ALPHA}, ${DEMO}`);
      const alpha = await client.getPrompt({ name: 'weekly-performance-review', arguments: { project_id: ALPHA } });
      expect(textOf(alpha)).toContain("Alpha's weekly review.");
      // A console URL names the project, as a tool's project_id does.
      const viaUrl = await client.getPrompt({
        name: 'weekly-performance-review',
        arguments: { project_id: `https://hub.example.com/console/${ALPHA}/skills` },
      });
      expect(metaOf(viaUrl).project_id).toBe(ALPHA);
    } finally {
      await client.close();
    }
  });

  it('takes the inputs a Skill declares; refuses a missing required or unknown one with what it takes', async () => {
    const client = await connectModern(service.url, owner);
    try {
      const got = await client.getPrompt({
        name: 'explain-todays-anomalies',
        arguments: { project_id: DEMO, metric: 'roas', channel: '' },
      });
      expect(textOf(got)).toContain('\nInputs:\n- metric: roas\n');
      expect(textOf(got)).not.toContain('- channel:');
      const unknown = await refusal(
        client.getPrompt({ name: 'explain-todays-anomalies', arguments: { project_id: DEMO, colour: 'red' } }),
      );
      expect(unknown).toMatchObject({ code: -32602, data: { code: 'prompt_arguments_invalid' } });
      expect(unknown.message).toContain('it takes: project_id, date, metric, channel');
      const missing = await refusal(client.getPrompt({ name: 'alpha-check', arguments: { project_id: ALPHA } }));
      expect(missing).toMatchObject({ code: -32602, data: { code: 'prompt_arguments_invalid' } });
      expect(missing.message).toContain('channel');
      const alpha = await client.getPrompt({ name: 'alpha-check', arguments: { channel: 'paid_social' } });
      // kpi.roas is not in Alpha's taxonomy: it is named, and said to be missing.
      expect(textOf(alpha)).toContain('- kpi.roas: (not in the taxonomy yet)');
      expect(metaOf(alpha).project_id).toBe(ALPHA);
    } finally {
      await client.close();
    }
  });

  it('bounds what prompts/get hands over, says what it left out and where the whole Skill is', async () => {
    const long = 'Measure and compare carefully. '.repeat(70);
    const body = `## Steps\n${Array.from({ length: 60 }, (_, i) => `${i + 1}. **Step ${i + 1}**: ${long}`).join('\n')}\n`;
    expect(
      (await post('/api/skills', { project_id: ALPHA, name: 'huge-procedure', description: 'Huge.', body_md: body }))
        .status,
    ).toBe(201);
    const client = await connectModern(service.url, owner);
    try {
      const got = await client.getPrompt({ name: 'huge-procedure' });
      const text = textOf(got);
      expect(Array.from(text).length).toBeLessThanOrEqual(PROMPT_TEXT_MAX);
      const meta = metaOf(got);
      expect(meta.truncated).toBe(true);
      expect(meta.chars).toBe(Array.from(text).length);
      expect(meta.left_out.steps).toBeGreaterThan(0);
      expect(meta.left_out.step_instructions_cut).toBe(60 - meta.left_out.steps);
      expect(text).toContain('\n1. **Step 1**: Measure');
      expect(text.split('\n').at(-1)).toMatch(
        new RegExp(
          `^Left out to stay within 16,000 characters: steps ${61 - meta.left_out.steps}–60 of 60, the end of \\d+ long step instruction\\(s\\)\\. get_procedure \\{"name": "huge-procedure", "project_id": "${ALPHA}"\\} gives the whole Skill\\.$`,
        ),
      );
    } finally {
      await client.close();
    }
  });

  it('a member without a grant sees neither the prompts nor the completions of that project', async () => {
    const client = await connectModern(service.url, ann);
    const { client: legacy } = await connectLegacy(service.url, ann);
    try {
      const names = (await allPrompts(client)).map((p) => p.name);
      expect(names).toContain('alpha-check');
      expect(names).toContain('weekly-performance-review');
      expect(names).not.toContain('investigate-roas-drop');
      expect(names).not.toContain('explain-todays-anomalies');
      expect((await allPrompts(legacy)).map((p) => p.name)).toEqual(names);
      // One project visible: no project_id argument.
      const review = (await client.listPrompts()).prompts.find((p) => p.name === 'weekly-performance-review')!;
      expect(review.arguments ?? []).toEqual([]);
      // A demo Skill is "not found", exactly as a name that exists nowhere.
      const hidden = await refusal(client.getPrompt({ name: 'investigate-roas-drop' }));
      const nowhere = await refusal(client.getPrompt({ name: 'no-such-skill' }));
      expect(hidden).toEqual({
        ...nowhere,
        message: nowhere.message.replace('no-such-skill', 'investigate-roas-drop'),
      });
      expect(hidden.code).toBe(-32602);
      const demoCopy = await refusal(
        client.getPrompt({ name: 'weekly-performance-review', arguments: { project_id: DEMO } }),
      );
      expect(demoCopy).toMatchObject({ code: -32602, data: { code: 'project_forbidden' } });
      expect(textOf(await client.getPrompt({ name: 'weekly-performance-review' }))).toContain("Alpha's weekly");

      const complete = (ref: Parameters<ModernClient['complete']>[0]['ref'], name: string, value: string, args = {}) =>
        client.complete({ ref, argument: { name, value }, context: { arguments: args } });
      for (const uri of ['project://{project_id}', 'insight://{project_id}/latest']) {
        expect((await complete({ type: 'ref/resource', uri }, 'project_id', '')).completion.values).toEqual([ALPHA]);
      }
      expect(
        (await complete({ type: 'ref/prompt', name: 'weekly-performance-review' }, 'project_id', 'proj')).completion
          .values,
      ).toEqual([ALPHA]);
      // The demo's business keys through a prompt argument of Alpha's: nothing, as for a project that does not exist.
      const demoKeys = await complete({ type: 'ref/prompt', name: 'alpha-check' }, 'key', 'kpi', { project_id: DEMO });
      const noneKeys = await complete({ type: 'ref/prompt', name: 'alpha-check' }, 'key', 'kpi', {
        project_id: 'proj_nowhere',
      });
      expect(demoKeys.completion).toEqual({ values: [], total: 0, hasMore: false });
      expect(noneKeys.completion).toEqual(demoKeys.completion);
      const hiddenPrompt = await refusal(
        complete({ type: 'ref/prompt', name: 'explain-todays-anomalies' }, 'metric', ''),
      );
      expect(hiddenPrompt.code).toBe(-32602);
    } finally {
      await client.close();
      await legacy.close();
    }
  });

  it('completes arguments and template variables: prefix first, then similarity, at most 100', async () => {
    // Channels come from the project's KPI rows; 120 keys overflow one answer.
    await service.store.db.query(
      `INSERT INTO kpis_daily (project_id, date, channel, currency, spend, revenue, conversions, clicks, impressions)
       SELECT $1, DATE '2026-01-01', c, 'USD', 1, 2, 1, 10, 100 FROM unnest($2::text[]) c`,
      [ALPHA, ['paid_search', 'paid_social', 'email', 'organic_search']],
    );
    for (let i = 0; i < 120; i++) {
      const created = await post('/api/taxonomy/keys', {
        project_id: ALPHA,
        key: `metric.m${String(i).padStart(3, '0')}`,
        label: `Metric ${i}`,
      });
      expect(created.status).toBe(201);
    }
    const client = await connectModern(service.url, owner);
    const { client: legacy } = await connectLegacy(service.url, owner);
    try {
      const values = async (name: string, argument: string, value: string, args: Record<string, string> = {}) => {
        const request = {
          ref: { type: 'ref/prompt' as const, name },
          argument: { name: argument, value },
          context: { arguments: args },
        };
        const a = (await client.complete(request)).completion;
        expect((await legacy.complete(request)).completion).toEqual(a);
        return a;
      };
      const metrics = await values('explain-todays-anomalies', 'metric', 'r', { project_id: DEMO });
      // Both start with "r": the more similar (shorter) first, then the rest by similarity.
      expect(metrics.values.slice(0, 2)).toEqual(['roas', 'revenue']);
      // A typo still finds its metric (pg_trgm similarity), after any prefix match.
      expect((await values('explain-todays-anomalies', 'metric', 'revnue', { project_id: DEMO })).values[0]).toBe(
        'revenue',
      );
      const channels = await values('alpha-check', 'channel', 'paid', { project_id: ALPHA });
      expect(channels.values).toEqual(['paid_search', 'paid_social']);
      // "search" is no prefix of any channel: those containing it, most similar first.
      expect((await values('alpha-check', 'channel', 'search', { project_id: ALPHA })).values).toEqual([
        'paid_search',
        'organic_search',
      ]);
      const keys = await values('alpha-check', 'key', 'metric.', { project_id: ALPHA });
      expect(keys.values).toHaveLength(100);
      expect(keys).toMatchObject({ total: 120, hasMore: true });
      expect(keys.values[0]).toBe('metric.m000');
      // The Skill's only project is the default one. The ten keys starting with the text come
      // first; the other keys follow, as similar to it.
      const m11 = (await values('alpha-check', 'key', 'metric.m11')).values;
      expect(m11.slice(0, 10).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `metric.m11${i}`));
      expect(m11.slice(10).every((k) => !k.startsWith('metric.m11'))).toBe(true);
      const projects = await values('weekly-performance-review', 'project_id', '');
      expect(projects.values).toEqual([ALPHA, DEMO]);
      // Resource templates: a run's id, from the project named beside it (Alpha has none).
      const runIds = async (project: string, token = owner) => {
        const who = token === owner ? client : await connectModern(service.url, token);
        try {
          const answer = await who.complete({
            ref: { type: 'ref/resource', uri: 'run://{project_id}/{run_id}' },
            argument: { name: 'run_id', value: '' },
            context: { arguments: { project_id: project } },
          });
          return answer.completion.values;
        } finally {
          if (who !== client) await who.close();
        }
      };
      expect(await runIds(ALPHA)).toEqual([]);
      const demoRuns = (
        await api(`${service.url}/api/flows/runs?project_id=${DEMO}&limit=100`, {
          headers: { authorization: `Bearer ${owner}` },
        })
      ).body.runs as { id: string }[];
      expect(demoRuns.length).toBeGreaterThan(0);
      expect(await runIds(DEMO)).toEqual(demoRuns.map((r) => r.id).sort());
      expect(await runIds(DEMO, ann)).toEqual([]);
      const unknown = await refusal(
        client.complete({ ref: { type: 'ref/resource', uri: 'nope://{x}' }, argument: { name: 'x', value: '' } }),
      );
      expect(unknown.code).toBe(-32602);
    } finally {
      await client.close();
      await legacy.close();
    }
  });

  it('shows a Skill as a prompt over REST, as the console does', async () => {
    const res = await api(`${service.url}/api/skills/alpha-check/prompt?project_id=${ALPHA}`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'alpha-check',
      title: 'Alpha channel check',
      projects: [ALPHA],
      arguments: [
        { name: 'project_id', required: false, complete: 'project' },
        { name: 'channel', required: true, complete: 'channel' },
        { name: 'key', required: false, complete: 'business_key' },
        { name: 'note', required: false },
      ],
    });
    const forbidden = await api(`${service.url}/api/skills/investigate-roas-drop/prompt?project_id=${DEMO}`, {
      headers: { authorization: `Bearer ${ann}` },
    });
    expect(forbidden.status).toBe(403);
  });
});
