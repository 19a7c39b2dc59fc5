/** Hostile A78 replies for the zip-bound tests: bombs, too many entries, no XML, corrupt archives. */
import { constants, deflateRawSync } from 'node:zlib';
import { Zip, type ZipInputFile, zipSync } from 'fflate';
import { fixture } from './entsoe-helpers.js';

const MIB = 1 << 20;

/**
 * A zip of one `bomb.xml` entry expanding to `mib` MiB of spaces, built without ever holding the
 * expanded bytes: a byte-aligned deflate block of 1 MiB (full flush) repeated, then an empty final
 * block. Streamed with a data descriptor, like a zip written on the fly (its CRC is not computed).
 */
export function zipBomb(mib: number): Uint8Array {
  const block = deflateRawSync(Buffer.alloc(MIB, 0x20), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const out: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    out.push(chunk);
  });
  const file: ZipInputFile = { filename: 'bomb.xml', size: 0, crc: 0, compression: 8 };
  zip.add(file);
  for (let i = 0; i < mib; i++) file.ondata!(null, block, false);
  file.size = mib * MIB;
  file.ondata!(null, Uint8Array.of(0x03, 0x00), true);
  zip.end();
  return Buffer.concat(out);
}

/** A zip (sizes in its local headers) of `count` XML entries of `bytes` spaces each. */
export function zipOfSpaces(count: number, bytes: number): Uint8Array {
  const entries = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`${String(i).padStart(4, '0')}.xml`, new Uint8Array(bytes).fill(0x20)]),
  );
  return zipSync(entries, { level: 9 });
}

/** The real A78 zip of the fixtures (one entry, 3 340 bytes of XML). */
export const realOutageZip = (): Uint8Array => fixture('A78_OUTAGES_A78_202011180000-202011190000.zip');

/** A zip holding only a text file. */
export const zipWithoutXml = (): Uint8Array => zipSync({ 'readme.txt': new TextEncoder().encode('no outage here') });

/** The real zip cut inside its entry's compressed data. */
export const truncatedZip = (): Uint8Array => realOutageZip().subarray(0, 300);

/** The real zip with 20 bytes of its entry's compressed data inverted. */
export function corruptedZip(): Uint8Array {
  const body = Buffer.from(realOutageZip());
  for (let i = 120; i < 140; i++) body[i]! ^= 0xff;
  return body;
}
