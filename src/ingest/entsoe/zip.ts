import { Unzip, type UnzipFile, UnzipInflate } from 'fflate';
import { EntsoeFormatError } from './errors.js';

/**
 * Bounds on what one zip reply may expand to. A78 pages hold at most 200 outage documents of a
 * few kB each (a year of hourly available capacity is under 1 MiB), so these leave ample room for
 * real replies while a zip bomb (a few MB expanding to gigabytes) is refused after reading at most
 * the bound plus one chunk's expansion.
 */
export interface ZipLimits {
  /** Entries (files and folders) in the archive. */
  readonly maxEntries: number;
  /** Decompressed bytes of one XML entry. */
  readonly maxEntryBytes: number;
  /** Decompressed bytes of all XML entries together. */
  readonly maxTotalBytes: number;
}

const MIB = 1024 * 1024;

/** The limits every zip reply is read under: 1 000 entries, 16 MiB per entry, 64 MiB in all. */
export const ZIP_LIMITS: ZipLimits = { maxEntries: 1_000, maxEntryBytes: 16 * MIB, maxTotalBytes: 64 * MIB };

/**
 * Compressed bytes handed to the inflater at a time. DEFLATE expands at most about 1 032:1, so one
 * step inflates at most ~4 MiB before the byte counters are checked again.
 */
const INPUT_CHUNK = 4096;

/** The XML entries of a zip, in archive order, and how many entries it held in all. */
export interface ZipXml {
  readonly entries: number;
  readonly files: readonly { readonly name: string; readonly data: Uint8Array }[];
}

/** A zip reply that cannot be read within its bounds, is corrupt, or holds no XML entry. */
export class EntsoeZipError extends EntsoeFormatError {}

const size = (n: number): string =>
  n % MIB === 0 ? `${n / MIB} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
const quoted = (name: string): string => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);

interface Entry {
  readonly name: string;
  readonly chunks: Uint8Array[];
  bytes: number;
  complete: boolean;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Reads the `.xml` entries of a zip with fflate's streaming `Unzip`, feeding it {@link INPUT_CHUNK}
 * bytes at a time and counting decompressed bytes as they come, so no entry is ever inflated whole
 * before being measured. Other entries are counted but not inflated.
 * @throws EntsoeZipError when a bound of `limits` is exceeded, the archive is corrupt or truncated,
 *   or it holds no XML entry.
 */
export function readZipXml(body: Uint8Array, limits: ZipLimits = ZIP_LIMITS): ZipXml {
  const xml: Entry[] = [];
  let entries = 0;
  let total = 0;
  let failure: string | null = null;
  const fail = (why: string) => void (failure ??= why);

  const onFile = (file: UnzipFile) => {
    entries++;
    if (entries > limits.maxEntries) return fail(`more than ${limits.maxEntries} entries (limit per zip)`);
    if (!file.name.toLowerCase().endsWith('.xml')) return;
    const entry: Entry = { name: file.name, chunks: [], bytes: 0, complete: false };
    xml.push(entry);
    file.ondata = (err, data, final) => {
      if (err) return fail(`entry ${quoted(file.name)} is corrupt (${err.message})`);
      entry.bytes += data.length;
      total += data.length;
      if (entry.bytes > limits.maxEntryBytes)
        return fail(`entry ${quoted(file.name)} expands past ${size(limits.maxEntryBytes)} (limit per entry)`);
      if (total > limits.maxTotalBytes)
        return fail(`its XML entries expand past ${size(limits.maxTotalBytes)} (limit per zip)`);
      entry.chunks.push(data);
      entry.complete = final;
    };
    file.start();
  };

  const unzip = new Unzip(onFile);
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < body.length && failure === null; at += INPUT_CHUNK) {
      unzip.push(body.subarray(at, at + INPUT_CHUNK), at + INPUT_CHUNK >= body.length);
    }
  } catch (e) {
    fail(`corrupt archive (${(e as Error).message})`);
  }
  const incomplete = xml.find((e) => !e.complete);
  if (failure === null && incomplete) fail(`entry ${quoted(incomplete.name)} is truncated`);
  if (failure !== null) throw new EntsoeZipError(`zip reply refused: ${failure}`);
  if (entries === 0) throw new EntsoeZipError('zip reply refused: no readable entry (empty or corrupt archive)');
  if (xml.length === 0) throw new EntsoeZipError(`zip reply refused: no XML entry among its ${entries} entries`);
  return { entries, files: xml.map((e) => ({ name: e.name, data: concat(e.chunks, e.bytes) })) };
}
