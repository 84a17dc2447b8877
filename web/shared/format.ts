/**
 * Number, money and date formatting for views and console: the host's (or browser's) locale, the
 * project's currency, and dates that are calendar days (YYYY-MM-DD) never shifted by a time zone.
 */
export interface FormatContext {
  locale: string;
  timeZone?: string;
}

export const defaultFormat = (): FormatContext => ({
  locale: typeof navigator === 'undefined' ? 'en-US' : navigator.language || 'en-US',
});

/** The minus sign (U+2212): what a negative figure starts with in every view, never a hyphen. */
export const MINUS = '\u2212';

/** `value` as `format` writes it, with the minus sign where the locale writes a hyphen-minus. */
function typeset(format: Intl.NumberFormat, value: number): string {
  return format
    .formatToParts(value)
    .map((part) => (part.type === 'minusSign' ? MINUS : part.value))
    .join('');
}

/**
 * 0 for a value that shows as zero at `digits` fraction digits: −0.001 is not a loss, and "−0" would
 * say it is. (Intl's signDisplay "negative" does this, but the TypeScript lib here lacks it.)
 */
function unsignedZero(value: number, digits: number): number {
  return Math.abs(value) < 0.5 * 10 ** -digits ? 0 : value;
}

export function fmtNumber(value: number | null | undefined, f: FormatContext, maximumFractionDigits = 2): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  return typeset(
    new Intl.NumberFormat(f.locale, { maximumFractionDigits }),
    unsignedZero(value, maximumFractionDigits),
  );
}

export function fmtMoney(value: number | null | undefined, currency: string | null | undefined, f: FormatContext) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (!currency) return fmtNumber(value, f);
  try {
    // The currency's own decimals (USD 2, JPY 0, KWD 3), as its users write it.
    const money = new Intl.NumberFormat(f.locale, { style: 'currency', currency });
    return typeset(money, unsignedZero(value, money.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    // An unknown currency code still shows the amount with its code.
    return `${fmtNumber(value, f)} ${currency}`;
  }
}

/** A relative change (0.125 → "+12.5 %"), signed so a drop never reads as a gain. */
export function fmtDelta(ratio: number | null | undefined, f: FormatContext): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '–';
  return typeset(
    new Intl.NumberFormat(f.locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }),
    ratio,
  );
}

/**
 * A share of a whole in whole percent (0.42 → "42 %", −0.05 → "−5 %"): a part that moved against
 * the total has a negative share. One that rounds to zero is "0 %", never "−0 %".
 */
export function fmtShare(ratio: number | null | undefined, f: FormatContext): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '–';
  const percent = new Intl.NumberFormat(f.locale, { style: 'percent', maximumFractionDigits: 0 });
  return typeset(percent, Math.round(ratio * 100) === 0 ? 0 : ratio);
}

/** A calendar day as the locale writes it; parsed as UTC so no zone moves it to the day before. */
export function fmtDay(day: string, f: FormatContext, style: 'short' | 'medium' = 'medium'): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(f.locale, {
    timeZone: 'UTC',
    ...(style === 'short' ? { month: 'short', day: 'numeric' } : { dateStyle: 'medium' }),
  }).format(date);
}

/** An instant in the host's (or project's) time zone. */
export function fmtInstant(iso: string | null | undefined, f: FormatContext): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(f.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(f.timeZone ? { timeZone: f.timeZone } : {}),
  }).format(date);
}

/** Milliseconds since epoch of a calendar day at UTC midnight (chart x values). */
export function dayToEpochSeconds(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}
