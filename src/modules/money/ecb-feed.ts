import { parse as parseCsvRecords } from 'csv-parse/sync';
import { SaxesParser } from 'saxes';
import { addDays, isCalendarDate } from '../../platform/calendar.js';
import { isZip, readZip, ZipFormatError } from './zip.js';

/**
 * Parsers for the ECB euro reference rate formats: the XML feeds (eurofxref-daily.xml,
 * eurofxref-hist-90d.xml, eurofxref-hist.xml), the CSV (eurofxref.csv with "13 April 2026" dates,
 * eurofxref-hist.csv with ISO dates, a trailing comma and N/A cells) and the ZIP archives the CSVs
 * ship in. A feed is validated completely before anyone writes a row from it: the first problem
 * found is the reason, and a feed with any problem yields nothing.
 */
export class FeedFormatError extends Error {}

export interface FeedDay {
  date: string;
  /** currency → rate per EUR, as the decimal text the ECB published (stored exactly as numeric). */
  rates: Map<string, string>;
}

export interface ParsedFeed {
  format: 'xml' | 'csv' | 'csv-zip';
  /** Oldest first. */
  days: FeedDay[];
}

/** The first ECB publication; nothing before it can be a euro reference rate. */
export const FIRST_ECB_DATE = '1999-01-04';

const CODE = /^[A-Z]{3}$/;
const RATE = /^\d{1,12}(\.\d{1,12})?$/;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

export interface ParseOptions {
  /** The latest acceptable date (today plus a day of slack for time zones ahead of UTC). */
  latestDate: string;
}

export async function parseEcbFeed(bytes: Uint8Array, options: ParseOptions): Promise<ParsedFeed> {
  if (bytes.length === 0) throw new FeedFormatError('the feed is empty');
  if (isZip(bytes)) {
    let entries: Awaited<ReturnType<typeof readZip>>;
    try {
      entries = await readZip(bytes);
    } catch (error) {
      throw new FeedFormatError(
        `the ZIP archive is unreadable: ${error instanceof ZipFormatError ? error.message : 'damaged'}`,
      );
    }
    const csv = entries.find((e) => e.name.toLowerCase().endsWith('.csv'));
    if (!csv) throw new FeedFormatError('the ZIP archive holds no .csv file');
    return { format: 'csv-zip', days: finish(parseCsv(decode(csv.data)), options) };
  }
  const text = decode(bytes);
  const format = text.trimStart().startsWith('<') ? 'xml' : 'csv';
  return { format, days: finish(format === 'xml' ? parseXml(text) : parseCsv(text), options) };
}

function decode(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new FeedFormatError('the feed is not UTF-8 text');
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Checks shared by both formats; sorts oldest first. */
function finish(days: FeedDay[], options: ParseOptions): FeedDay[] {
  if (days.length === 0) throw new FeedFormatError('the feed holds no dated rates');
  const seen = new Set<string>();
  for (const day of days) {
    if (seen.has(day.date)) throw new FeedFormatError(`the date ${day.date} appears twice`);
    seen.add(day.date);
    if (day.date < FIRST_ECB_DATE)
      throw new FeedFormatError(`the date ${day.date} is before the first ECB publication (${FIRST_ECB_DATE})`);
    if (day.date > options.latestDate) throw new FeedFormatError(`the date ${day.date} is in the future`);
    if (day.rates.size === 0) throw new FeedFormatError(`the date ${day.date} has no rates`);
  }
  return [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function checkRate(date: string, currency: string, rate: string): void {
  if (!CODE.test(currency)) throw new FeedFormatError(`"${clip(currency)}" on ${date} is not a currency code`);
  if (currency === 'EUR')
    throw new FeedFormatError(`EUR is quoted on ${date}; the feed must quote other currencies against EUR`);
  if (!RATE.test(rate) || Number(rate) <= 0)
    throw new FeedFormatError(`the ${currency} rate on ${date} ("${clip(rate)}") is not a positive decimal`);
}

function clip(text: string, length = 40): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

// ---------------------------------------------------------------- XML

/** The ECB nests four deep (Envelope > Cube > Cube > Cube); this leaves room and bounds the stack. */
export const MAX_XML_DEPTH = 32;

/**
 * Reads the small, fixed ECB document with `saxes`, a strict (well-formedness checking) SAX parser
 * that never expands a DTD's entities: every tag must be balanced (a truncated download fails), a
 * document type with declarations of its own is refused, and rates sit in Cube elements nested as
 * Cube > Cube[time] > Cube[currency][rate].
 */
function parseXml(text: string): FeedDay[] {
  const parser = new SaxesParser({ xmlns: false });
  const stack: string[] = [];
  const days: FeedDay[] = [];
  let current: FeedDay | undefined;
  let cubes = 0;
  let sawEnvelope = false;
  const onText = (chunk: string) => {
    if (!chunk.trim()) return;
    if (stack.length === 0) throw new FeedFormatError('text after the end of the document');
    if (stack[stack.length - 1]!.endsWith('Cube'))
      throw new FeedFormatError(`unexpected text "${clip(chunk.trim())}" in the rates structure`);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('doctype', (doctype) => {
    // Entity declarations are how "billion laughs" and external-entity attacks begin; the ECB's
    // feed has no document type at all, and an HTML error page's has no declarations.
    if (doctype.includes('['))
      throw new FeedFormatError('the document declares entities of its own (a DOCTYPE with declarations); refused');
  });
  parser.on('opentag', (tag) => {
    const name = tag.name;
    const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
    if (stack.length === 0) {
      if (local !== 'Envelope')
        throw new FeedFormatError(`the document root is <${name}>, not the ECB's gesmes:Envelope`);
      sawEnvelope = true;
    }
    if (stack.length >= MAX_XML_DEPTH)
      throw new FeedFormatError(`elements are nested deeper than ${MAX_XML_DEPTH} levels; the ECB feed nests 4`);
    if (local === 'Cube') {
      const attrs = tag.attributes;
      if (cubes === 1) {
        const time = attrs.time;
        if (time === undefined || !isCalendarDate(time))
          throw new FeedFormatError(`a day Cube has time="${clip(time ?? '')}", not a YYYY-MM-DD date`);
        current = { date: time, rates: new Map() };
      } else if (cubes === 2) {
        if (!current) throw new FeedFormatError('a rate Cube outside a day Cube');
        const currency = attrs.currency ?? '';
        const rate = attrs.rate ?? '';
        checkRate(current.date, currency, rate);
        if (current.rates.has(currency)) throw new FeedFormatError(`${currency} is quoted twice on ${current.date}`);
        current.rates.set(currency, rate);
      } else if (cubes > 2) throw new FeedFormatError('Cube elements nested deeper than the ECB format allows');
      cubes += 1;
    }
    stack.push(name);
  });
  parser.on('closetag', (tag) => {
    stack.pop();
    if (!tag.name.endsWith('Cube')) return;
    cubes -= 1;
    if (cubes === 1 && current) {
      days.push(current);
      current = undefined;
    }
  });
  const malformed = (error: unknown) =>
    error instanceof FeedFormatError
      ? error
      : new FeedFormatError(
          `the XML is not well formed: ${clip(error instanceof Error ? error.message : 'unreadable', 80)}`,
        );
  try {
    parser.write(text);
  } catch (error) {
    throw malformed(error);
  }
  try {
    parser.close();
  } catch (error) {
    // Everything was read: what is still open was cut off.
    if (stack.length > 0)
      throw new FeedFormatError(`the document ends inside <${stack[stack.length - 1]}> (truncated?)`);
    throw malformed(error);
  }
  if (!sawEnvelope) throw new FeedFormatError('no gesmes:Envelope document element');
  return days;
}

// ---------------------------------------------------------------- CSV

function parseCsvDate(cell: string): string | undefined {
  if (isCalendarDate(cell)) return cell;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(cell);
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[2]!.toLowerCase());
  if (month === -1) return undefined;
  const iso = `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  return isCalendarDate(iso) ? iso : undefined;
}

/**
 * Cells come from csv-parse (quoting, CRLF, blank lines); the ECB's own shape is checked here. Every
 * record may differ in width from the header so that the message can say which line and by how much.
 */
function parseCsv(text: string): FeedDay[] {
  let records: { record: string[]; line: number }[];
  try {
    // With `info: true` csv-parse yields {record, info} objects; its typings name only the plain form.
    const parsed = parseCsvRecords(text, {
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      max_record_size: 1024 * 1024,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    records = parsed.map((r) => ({ record: r.record, line: r.info.lines }));
  } catch (error) {
    throw new FeedFormatError(
      `the CSV is malformed: ${clip(error instanceof Error ? error.message : 'unreadable', 80)}`,
    );
  }
  if (records.length === 0) throw new FeedFormatError('the CSV is empty');
  const header = records[0]!.record;
  if (header[0] !== 'Date') throw new FeedFormatError('the CSV header does not start with "Date"');
  // The ECB ends every line with a comma; a trailing empty column is part of the format.
  const width = header.length;
  const codes = header[width - 1] === '' ? header.slice(1, -1) : header.slice(1);
  if (codes.length === 0) throw new FeedFormatError('the CSV header names no currencies');
  const seenCodes = new Set<string>();
  for (const code of codes) {
    if (!CODE.test(code) || code === 'EUR')
      throw new FeedFormatError(`the CSV header column "${clip(code)}" is not a currency code`);
    if (seenCodes.has(code)) throw new FeedFormatError(`the CSV header names ${code} twice`);
    seenCodes.add(code);
  }
  const days: FeedDay[] = [];
  for (const { record: cells, line } of records.slice(1)) {
    if (cells.length !== width)
      throw new FeedFormatError(`CSV line ${line} has ${cells.length} cells, the header ${width}`);
    const date = parseCsvDate(cells[0]!);
    if (!date) throw new FeedFormatError(`CSV line ${line} starts with "${clip(cells[0]!)}", not a date`);
    const rates = new Map<string, string>();
    codes.forEach((code, k) => {
      const cell = cells[k + 1]!;
      if (cell === 'N/A' || cell === '') return;
      checkRate(date, code, cell);
      rates.set(code, cell);
    });
    days.push({ date, rates });
  }
  return days;
}

/** The slack that `latestDate` allows: a feed published "today" in Frankfurt while UTC is behind. */
export function latestAcceptableDate(todayUtc: string): string {
  return addDays(todayUtc, 1);
}
