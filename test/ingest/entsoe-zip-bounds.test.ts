/**
 * A78 zips are read within bounds: entry count, decompressed bytes per entry and per zip. A zip
 * past a bound, corrupt, or without XML is refused with a message naming why, never inflated whole.
 */
import { describe, expect, it } from 'vitest';
import { EntsoeZipError, parseTransmissionOutages, readOutagePage, ZIP_LIMITS } from '../../src/ingest/entsoe/index.js';
import { dataOf } from './entsoe-helpers.js';
import { corruptedZip, realOutageZip, truncatedZip, zipBomb, zipOfSpaces, zipWithoutXml } from './hostile-zips.js';

const MIB = 1 << 20;

/** Peak resident memory of this process so far, bytes (Linux reports KiB). */
const peakRss = (): number => process.resourceUsage().maxRSS * 1024;

function refusal(body: Uint8Array, options?: Parameters<typeof parseTransmissionOutages>[1]): EntsoeZipError {
  try {
    parseTransmissionOutages(body, options);
  } catch (e) {
    expect(e).toBeInstanceOf(EntsoeZipError);
    return e as EntsoeZipError;
  }
  throw new Error('the zip was accepted');
}

describe('A78 zip bounds', () => {
  it('refuses a 256 MiB zip bomb of 260 kB past the 16 MiB entry bound, the peak memory growing by far less than it expands to', () => {
    const bomb = zipBomb(256);
    expect(bomb.length).toBeLessThan(300 * 1024);
    const before = peakRss();
    const e = refusal(bomb);
    const grown = peakRss() - before;
    expect(e.message).toBe('zip reply refused: entry "bomb.xml" expands past 16 MiB (limit per entry)');
    expect(grown).toBeLessThan(96 * MIB);
  });

  it('refuses an entry whose local header declares its size, one byte past the entry bound', () => {
    const e = refusal(zipOfSpaces(1, 64 * 1024 + 1), { zipLimits: { ...ZIP_LIMITS, maxEntryBytes: 64 * 1024 } });
    expect(e.message).toBe('zip reply refused: entry "0000.xml" expands past 64 KiB (limit per entry)');
  });

  it('refuses entries each within the entry bound but together past the zip bound', () => {
    const e = refusal(zipOfSpaces(3, 40 * 1024), {
      zipLimits: { ...ZIP_LIMITS, maxEntryBytes: 64 * 1024, maxTotalBytes: 100 * 1024 },
    });
    expect(e.message).toBe('zip reply refused: its XML entries expand past 100 KiB (limit per zip)');
  });

  it(`refuses a zip of more than ${ZIP_LIMITS.maxEntries} entries`, () => {
    const e = refusal(zipOfSpaces(ZIP_LIMITS.maxEntries + 1, 1));
    expect(e.message).toBe(`zip reply refused: more than ${ZIP_LIMITS.maxEntries} entries (limit per zip)`);
  });

  it('refuses a zip without an XML entry instead of reading it as no outages', () => {
    expect(refusal(zipWithoutXml()).message).toBe('zip reply refused: no XML entry among its 1 entries');
  });

  it('refuses a zip cut inside its entry', () => {
    expect(refusal(truncatedZip()).message).toMatch(/^zip reply refused: corrupt archive \(.+\)$/);
  });

  it('refuses a zip whose compressed data is damaged', () => {
    expect(refusal(corruptedZip()).message).toMatch(
      /^zip reply refused: entry "001-001-PLANNED_UNAVAIL_IN_TRANSMISSION_GRID_\d+-\d+\.xml" is corrupt \(.+\)$/,
    );
  });

  it('reads the real zip within the default bounds and counts its one document', () => {
    const page = readOutagePage(realOutageZip());
    expect(page.documents).toBe(1);
    expect(dataOf(page.result).map((o) => o.mRID)).toEqual(['jK9_LQxQKyCztr5NfozZKg']);
  });
});
