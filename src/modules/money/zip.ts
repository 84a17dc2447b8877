import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * Reads the ECB's archives (eurofxref.zip, eurofxref-hist.zip: one CSV, stored or deflated) with
 * yauzl, a maintained reader that trusts the central directory, not the local headers, and checks
 * entry sizes against it. yauzl does not check CRC-32, so each entry's is checked here: a truncated
 * or damaged archive is refused instead of half-read. Entries are bounded: the ECB's history CSV is
 * ~8 MB inflated, so anything far above that is not a rates archive (a zip bomb is cut off early).
 */
export class ZipFormatError extends Error {}

export const MAX_ZIP_ENTRY_BYTES = 64 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 16;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export interface ZipEntry {
  name: string;
  data: Buffer;
}

export async function readZip(input: Uint8Array): Promise<ZipEntry[]> {
  const buf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, file) =>
      error ? reject(new ZipFormatError(reasonOf(error))) : resolve(file),
    ),
  );
  if (zip.entryCount > MAX_ZIP_ENTRIES)
    throw new ZipFormatError(`${zip.entryCount} entries; a rates archive holds one file`);
  return new Promise<ZipEntry[]>((resolve, reject) => {
    const entries: ZipEntry[] = [];
    const fail = (error: unknown) => {
      zip.close();
      reject(error instanceof ZipFormatError ? error : new ZipFormatError(reasonOf(error)));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      if (name.endsWith('/')) return zip.readEntry();
      if (entry.isEncrypted()) return fail(new ZipFormatError(`entry ${name} is encrypted`));
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
        return fail(new ZipFormatError(`entry ${name} uses compression method ${entry.compressionMethod}`));
      if (entry.uncompressedSize > MAX_ZIP_ENTRY_BYTES)
        return fail(new ZipFormatError(`entry ${name} inflates to more than ${MAX_ZIP_ENTRY_BYTES} bytes`));
      zip.openReadStream(entry, (error, stream) => {
        if (error) return fail(new ZipFormatError(`entry ${name}: ${reasonOf(error)}`));
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', (e) => fail(new ZipFormatError(`entry ${name} does not inflate (${reasonOf(e)})`)));
        stream.on('end', () => {
          const data = Buffer.concat(chunks);
          if (crc32(data) >>> 0 !== entry.crc32) return fail(new ZipFormatError(`entry ${name} fails its checksum`));
          entries.push({ name, data });
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

/** yauzl's messages name the structure that is wrong and carry no file paths; keep them short. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : 'damaged';
  return message.length > 120 ? `${message.slice(0, 120)}…` : message;
}
