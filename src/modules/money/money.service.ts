import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RequestContext } from '../../platform/context/request-context.js';
import { actorHas } from '../../platform/auth/actor.js';
import type { Database } from '../../platform/db/database.js';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import type { OutboundPolicy } from '../../platform/outbound/address-policy.js';
import { discard, outboundRequest, readBody } from '../../platform/outbound/outbound-request.js';
import { daysBetween, todayIn } from '../../platform/calendar.js';
import { FeedFormatError, latestAcceptableDate, parseEcbFeed, type ParsedFeed } from './ecb-feed.js';
import { FxFeedError, UnknownCurrencyError } from './money.errors.js';
import * as repo from './money.repo.js';
import { STALE_AFTER_DAYS, type RatesOutput, type RatesRequest, type RefreshOutput } from './money.schemas.js';
import { columnsOf, FX_WRITE_LOCK, loadBundledRates, type SnapshotResult } from './money.snapshot.js';

/** The biggest feed accepted (the full-history XML is about 8 MB). */
const MAX_FEED_BYTES = 64 * 1024 * 1024;
/** A production guard against a server that never answers; not a test timing assumption. */
const FETCH_TIMEOUT_MS = 30_000;

export interface Conversion {
  amount: number;
  /** Units of `to` per 1 `from`. */
  rate: number;
  /** The older of the two rate days used (EUR has none of its own). */
  rate_date: string;
  stale: boolean;
}

/**
 * ECB euro reference rates: the bundled history, refreshes from FX_RATES_URL, reads in any base
 * (triangulated through EUR), and conversions for other modules.
 */
export class MoneyService {
  constructor(
    private readonly db: Database,
    private readonly feedUrl: string,
  ) {}

  /** Loads the bundled history on a first start; a no-op (one lookup) afterwards. */
  async ensureSnapshot(now: Date): Promise<SnapshotResult> {
    return loadBundledRates(this.db, now);
  }

  /** Every currency code with a stored rate, plus EUR. */
  async supportedCurrencies(): Promise<string[]> {
    return [...(await repo.knownCurrencies(this.db)), 'EUR'].sort();
  }

  async getRates(ctx: RequestContext, request: RatesRequest): Promise<RatesOutput> {
    const today = todayIn(ctx.clock, 'UTC');
    const requested = request.date ?? today;
    await this.assertKnown([
      { path: 'base', code: request.base },
      ...(request.symbols ?? []).map((code, i) => ({ path: `symbols.${i}`, code })),
    ]);
    if (requested > latestAcceptableDate(today)) {
      throw new ValidationError(
        [{ path: 'date', message: `is in the future (today is ${today} UTC)` }],
        undefined,
        'date_in_future',
        'Ask for today or an earlier date.',
      );
    }
    const rateDate = await repo.lastRateDateOnOrBefore(this.db, requested);
    if (!rateDate) throw await this.beforeHistory(requested);
    const rows = await repo.ratesOn(this.db, rateDate);
    const perEur = new Map<string, number>([['EUR', 1]]);
    for (const row of rows) perEur.set(row.currency, Number(row.rate_per_eur));
    const baseRate = perEur.get(request.base);
    const wanted = request.symbols ?? [...perEur.keys()].filter((c) => c !== request.base).sort();
    const missing = [request.base, ...wanted].filter((c) => !perEur.has(c));
    if (baseRate === undefined || missing.length > 0) {
      const quoted = [...perEur.keys()].sort();
      throw new ValidationError(
        [...new Set(missing)].map((code) => ({
          path: code === request.base ? 'base' : 'symbols',
          message: `${code} has no ECB rate on ${rateDate}; quoted that day: ${quoted.join(', ')}`,
        })),
        undefined,
        'currency_not_quoted',
        `The ECB stopped (or had not started) quoting it by ${rateDate}; use one of: ${quoted.join(', ')}.`,
      );
    }
    const rates: Record<string, number> = {};
    for (const code of wanted) rates[code] = crossRate(perEur.get(code)!, baseRate);
    return {
      base: request.base,
      rate_date: rateDate,
      requested_date: requested,
      source: rows[0]?.source ?? 'ecb',
      stale: daysBetween(rateDate, requested) > STALE_AFTER_DAYS,
      rates,
    };
  }

  /**
   * Converts `amount` from one currency to another with each currency's last published rate on
   * or before `date` (the same rule spend conversion uses in SQL). Not a permission-checked read:
   * other services call it on behalf of work they already authorized.
   */
  async convert(amount: number, from: string, to: string, date: string): Promise<Conversion> {
    const codes = [...new Set([from, to].filter((c) => c !== 'EUR'))];
    await this.assertKnown([
      { path: 'from', code: from },
      { path: 'to', code: to },
    ]);
    const rows = codes.length ? await repo.lastRatesOnOrBefore(this.db, codes, date) : [];
    const byCode = new Map(rows.map((r) => [r.currency, r]));
    const missing = codes.filter((c) => !byCode.has(c));
    if (missing.length) throw await this.beforeHistory(date, missing);
    const perEur = (code: string) => (code === 'EUR' ? 1 : Number(byCode.get(code)!.rate_per_eur));
    const dates = rows.map((r) => r.rate_date).sort();
    const rateDate = dates[0] ?? date;
    return {
      amount: from === to ? amount : (amount * perEur(to)) / perEur(from),
      rate: from === to ? 1 : crossRate(perEur(to), perEur(from)),
      rate_date: rateDate,
      stale: daysBetween(rateDate, date) > STALE_AFTER_DAYS,
    };
  }

  /**
   * Fetches FX_RATES_URL (ECB XML, CSV or the ZIP of the CSV), validates all of it, then adds the
   * days the store does not have. A feed that fails validation writes no rate; the attempt is
   * recorded either way so data quality can tell how fresh the rates are.
   */
  async refreshRates(ctx: RequestContext): Promise<RefreshOutput> {
    if (!actorHas(ctx.actor, 'admin'))
      throw new ForbiddenError('role_forbidden', 'Refreshing rates needs the admin permission.');
    const startedAt = ctx.clock.now();
    const source = describeUrl(this.feedUrl);
    let feed: ParsedFeed;
    try {
      const bytes = await fetchFeed(this.feedUrl);
      feed = await parseEcbFeed(bytes, { latestDate: latestAcceptableDate(todayIn(ctx.clock, 'UTC')) });
    } catch (error) {
      const failure =
        error instanceof FeedFormatError
          ? new FxFeedError(
              'fx_feed_invalid',
              `The rates feed at ${source} is malformed: ${error.message}. No rate was changed.`,
              { hint: 'Check FX_RATES_URL points at an ECB euro reference feed (XML or CSV).' },
            )
          : error instanceof FxFeedError
            ? error
            : new FxFeedError(
                'fx_feed_unreachable',
                `The rates feed at ${source} could not be fetched. No rate was changed.`,
                { hint: 'Check the network and FX_RATES_URL, then retry.' },
              );
      await repo.recordLoad(this.db, {
        kind: 'feed',
        source,
        checksum: null,
        status: 'failed',
        detail: failure.message,
        daysInFeed: 0,
        ratesInserted: 0,
        firstDate: null,
        lastDate: null,
        startedAt,
        finishedAt: ctx.clock.now(),
      });
      ctx.log.warn({ code: failure.code, source }, 'fx rates refresh failed');
      throw failure;
    }
    const columns = columnsOf(feed.days);
    const feedSource = `ecb:${source}`;
    const result = await this.db.withAdvisoryLock(FX_WRITE_LOCK, async (tx) => {
      const { inserted, differing } = await repo.mergeRates(tx, columns, feedSource, ctx.clock.now());
      await repo.recordLoad(tx, {
        kind: 'feed',
        source: feedSource,
        checksum: null,
        status: 'loaded',
        detail: null,
        daysInFeed: feed.days.length,
        ratesInserted: inserted,
        firstDate: feed.days[0]!.date,
        lastDate: feed.days[feed.days.length - 1]!.date,
        startedAt,
        finishedAt: ctx.clock.now(),
      });
      return { inserted, differing };
    });
    const bounds = await repo.historyBounds(this.db);
    ctx.log.info({ source, added: result.inserted }, 'fx rates refreshed');
    return {
      source: feedSource,
      format: feed.format,
      days_in_feed: feed.days.length,
      first_date: feed.days[0]!.date,
      last_date: feed.days[feed.days.length - 1]!.date,
      rates_in_feed: columns.currencies.length,
      rates_added: result.inserted,
      rates_already_stored: columns.currencies.length - result.inserted,
      rates_differing_kept: result.differing,
      latest_rate_date: bounds?.last ?? feed.days[feed.days.length - 1]!.date,
    };
  }

  /** The stored history's extent and the last refresh attempt (for data quality and status pages). */
  async ratesStatus(): Promise<{
    first_date: string | null;
    last_date: string | null;
    last_refresh: repo.LastRefresh | null;
  }> {
    const bounds = await repo.historyBounds(this.db);
    return {
      first_date: bounds?.first ?? null,
      last_date: bounds?.last ?? null,
      last_refresh: (await repo.lastRefresh(this.db)) ?? null,
    };
  }

  private async assertKnown(wanted: { path: string; code: string }[]): Promise<void> {
    const supported = await this.supportedCurrencies();
    const known = new Set(supported);
    const unknown = wanted.filter((w) => !known.has(w.code));
    if (unknown.length) throw new UnknownCurrencyError(unknown, supported);
  }

  private async beforeHistory(date: string, codes?: string[]): Promise<ValidationError> {
    const bounds = await repo.historyBounds(this.db);
    const first = bounds?.first;
    return new ValidationError(
      [
        {
          path: 'date',
          message: first
            ? `${date} is before the rate history${codes ? ` of ${codes.join(', ')}` : ''} (it starts ${first})`
            : 'no rates are stored yet',
        },
      ],
      undefined,
      'date_before_history',
      first
        ? `Use a date on or after ${codes ? 'the first rate of that currency' : first}.`
        : 'Run POST /api/money/rates/refresh.',
    );
  }
}

/** Units of `quote` per 1 `base`, from both per-EUR rates; 12 significant digits (the ECB publishes 5–6). */
function crossRate(quotePerEur: number, basePerEur: number): number {
  if (basePerEur === 1) return quotePerEur;
  return Number((quotePerEur / basePerEur).toPrecision(12));
}

/** A URL fit for logs and answers: no credentials, no query (it may carry a key). */
function describeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return 'the configured FX_RATES_URL';
  }
}

/**
 * The feed's address is the operator's own setting, not a user's, so private addresses and plain
 * http are allowed (a mirror on the internal network); the request still goes through the outbound
 * core: resolved once and pinned, each redirect judged again, bounded in time and size.
 */
const FEED_POLICY: OutboundPolicy = { allowPrivate: true, setting: 'OUTBOUND_ALLOW_PRIVATE_NETWORKS' };

async function fetchFeed(raw: string): Promise<Uint8Array> {
  const url = new URL(raw);
  if (url.protocol === 'file:') return fs.promises.readFile(fileURLToPath(url));
  const response = await outboundRequest(raw, { policy: FEED_POLICY, timeoutMs: FETCH_TIMEOUT_MS });
  if (response.status < 200 || response.status > 299) {
    discard(response);
    throw new FxFeedError(
      'fx_feed_unreachable',
      `The rates feed at ${describeUrl(raw)} answered HTTP ${response.status}. No rate was changed.`,
      {
        hint: 'Check FX_RATES_URL, then retry.',
      },
    );
  }
  const declared = Number(response.headers['content-length'] ?? '0');
  if (declared > MAX_FEED_BYTES) {
    response.body.destroy();
    throw new FeedFormatError(`it is larger than ${MAX_FEED_BYTES} bytes`);
  }
  return new Uint8Array(await readBody(response, MAX_FEED_BYTES));
}
