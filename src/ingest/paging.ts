/**
 * Paging of the platform's document-limited items with `offset`: A44 day-ahead prices (100
 * TimeSeries per reply) and A78 outages (200 documents per zip). A server that ignores `offset`
 * answers every page with the first one again, each time with a new createdDateTime and document
 * mRID, so pages are compared on their parsed content, never on their bytes.
 */
import { createHash } from 'node:crypto';
import { describeRequest, type EntsoeClient, type EntsoeReply, type EntsoeRequest } from './client.js';
import {
  type DayAheadPrices,
  EntsoeError,
  type EntsoeResult,
  parseDayAheadPrices,
  readOutagePage,
  type TransmissionOutage,
} from './entsoe/index.js';

/** TimeSeries per page of A44 replies (the platform's limit for energy prices). */
export const PRICE_PAGE_SIZE = 100;
/** Documents per page of A78 outage replies (the platform's limit). */
export const OUTAGE_PAGE_SIZE = 200;
/** Pages fetched at most per request window (offsets up to 39 × the page size). */
export const MAX_PAGES = 40;

/**
 * A window's pages cannot be read whole: a later page repeated an earlier one (the platform ignored
 * `offset`), or there were more than {@link MAX_PAGES}. The window fails instead of being recorded
 * done with part of its data, so a later run fetches it again.
 */
export class EntsoePagingError extends EntsoeError {}

/** One parsed page: its records, and how many documents (TimeSeries, zip entries) it held. */
export interface Page<T> {
  readonly data: T;
  readonly documents: number;
}

/** A paged item: the page size, and how a reply is parsed into a page. */
export interface PagedItem<T> {
  /** Documents in a full page: a shorter page is the last. */
  readonly size: number;
  read(reply: EntsoeReply): Page<T>;
}

/** The records of a parsed reply, null for an acknowledgement ("No matching data found"). */
export function dataOf<T>(result: EntsoeResult<T>): T | null {
  return result.kind === 'data' ? result.data : null;
}

function countOccurrences(body: Uint8Array, needle: string): number {
  const text = new TextDecoder().decode(body);
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** A44 pages: day-ahead prices (null for "No matching data"). */
export const PRICE_PAGES: PagedItem<DayAheadPrices | null> = {
  size: PRICE_PAGE_SIZE,
  read: (reply) => ({
    data: dataOf(parseDayAheadPrices(reply.body, { httpStatus: reply.status })),
    documents: countOccurrences(reply.body, '<TimeSeries>'),
  }),
};

/** A78 pages: every outage of the zip, inactive ones included. */
export const OUTAGE_PAGES: PagedItem<TransmissionOutage[]> = {
  size: OUTAGE_PAGE_SIZE,
  read: (reply) => {
    const page = readOutagePage(reply.body, { includeInactive: true, httpStatus: reply.status });
    return { data: dataOf(page.result) ?? [], documents: page.documents };
  },
};

/** SHA-256 of the parsed content (series, periods, values; no document header). */
function fingerprint(data: unknown): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('hex');
}

/**
 * Fetches and parses every page of a paged item: offsets 0, size, 2 × size... while a page comes
 * back full. A page whose parsed content equals an earlier page's ends the window with an error:
 * pages of one window never legitimately repeat, but a server ignoring `offset` repeats page 0.
 * @throws EntsoePagingError, and the client's and parser's errors.
 */
export async function fetchPages<T>(
  client: EntsoeClient,
  req: EntsoeRequest,
  item: PagedItem<T>,
  signal?: AbortSignal,
): Promise<T[]> {
  const pages: T[] = [];
  const seen = new Map<string, number>();
  for (let offset = 0; ; offset += item.size) {
    if (pages.length === MAX_PAGES) {
      throw new EntsoePagingError(
        `${describeRequest(req)}: more than ${MAX_PAGES} pages of ${item.size} documents; not stored`,
      );
    }
    const page = item.read(await client.get(offset ? { ...req, offset } : req, signal));
    if (page.documents > 0) {
      const print = fingerprint(page.data);
      const earlier = seen.get(print);
      if (earlier !== undefined) {
        throw new EntsoePagingError(
          `${describeRequest({ ...req, offset })}: the platform repeated the page at offset ${earlier} (offset ignored); ` +
            'the window is not stored, a later run fetches it again',
        );
      }
      seen.set(print, offset);
    }
    pages.push(page.data);
    if (page.documents < item.size) return pages;
  }
}
