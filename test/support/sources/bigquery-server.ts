import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';
import { type CampaignDay, campaignDays } from './campaign-days.js';

/**
 * A loopback BigQuery following its REST reference: the OAuth token endpoint of the JWT bearer
 * grant (the assertion verified against the service account's public key: issuer, audience,
 * scope, expiry), jobs.query with named DATE parameters, dryRun and a first answer that is not
 * complete yet, and getQueryResults with pageToken. `location` must come with every call. Rows go
 * out as BigQuery sends them: `{f:[{v}]}`, NUMERIC as decimal strings, TIMESTAMP as int64 µs.
 */
export interface BigQueryServer {
  url: string;
  key: Record<string, string>;
  served: number;
  requests: string[];
  /** Answer 403 rateLimitExceeded to this many of the next page requests. */
  rateLimits: number;
  /** Answer 401 once to the next page request (an access token revoked mid-run). */
  revokeOnce: boolean;
  /** The token endpoint answers invalid_grant (the key was deleted). */
  keyDeleted: boolean;
  tokensIssued: number;
  data: { from: string; to: string; campaigns: number; version: (date: string) => number };
  close(): Promise<void>;
}

const SCHEMA = [
  { name: 'day', type: 'DATE' },
  {
    name: 'campaign',
    type: 'RECORD',
    fields: [
      { name: 'id', type: 'STRING' },
      { name: 'name', type: 'STRING' },
    ],
  },
  { name: 'channel', type: 'STRING' },
  { name: 'currency', type: 'STRING' },
  { name: 'spend', type: 'NUMERIC' },
  { name: 'impressions', type: 'INT64' },
  { name: 'clicks', type: 'INT64' },
  { name: 'conversions', type: 'FLOAT64' },
  { name: 'revenue', type: 'BIGNUMERIC' },
  { name: 'updated_at', type: 'TIMESTAMP' },
  { name: 'labels', type: 'STRING', mode: 'REPEATED' },
];

const decimal = (micros: number) => {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  return `${sign}${Math.floor(abs / 1e6)}.${String(abs % 1e6).padStart(6, '0')}`;
};

function cells(r: CampaignDay) {
  return {
    f: [
      { v: r.date },
      { v: { f: [{ v: r.campaign_id }, { v: r.campaign_name }] } },
      { v: r.channel.toLowerCase() },
      { v: r.currency },
      { v: decimal(r.cost_micros) },
      { v: String(r.impressions) },
      { v: String(r.clicks) },
      { v: String(r.conversions) },
      { v: decimal(Math.round(r.revenue * 1e6)) },
      { v: `${Date.parse(`${r.date}T12:34:56Z`) * 1000 + 123_456}` },
      { v: [{ v: 'a' }, { v: 'b' }] },
    ],
  };
}

export async function startBigQueryServer(options: {
  location: string;
  project: string;
  /** The clock the service under test signs its assertions by. */
  now: () => Date;
}): Promise<BigQueryServer> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const verifyKey = await importSPKI(publicKey.export({ type: 'spki', format: 'pem' }) as string, 'RS256');
  const tokens = new Set<string>();
  const jobs = new Map<string, { records: CampaignDay[]; polled: boolean }>();
  let firstJob = true;
  const error = (res: http.ServerResponse, code: number, reason: string, message: string) =>
    res
      .writeHead(code, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ error: { code, message, status: 'ERR', errors: [{ reason, message, domain: 'global' }] } }),
      );
  const page = (records: CampaignDay[], start: number, size: number, jobId: string) => {
    const rows = records.slice(start, start + size);
    state.served += rows.length;
    const next = start + size < records.length ? String(start + size) : undefined;
    return {
      kind: 'bigquery#getQueryResultsResponse',
      jobComplete: true,
      jobReference: { projectId: options.project, jobId, location: options.location },
      schema: { fields: SCHEMA },
      totalRows: String(records.length),
      rows: rows.map(cells),
      ...(next ? { pageToken: next } : {}),
    };
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    state.requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (url.pathname === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return void res.writeHead(400).end(JSON.stringify({ error: 'unsupported_grant_type' }));
      if (state.keyDeleted)
        return void res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }));
      try {
        const { payload } = await jwtVerify(form.get('assertion') ?? '', verifyKey, {
          issuer: state.key.client_email,
          audience: `${state.url}/token`,
          currentDate: options.now(),
        });
        if (payload.scope !== 'https://www.googleapis.com/auth/bigquery') throw new Error('scope');
        if ((payload.exp ?? 0) - (payload.iat ?? 0) > 3600) throw new Error('lifetime');
      } catch {
        return void res.writeHead(400).end(JSON.stringify({ error: 'invalid_grant' }));
      }
      const token = `ya29.${randomUUID()}`;
      tokens.add(token);
      state.tokensIssued += 1;
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: token, expires_in: 3599, token_type: 'Bearer' }));
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(bearer)) return error(res, 401, 'authError', 'Request had invalid authentication credentials.');
    const base = `/bigquery/v2/projects/${options.project}/queries`;
    if (req.method === 'POST' && url.pathname === base) {
      const q = JSON.parse(body) as {
        location?: string;
        dryRun?: boolean;
        useLegacySql?: boolean;
        maxResults?: number;
        queryParameters?: { name: string; parameterType: { type: string }; parameterValue: { value: string } }[];
      };
      if (q.location !== options.location)
        return error(res, 404, 'notFound', `Not found: Dataset ${options.project}:ads was not found in location US`);
      const param = (name: string) =>
        q.queryParameters?.find((p) => p.name === name && p.parameterType.type === 'DATE');
      if (q.useLegacySql !== false || !param('from') || !param('to'))
        return error(res, 400, 'invalidQuery', 'Query parameter from not found at [1:40]: SELECT * FROM ads');
      if (q.dryRun)
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            kind: 'bigquery#queryResponse',
            jobComplete: true,
            totalBytesProcessed: '1234567890',
            schema: { fields: SCHEMA },
          }),
        );
      const from = param('from')!.parameterValue.value;
      const to = param('to')!.parameterValue.value;
      const d = state.data;
      const lo = [from, d.from].sort()[1]!; // dates as text: the later of the two
      const hi = [to, d.to].sort()[0]!;
      const records = lo <= hi ? campaignDays(lo, hi, d.campaigns, d.version) : [];
      const jobId = `job_${randomUUID()}`;
      jobs.set(jobId, { records, polled: false });
      if (firstJob) {
        firstJob = false;
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            kind: 'bigquery#queryResponse',
            jobComplete: false,
            jobReference: { projectId: options.project, jobId, location: options.location },
          }),
        );
      }
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(page(records, 0, q.maxResults ?? 10_000, jobId)));
    }
    if (req.method === 'GET' && url.pathname.startsWith(`${base}/`)) {
      const jobId = decodeURIComponent(url.pathname.slice(base.length + 1));
      const job = jobs.get(jobId);
      if (url.searchParams.get('location') !== options.location || !job)
        return error(res, 404, 'notFound', `Not found: Job ${options.project}:US.${jobId}`);
      if (url.searchParams.get('maxResults') === '0') {
        const complete = job.polled;
        job.polled = true;
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jobComplete: complete, jobReference: { jobId, location: options.location } }));
      }
      if (state.rateLimits > 0) {
        state.rateLimits -= 1;
        return error(res, 403, 'rateLimitExceeded', 'Exceeded rate limits: too many api requests per user per method');
      }
      if (state.revokeOnce) {
        state.revokeOnce = false;
        tokens.delete(bearer);
        return error(res, 401, 'authError', 'Request had invalid authentication credentials.');
      }
      if (url.searchParams.get('formatOptions.useInt64Timestamp') !== 'true')
        return error(res, 400, 'invalid', 'expected formatOptions.useInt64Timestamp');
      const start = Number(url.searchParams.get('pageToken') ?? 0);
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(page(job.records, start, Number(url.searchParams.get('maxResults') ?? 10_000), jobId)));
    }
    return error(res, 404, 'notFound', 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: BigQueryServer = {
    url,
    key: {
      type: 'service_account',
      project_id: options.project,
      private_key_id: 'kid-1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      client_email: `reader@${options.project}.iam.gserviceaccount.com`,
      token_uri: `${url}/token`,
    },
    served: 0,
    requests: [],
    rateLimits: 0,
    revokeOnce: false,
    keyDeleted: false,
    tokensIssued: 0,
    data: { from: '2000-01-01', to: '2000-01-01', campaigns: 0, version: () => 0 },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}
