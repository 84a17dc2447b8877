import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';

/**
 * Real receivers on loopback for every alert destination kind: they parse what arrives the way
 * the real service would (Standard Webhooks verification with the official package, Block Kit and
 * Adaptive Card checks, PagerDuty Events v2's shape, real SMTP), count what they got, and answer
 * as a script says (500 then 200, 429 with Retry-After, no answer at all).
 */

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Hit {
  /** Date.now() when the request's headers arrived (the first byte, for the benchmark). */
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
  /** What the receiver's own check found wrong with it (empty when the payload is valid). */
  problems: string[];
}

export class HttpReceiver {
  readonly hits: Hit[] = [];
  /** Replies used in order, one per request; then `fallback`. */
  script: Reply[] = [];
  private readonly hanging: http.ServerResponse[] = [];
  private waiters: (() => void)[] = [];
  private server!: http.Server;
  url = '';

  constructor(
    private readonly fallback: { status: number; headers?: Record<string, string>; body?: string },
    private readonly check: (hit: Omit<Hit, 'problems'>) => string[] = () => [],
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const at = Date.now();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const base = { at, headers: req.headers, body, json };
        this.hits.push({ ...base, problems: this.check(base) });
        for (const w of this.waiters.splice(0)) w();
        const reply = this.script.shift() ?? this.fallback;
        if (reply === 'hang') {
          this.hanging.push(res);
          return;
        }
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** Resolves once `n` requests have arrived (no clock: it waits for the event). */
  async received(n: number): Promise<Hit[]> {
    while (this.hits.length < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.hits;
  }

  async close(): Promise<void> {
    for (const res of this.hanging.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Standard Webhooks: verified with the official package and a secret the test sets once known. */
export class WebhookReceiver extends HttpReceiver {
  secret = '';
  constructor() {
    super({ status: 204 }, (hit) => {
      try {
        new Webhook(this.secret).verify(hit.body, hit.headers as Record<string, string>);
        return [];
      } catch (error) {
        return [`signature: ${(error as Error).message}`];
      }
    });
  }

  /** Distinct webhook-ids among verified requests: what an idempotent receiver processes. */
  get processed(): string[] {
    return [...new Set(this.hits.filter((h) => h.problems.length === 0).map((h) => String(h.headers['webhook-id'])))];
  }
}

// Block Kit, after Slack's reference for the blocks and elements our messages use.
const PlainText = (max: number) =>
  z.object({ type: z.literal('plain_text'), text: z.string().min(1).max(max), emoji: z.boolean().optional() }).strict();
const Mrkdwn = (max: number) =>
  z.object({ type: z.literal('mrkdwn'), text: z.string().min(1).max(max), verbatim: z.boolean().optional() }).strict();
const Button = z
  .object({
    type: z.literal('button'),
    text: PlainText(75),
    action_id: z.string().min(1).max(255),
    url: z.url().max(3000).optional(),
  })
  .strict();
const Block = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), text: PlainText(150) }).strict(),
  z
    .object({
      type: z.literal('section'),
      text: z.union([PlainText(3000), Mrkdwn(3000)]).optional(),
      fields: z
        .array(z.union([PlainText(2000), Mrkdwn(2000)]))
        .min(1)
        .max(10)
        .optional(),
      accessory: Button.optional(),
    })
    .strict()
    .refine((s) => s.text || s.fields, 'a section needs text or fields'),
  z
    .object({
      type: z.literal('context'),
      elements: z
        .array(z.union([PlainText(3000), Mrkdwn(3000)]))
        .min(1)
        .max(10),
    })
    .strict(),
  z.object({ type: z.literal('actions'), elements: z.array(Button).min(1).max(25) }).strict(),
  z.object({ type: z.literal('divider') }).strict(),
]);
export const SlackMessage = z.object({ text: z.string().min(1), blocks: z.array(Block).min(1).max(50) }).strict();

function schemaProblems(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

export function slackReceiver(): HttpReceiver {
  return new HttpReceiver({ status: 200, body: 'ok' }, (hit) => {
    const problems = schemaProblems(SlackMessage, hit.json);
    const ids = (hit.json as z.infer<typeof SlackMessage>)?.blocks?.flatMap((b) =>
      b.type === 'actions'
        ? b.elements.map((e) => e.action_id)
        : b.type === 'section' && b.accessory
          ? [b.accessory.action_id]
          : [],
    );
    if (ids && new Set(ids).size !== ids.length) problems.push('action_id values must be unique');
    return problems;
  });
}

// The Adaptive Cards SDK (its Node-loadable bundle) parses a card as Teams would: unknown elements
// or properties are reported or dropped, so a card that round-trips unchanged is well formed.
const AdaptiveCards = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js');

export function adaptiveCardProblems(content: unknown): string[] {
  const card = new AdaptiveCards.AdaptiveCard();
  const context = new AdaptiveCards.SerializationContext();
  card.parse(content, context);
  const problems: string[] = [];
  for (let i = 0; i < context.eventCount; i += 1) problems.push(`parse: ${context.getEventAt(i).message}`);
  for (const e of card.validateProperties().validationEvents) problems.push(`validate: ${e.message}`);
  const round = JSON.parse(JSON.stringify(card.toJSON()));
  if (JSON.stringify(sortKeys(round)) !== JSON.stringify(sortKeys(content)))
    problems.push('the card does not round-trip through the Adaptive Cards SDK (unknown properties?)');
  return problems;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  return v;
}

const TeamsEnvelope = z
  .object({
    type: z.literal('message'),
    attachments: z
      .array(
        z
          .object({
            contentType: z.literal('application/vnd.microsoft.card.adaptive'),
            contentUrl: z.null().optional(),
            content: z.object({ type: z.literal('AdaptiveCard'), version: z.string() }).passthrough(),
          })
          .strict(),
      )
      .length(1),
  })
  .strict();

export function teamsReceiver(): HttpReceiver {
  return new HttpReceiver({ status: 202 }, (hit) => {
    const problems = schemaProblems(TeamsEnvelope, hit.json);
    if (problems.length) return problems;
    return adaptiveCardProblems((hit.json as z.infer<typeof TeamsEnvelope>).attachments[0]!.content);
  });
}

// PagerDuty Events API v2 (developer.pagerduty.com, "Send an Alert Event").
const PdTrigger = z
  .object({
    routing_key: z.string().min(1),
    event_action: z.literal('trigger'),
    dedup_key: z.string().min(1).max(255),
    payload: z
      .object({
        summary: z.string().min(1).max(1024),
        source: z.string().min(1),
        severity: z.enum(['critical', 'error', 'warning', 'info']),
        timestamp: z.iso.datetime().optional(),
        component: z.string().optional(),
        group: z.string().optional(),
        class: z.string().optional(),
        custom_details: z.record(z.string(), z.unknown()).optional(),
      })
      .strict(),
    links: z.array(z.object({ href: z.url(), text: z.string() }).strict()).optional(),
    images: z.array(z.unknown()).optional(),
    client: z.string().optional(),
    client_url: z.url().optional(),
  })
  .strict();
const PdResolve = z
  .object({ routing_key: z.string().min(1), event_action: z.literal('resolve'), dedup_key: z.string().min(1) })
  .strict();

export function pagerDutyReceiver(): HttpReceiver {
  return new HttpReceiver(
    {
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"success","message":"Event processed"}',
    },
    (hit) => schemaProblems(z.union([PdTrigger, PdResolve]), hit.json),
  );
}

export interface Mail {
  from: string | undefined;
  to: string[];
  subject: string | undefined;
  text: string | undefined;
  html: string | false | undefined;
  messageId: string | undefined;
  user: string | undefined;
}

/** A real SMTP server (smtp-server) that requires a login and parses each message (mailparser). */
export class SmtpReceiver {
  readonly mails: Mail[] = [];
  port = 0;
  private server!: SMTPServer;
  private waiters: (() => void)[] = [];

  constructor(private readonly login: { user: string; password: string }) {}

  async start(): Promise<this> {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.login.user && auth.password === this.login.password)
          return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.mails.push({
              from: mail.from?.text,
              to: (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) =>
                a.value.map((v) => v.address ?? ''),
              ),
              subject: mail.subject,
              text: mail.text,
              html: mail.html,
              messageId: mail.messageId,
              user: session.user as string | undefined,
            });
            for (const w of this.waiters.splice(0)) w();
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  async received(n: number): Promise<Mail[]> {
    while (this.mails.length < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.mails;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
