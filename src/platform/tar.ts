import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { extract, type Header, pack } from 'tar-stream';

/**
 * tar.gz of folders of text files (the hub as files), through tar-stream: written with fixed
 * metadata so the same files always give the same bytes; read as a stream with bounds, so an
 * archive can neither inflate nor list without end, and the event loop turns between chunks.
 */
export interface TarEntry {
  path: string;
  data: Buffer;
}

const gzip = promisify(zlib.gzip);
const EPOCH = new Date(0);
const BLOCK = 512;
/** A tar archive ends with two zero blocks: without them it was cut short. */
const END_OF_ARCHIVE = 2 * BLOCK;

/**
 * A tar.gz of the entries, in the order given: mode 0644, owner 0, time 0, so identical entries give
 * identical bytes.
 */
export async function writeTarGz(entries: TarEntry[]): Promise<Buffer> {
  const archive = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of archive) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) {
    await new Promise<void>((resolve, reject) =>
      archive.entry(
        { name: entry.path, type: 'file', mode: 0o644, uid: 0, gid: 0, mtime: EPOCH, size: entry.data.length },
        entry.data,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  }
  archive.finalize();
  await collected;
  // zlib writes no name and a zero time into the gzip header: the bytes depend on the tar alone.
  return gzip(Buffer.concat(chunks));
}

/** Why an archive cannot be read; the message completes "the archive …". */
export class TarFormatError extends Error {}

export type TarEntryType = 'file' | 'directory' | 'symlink' | 'link' | 'other';

export interface TarEntryInfo {
  path: string;
  type: TarEntryType;
  /** Bytes of data (0 for anything but a file). */
  size: number;
}

export interface TarReadLimits {
  /** Bytes the archive may inflate to, every entry and header counted. */
  maxInflatedBytes: number;
  /** Entries of any type (files, folders, links…). */
  maxEntries: number;
  /** Bytes of one entry's name (GNU and pax long names included). */
  maxNameBytes: number;
}

function typeOf(header: Header): TarEntryType {
  switch (header.type) {
    case 'file':
    case 'contiguous-file':
      return 'file';
    case 'directory':
    case 'symlink':
    case 'link':
      return header.type;
    default:
      return 'other';
  }
}

function gzipError(error: unknown): TarFormatError {
  if (error instanceof TarFormatError) return error;
  return new TarFormatError('is not valid gzip (it is cut short or corrupt)');
}

function tarError(error: unknown, entries: number): TarFormatError {
  if (error instanceof TarFormatError) return error;
  const message = error instanceof Error ? error.message : '';
  // Ending before the first header is whole: whatever was gzip'd, it was not a tar.
  if (/unexpected end/i.test(message) && entries > 0)
    return new TarFormatError('ends inside an entry (it is cut short)');
  if (/exceeds max size/i.test(message)) return new TarFormatError('has a long-name header beyond 4 MiB');
  return new TarFormatError('is not a tar archive inside its gzip (a header does not check out)');
}

/**
 * Reads a gzip'd tar by chunks. Every entry is offered to `keep` (path, type, size) before its
 * data is read; the data of those it keeps comes back, every other entry is read past. What
 * `keep` throws ends the read and is thrown as is. Anything
 * that is not a whole gzip'd tar within `limits` (plain text, a bare tar, a truncated archive, an
 * archive that inflates or lists without end) throws a TarFormatError, and nothing is kept.
 */
export async function readTarGz(
  archive: Buffer,
  limits: TarReadLimits,
  keep: (entry: TarEntryInfo) => boolean,
): Promise<TarEntry[]> {
  if (archive.length < 2 || archive[0] !== 0x1f || archive[1] !== 0x8b)
    throw new TarFormatError(archive.length === 0 ? 'is empty' : 'is not gzip-compressed (send a .tar.gz)');
  const kept: TarEntry[] = [];
  const gunzip = zlib.createGunzip();
  const tar = extract();
  let inflated = 0;
  /** Offset just past the last non-zero inflated byte, and just past the last entry's data. */
  let dataEnd = 0;
  let entriesEnd = 0;
  let entries = 0;
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      tar.destroy();
      reject(error);
    };
    gunzip.on('error', (error) => fail(gzipError(error)));
    gunzip.on('data', (chunk: Buffer) => {
      if (settled) return;
      let last = chunk.length - 1;
      while (last >= 0 && chunk[last] === 0) last -= 1;
      if (last >= 0) dataEnd = inflated + last + 1;
      inflated += chunk.length;
      if (inflated > limits.maxInflatedBytes)
        return fail(new TarFormatError(`inflates to more than ${limits.maxInflatedBytes} bytes`));
      if (!tar.write(chunk)) gunzip.pause();
    });
    tar.on('drain', () => gunzip.resume());
    gunzip.on('end', () => tar.end(null));
    tar.on('error', (error: unknown) => fail(tarError(error, entries)));
    tar.on('finish', () => {
      if (settled) return;
      if (inflated === 0) return fail(new TarFormatError('is an empty gzip stream, not a tar archive'));
      if (dataEnd > entriesEnd || inflated - entriesEnd < END_OF_ARCHIVE)
        return fail(new TarFormatError('ends without the end-of-archive blocks (it is cut short)'));
      settled = true;
      resolve();
    });
    tar.on('entry', (header: Header, stream, next) => {
      // A failure of the archive reaches each open entry too; it is answered once, above.
      stream.on('error', () => undefined);
      entries += 1;
      const start = (header as Header & { byteOffset: number }).byteOffset;
      entriesEnd = Math.max(entriesEnd, start + Math.ceil(header.size / BLOCK) * BLOCK);
      if (entries > limits.maxEntries) return next(new TarFormatError(`holds more than ${limits.maxEntries} entries`));
      if (Buffer.byteLength(header.name) > limits.maxNameBytes)
        return next(new TarFormatError(`has an entry name longer than ${limits.maxNameBytes} bytes`));
      const type = typeOf(header);
      let wanted: boolean;
      try {
        wanted = keep({ path: header.name, type, size: type === 'file' ? header.size : 0 });
      } catch (error) {
        // The caller refuses the archive for what this entry is: its error, as thrown.
        fail(error);
        return next(null);
      }
      const chunks: Buffer[] = [];
      if (wanted) stream.on('data', (chunk) => void chunks.push(chunk as Buffer));
      stream.on('end', () => {
        if (wanted) kept.push({ path: header.name, data: Buffer.concat(chunks) });
        next(null);
      });
      stream.resume();
    });
    gunzip.end(archive);
  });
  return kept;
}
