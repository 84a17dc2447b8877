import fs from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SKILLS } from '../../src/modules/demo/index.js';
import { TestIdp } from '../support/auth/idp.js';
import { startService, type RunningService } from '../support/service.js';

// server.json is what the MCP registry publishes about the service: it must stay valid against the
// registry's published schema (vendored with its licence under test/fixtures/registry/), and a host
// that fills in its URL template and header must reach the Skills with it.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SERVER_JSON = JSON.parse(fs.readFileSync(path.join(ROOT, 'server.json'), 'utf8'));
const SCHEMA = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/registry/server.schema.json'), 'utf8'));
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

interface Input {
  value?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  variables?: Record<string, Input>;
}
interface Remote {
  type: string;
  url: string;
  variables?: Record<string, Input>;
  headers?: (Input & { name: string })[];
}

/** `{name}` replaced as the registry's format says: from the given values, else left as it is. */
const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{([^}]+)\}/g, (whole, name: string) => values[name] ?? whole);

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(SCHEMA);
}

describe('server.json for the MCP registry', () => {
  it("is valid against the registry's published schema, and the schema refuses what it should", () => {
    const validate = validator();
    expect(validate(SERVER_JSON), JSON.stringify(validate.errors)).toBe(true);
    expect(SERVER_JSON.$schema).toBe(SCHEMA.$id);
    expect(SERVER_JSON.version).toBe(PACKAGE.version);
    // The check is real: the registry's own limits are enforced by it.
    expect(validate({ ...SERVER_JSON, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...SERVER_JSON, name: 'no-slash' })).toBe(false);
    expect(validate({ ...SERVER_JSON, remotes: [{ type: 'streamable-http', url: 'not a url' }] })).toBe(false);
  });

  it('names one streamable-http remote at https://{host}/mcp with an optional, secret Bearer header', () => {
    const remotes = SERVER_JSON.remotes as Remote[];
    expect(remotes).toHaveLength(1);
    const [remote] = remotes;
    expect(remote).toMatchObject({ type: 'streamable-http', url: 'https://{host}/mcp' });
    expect(remote!.variables?.host?.isRequired).toBe(true);
    const auth = remote!.headers?.find((h) => h.name === 'Authorization');
    expect(auth).toMatchObject({ value: 'Bearer {token}', isRequired: false, isSecret: true });
  });
});

describe('server.json used as a host uses it', () => {
  let idp: TestIdp;
  let service: RunningService;
  let owner: string;

  beforeAll(async () => {
    idp = await TestIdp.start();
    service = await startService('pglite', {
      demo: true,
      env: idp.env({ ORG_OWNER_SUBJECT: 'owner-1', FX_RATES_URL: 'http://127.0.0.1:9/no-feed' }),
    });
    owner = await idp.token('owner-1');
  });
  afterAll(async () => {
    await service?.close();
    await idp?.close();
  });

  /** The remote's URL and headers filled in for this service (loopback: no TLS in front of it). */
  function configured(token: string | undefined): { url: URL; headers: Record<string, string> } {
    const remote = (SERVER_JSON.remotes as Remote[])[0]!;
    const host = new URL(service.url).host;
    const url = new URL(fill(remote.url, { host }).replace(/^https:/, 'http:'));
    const headers: Record<string, string> = {};
    for (const header of remote.headers ?? []) {
      if (token === undefined && !header.isRequired) continue;
      headers[header.name] = fill(header.value ?? '', { token: token ?? '' });
    }
    return { url, headers };
  }

  it('lists and verifies every demo Skill with the filled-in template and Bearer header', async () => {
    const { url, headers } = configured(owner);
    expect(url.pathname).toBe('/mcp');
    const client = new Client({ name: 'registry-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    try {
      const skills = new SkillsClient(client, { skipInvalid: true });
      expect(skills.supported).toBe(true);
      const listed = await skills.list();
      expect(listed.invalid).toEqual([]);
      expect(listed.skills.map((s) => s.frontmatter.name).sort()).toEqual(DEMO_SKILLS.map((s) => s.name).sort());
      for (const entry of listed.skills)
        for (const file of entry.resources as { uri: string }[])
          expect((await skills.read(entry, file.uri)).verified).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('is refused without the header when the hub requires auth', async () => {
    const { url, headers } = configured(undefined);
    expect(headers).toEqual({});
    const client = new Client({ name: 'registry-host', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow();
  });
});
