import net from 'node:net';
import nodemailer from 'nodemailer';
import { OutboundRefusedError, resolvePinned } from '../../../platform/outbound/address-policy.js';
import { excerptOf } from '../../../platform/outbound/outbound-http.js';
import { describeItem, type MessagePayload, moreLine, plainText } from '../alerts.content.js';
import type { Outgoing, Sender, SendResult } from './sender.js';

function html(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The HTML part: the same content as the text part, every value escaped, inline styles only. */
export function emailHtml(payload: MessagePayload): string {
  const parts = [`<h1 style="font-size:18px;margin:0 0 12px">${html(payload.title)}</h1>`];
  for (const item of payload.items) {
    const text = describeItem(item);
    const rows = text.facts
      .map(([k, v]) => `<tr><th align="left" style="padding:2px 12px 2px 0">${html(k)}</th><td>${html(v)}</td></tr>`)
      .join('');
    parts.push(
      `<h2 style="font-size:15px;margin:16px 0 4px">${html(text.heading)}</h2>`,
      rows ? `<table style="border-collapse:collapse;font-size:14px">${rows}</table>` : '',
      text.note ? `<p style="color:#555;margin:4px 0">${html(text.note)}</p>` : '',
      item.url ? `<p style="margin:4px 0"><a href="${html(item.url)}">Open in Context Hub</a></p>` : '',
    );
  }
  const more = moreLine(payload);
  if (more) parts.push(`<p>${html(more)}</p>`);
  if (payload.rule) parts.push(`<p style="color:#555;font-size:12px">Rule: ${html(payload.rule.name)}</p>`);
  if (payload.console_url)
    parts.push(`<p><a href="${html(payload.console_url)}">Open the project in Context Hub</a></p>`);
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif">${parts.join('')}</body></html>`;
}

/** SMTP reply codes and nodemailer's error codes that a later attempt may get past. */
function retryable(error: { code?: string; responseCode?: number }): boolean {
  if (error.responseCode !== undefined) return error.responseCode < 500;
  return ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNRESET', 'ECONNREFUSED', 'ETIME'].includes(
    error.code ?? '',
  );
}

/**
 * Email over SMTP with nodemailer: implicit TLS (`secure`) or STARTTLS (required with
 * `require_tls`), login when secrets carry one. The server's name is resolved once through the
 * outbound guard and nodemailer connects to that address (TLS still checks the name). The
 * Message-ID is the message id, the same on every attempt, so a receiving system can drop a copy.
 */
export const emailSender: Sender = {
  kind: 'email',
  async send(out: Outgoing): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const config = out.config as {
      host: string;
      port: number;
      secure: boolean;
      require_tls?: boolean;
      from: string;
      to: string[];
    };
    const secrets = out.secrets as { user?: string; password?: string };
    let address: string;
    try {
      address = (await resolvePinned(config.host, out.outbound)).address;
    } catch (error) {
      return {
        outcome: error instanceof OutboundRefusedError ? 'permanent' : 'retry',
        httpStatus: null,
        latencyMs: elapsed(),
        error: (error as Error).message,
        excerpt: null,
      };
    }
    const timeout = out.outbound.timeoutMs;
    const transport = nodemailer.createTransport({
      host: address,
      port: config.port,
      secure: config.secure,
      requireTLS: config.require_tls === true,
      ...(secrets.user ? { auth: { user: secrets.user, pass: secrets.password ?? '' } } : {}),
      tls: net.isIP(config.host) ? {} : { servername: config.host },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      const info = await Promise.race([
        transport.sendMail({
          from: config.from,
          to: config.to,
          subject: out.payload.title,
          text: plainText(out.payload),
          html: emailHtml(out.payload),
          messageId: `<${out.id}@context-hub>`,
          headers: { 'X-Context-Hub-Delivery': out.id },
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(Object.assign(new Error(`no complete answer within ${timeout} ms`), { code: 'ETIMEDOUT' })),
            timeout,
          );
        }),
      ]);
      return {
        outcome: 'delivered',
        httpStatus: null,
        latencyMs: elapsed(),
        error: null,
        excerpt: excerptOf(Buffer.from(String(info.response ?? ''))),
      };
    } catch (error) {
      const e = error as { code?: string; responseCode?: number; response?: string; message: string };
      // The reply text, never the login: nodemailer's messages name the command, not the credentials.
      const reason = e.responseCode
        ? `the SMTP server answered ${e.responseCode}`
        : `${e.code ?? 'error'}: ${e.message}`;
      return {
        outcome: retryable(e) ? 'retry' : 'permanent',
        httpStatus: null,
        latencyMs: elapsed(),
        error: e.code === 'EAUTH' ? 'the SMTP server refused the login' : reason.slice(0, 300),
        excerpt: e.response ? excerptOf(Buffer.from(String(e.response))) : null,
      };
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  },
};
