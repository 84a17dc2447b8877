import readline from 'node:readline';
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { ProviderError } from './provider.js';

/**
 * Reads an export (CSV through `csv-parse`, or JSON Lines) as a stream of records, with bounded
 * memory whatever the input: text is decoded strictly (a byte that is not in the export's encoding
 * is an error naming the line, never a silent U+FFFD), no line and no record may grow past
 * MAX_RECORD_BYTES, and a quote left open is an error instead of swallowing the rest of the file.
 */

/** The text encodings an export may be written in (WHATWG labels). */
export const EXPORT_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type ExportEncoding = (typeof EXPORT_ENCODINGS)[number];

/**
 * The longest line, and the longest CSV record, read (in bytes of UTF-8). An ad export's row is a
 * few hundred; a line past this is a wrong format or delimiter, or a file that is not an export.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

const BOMS: [ExportEncoding, number[]][] = [
  ['utf-8', [0xef, 0xbb, 0xbf]],
  ['utf-16le', [0xff, 0xfe]],
  ['utf-16be', [0xfe, 0xff]],
];

const RE_SAVE =
  'save the export as UTF-8, or set "encoding" to the one it was written in (utf-16le, utf-16be, windows-1252)';

/** Bytes → UTF-8 text, strictly; counts lines for messages and refuses an over-long one. */
class StrictDecoder extends Transform {
  private decoder: TextDecoder | undefined;
  private head = Buffer.alloc(0);
  /** The line being read (1-based) and its length so far. */
  private line = 1;
  private run = 0;
  private bomLeft = 0;

  constructor(private readonly configured: ExportEncoding | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.decoder) {
      // A byte order mark names the encoding; three bytes are needed to see one.
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 3) {
        done();
        return;
      }
      chunk = this.head;
      this.head = Buffer.alloc(0);
      this.decoder = this.open(chunk);
    }
    this.decode(chunk, true, done);
  }

  override _flush(done: TransformCallback): void {
    if (this.decoder) this.decode(Buffer.alloc(0), false, done);
    else if (this.head.length === 0) done();
    else {
      this.decoder = this.open(this.head);
      this.decode(this.head, false, done);
    }
  }

  private open(first: Buffer): TextDecoder {
    const bom = BOMS.find(([, bytes]) => bytes.every((b, i) => first[i] === b));
    // The decoder drops a BOM from its text; the bytes passed on as they came must lose it too.
    if (bom?.[0] === 'utf-8') this.bomLeft = 3;
    // The BOM wins over the setting: it is the file's own statement of what it is.
    const label = bom?.[0] ?? this.configured ?? 'utf-8';
    return new TextDecoder(label, { fatal: true });
  }

  private decode(bytes: Buffer, stream: boolean, done: TransformCallback): void {
    let text: string;
    try {
      text = this.decoder!.decode(bytes, { stream });
    } catch {
      const label = this.decoder!.encoding;
      const at = label === 'utf-8' ? this.line + newlinesBefore(bytes, validUtf8Prefix(bytes)) : this.line;
      done(
        new ProviderError(
          stream
            ? `line ${at} is not valid ${label.toUpperCase()} (a mix of encodings?): ${RE_SAVE}`
            : `the export ends inside a ${label.toUpperCase()} character (truncated?)`,
        ),
      );
      return;
    }
    // UTF-8 passes on as it came (decoding only proved it valid); other encodings become UTF-8.
    let out: Buffer;
    if (this.decoder!.encoding !== 'utf-8') out = Buffer.from(text, 'utf8');
    else if (this.bomLeft > 0) {
      out = bytes.subarray(Math.min(this.bomLeft, bytes.length));
      this.bomLeft -= bytes.length - out.length;
    } else out = bytes;
    for (let from = 0; ; ) {
      const nl = out.indexOf(0x0a, from);
      this.run += (nl === -1 ? out.length : nl) - from;
      if (this.run > MAX_RECORD_BYTES) {
        done(
          new ProviderError(
            `line ${this.line} is longer than ${MAX_RECORD_BYTES.toLocaleString('en')} bytes: is this an export, ` +
              'and are its format and delimiter right?',
          ),
        );
        return;
      }
      if (nl === -1) break;
      this.line += 1;
      this.run = 0;
      from = nl + 1;
    }
    done(null, out.length > 0 ? out : undefined);
  }
}

/** How many bytes at the start of `bytes` are valid UTF-8 (the input is known to hold an invalid one). */
function validUtf8Prefix(bytes: Uint8Array): number {
  // Only on the error path, to name the line: prefixes decode until the first invalid byte.
  let ok = 0;
  let bad = bytes.length;
  while (bad - ok > 1) {
    const mid = (ok + bad) >>> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      ok = mid;
    } catch {
      bad = mid;
    }
  }
  return ok;
}

function newlinesBefore(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i += 1) if (bytes[i] === 0x0a) n += 1;
  return n;
}

/**
 * The reason csv-parse stopped, in words an operator can act on. The record is named by its row as
 * a spreadsheet numbers them (the header is row 1; a quoted line break does not start a row):
 * csv-parse's line number is where it gave up, which for an open quote is the end of the file.
 */
function explainCsvError(error: CsvError): ProviderError {
  const row = `row ${(typeof error.records === 'number' ? error.records : 0) + 1}`;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new ProviderError(`${row} opens a quote that is never closed: the " takes in the rest of the file`);
    case 'CSV_MAX_RECORD_SIZE':
      return new ProviderError(
        `${row} grows past ${MAX_RECORD_BYTES.toLocaleString('en')} bytes: does it open a quote that is never closed?`,
      );
    default:
      return new ProviderError(`${row} cannot be read: ${error.message}`);
  }
}

export interface ExportOptions {
  format: 'csv' | 'jsonl';
  delimiter: string;
  encoding?: ExportEncoding;
}

/** Streams records: objects keyed by the header (CSV) or the parsed JSON lines. */
export async function* readExport(
  source: Readable,
  options: ExportOptions,
): AsyncGenerator<Record<string, string> | Record<string, unknown>> {
  const decoded = new StrictDecoder(options.encoding);
  if (options.format === 'jsonl') {
    pipeline(source, decoded, () => undefined);
    const lines = readline.createInterface({ input: decoded, crlfDelay: Infinity });
    let lineNo = 0;
    try {
      for await (const raw of lines) {
        lineNo += 1;
        if (!raw.trim()) continue;
        try {
          yield JSON.parse(raw) as Record<string, unknown>;
        } catch {
          throw new ProviderError(`line ${lineNo} is not valid JSON`);
        }
      }
    } finally {
      lines.close();
      decoded.destroy();
      source.destroy();
    }
    return;
  }
  const parser = parse({
    delimiter: options.delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    // A quote inside an unquoted field is text (as spreadsheets read it); rows may be short or long.
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  pipeline(source, decoded, parser, () => undefined);
  let header: string[] | undefined;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = fields.map((h) => h.trim());
        continue;
      }
      const row: Record<string, string> = {};
      for (let i = 0; i < header.length; i += 1) row[header[i]!] = fields[i] ?? '';
      yield row;
    }
  } catch (error) {
    throw error instanceof CsvError ? explainCsvError(error) : error;
  } finally {
    parser.destroy();
    decoded.destroy();
    source.destroy();
  }
}
