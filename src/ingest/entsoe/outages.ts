import { EntsoeAuthError, EntsoeFormatError } from './errors.js';
import { checkDocument, decodeBody, OUTAGE_NAMESPACES, readReply, type Expectation } from './reply.js';
import { readPeriod } from './series.js';
import { iso, parseDateAndTime, parseInstant } from './time.js';
import type { EntsoeResult, ReplyOptions, TransmissionOutage } from './types.js';
import {
  childOf,
  childrenOf,
  parseXml,
  rawChildrenOf,
  requireText,
  textOf,
  type XmlDocument,
  type XmlNode,
} from './xml.js';
import { readZipXml, ZIP_LIMITS, type ZipLimits } from './zip.js';

/** Options of {@link parseTransmissionOutages}. */
export interface OutageParseOptions extends ReplyOptions {
  /** Keep cancelled (docStatus A09) and withdrawn (A13) outages too. Default false: only active ones. */
  readonly includeInactive?: boolean;
  /** Bounds on the zip's entries and decompressed bytes. Default {@link ZIP_LIMITS}. */
  readonly zipLimits?: ZipLimits;
}

/** A parsed A78 reply and the number of documents it held (zip entries; 1 for a bare XML document). */
export interface OutagePage {
  readonly result: EntsoeResult<TransmissionOutage[]>;
  readonly documents: number;
}

const A78: Expectation = { rootName: 'Unavailability_MarketDocument', namespaces: OUTAGE_NAMESPACES, type: 'A78' };

const PLANNED: Readonly<Record<string, boolean>> = { A53: true, A54: false };
const STATUS: Readonly<Record<string, TransmissionOutage['status']>> = {
  A05: 'active',
  A09: 'cancelled',
  A13: 'withdrawn',
};

function isZip(body: string | Uint8Array): body is Uint8Array {
  return (
    typeof body !== 'string' &&
    body.length >= 4 &&
    body[0] === 0x50 &&
    body[1] === 0x4b &&
    body[2] === 0x03 &&
    body[3] === 0x04
  );
}

function reasonsOf(node: XmlNode): { code: string | null; text: string | null }[] {
  return childrenOf(node, 'Reason').map((r) => ({ code: textOf(r, 'code') || null, text: textOf(r, 'text') || null }));
}

function statusOf(root: XmlNode): TransmissionOutage['status'] {
  const node = childOf(root, 'docStatus');
  const code = node ? textOf(node, 'value') : textOf(root, 'docStatus');
  if (!code) return 'active';
  const status = STATUS[code];
  if (!status) throw new EntsoeFormatError(`unknown outage docStatus ${code}`);
  return status;
}

function instantOf(ts: XmlNode, edge: 'start' | 'end', fallback: number, where: string): number {
  const date = textOf(ts, `${edge}_DateAndOrTime.date`);
  if (!date) return fallback;
  return parseDateAndTime(date, textOf(ts, `${edge}_DateAndOrTime.time`) || '00:00:00Z', `${where} ${edge}`);
}

/**
 * Reads one Unavailability_MarketDocument (outagedocument 3:0, type A78) into one outage per
 * TimeSeries: the [start, end) interval of its in/out domain pair (power direction out -> in),
 * planned (businessType A53) or unplanned (A54), with mRID, status, reasons, assets and the lowest
 * available capacity published in its Available_Period blocks (MW).
 */
export function readOutageDocument(doc: XmlDocument): TransmissionOutage[] {
  checkDocument(doc, A78);
  const root = doc.root;
  const mRID = requireText(root, 'mRID', 'outage document');
  const revisionNumber = Number(textOf(root, 'revisionNumber') ?? '1');
  const status = statusOf(root);
  const docReasons = reasonsOf(root);
  const period = childOf(root, 'unavailability_Time_Period.timeInterval');
  const docStart = period ? parseInstant(requireText(period, 'start', mRID), `${mRID} start`) : Number.NaN;
  const docEnd = period ? parseInstant(requireText(period, 'end', mRID), `${mRID} end`) : Number.NaN;
  return childrenOf(root, 'TimeSeries').map((ts, i) => {
    const where = `outage ${mRID} TimeSeries #${i + 1}`;
    const businessType = requireText(ts, 'businessType', where);
    const planned = PLANNED[businessType];
    if (planned === undefined)
      throw new EntsoeFormatError(`${where}: businessType ${businessType} is neither A53 nor A54`);
    const start = instantOf(ts, 'start', docStart, where);
    const end = instantOf(ts, 'end', docEnd, where);
    if (!(end > start)) throw new EntsoeFormatError(`${where}: no valid interval (${iso(start)} -> ${iso(end)})`);
    const reasons = [...reasonsOf(ts), ...docReasons];
    const available = rawChildrenOf(ts, 'Available_Period').flatMap((p, k) =>
      readPeriod(p, 'quantity', `${where} Available_Period #${k + 1}`).points.map((pt) => pt.value),
    );
    const texts = reasons.map((r) => r.text).filter((t): t is string => t !== null);
    return {
      mRID,
      revisionNumber,
      fromZoneEic: requireText(ts, 'out_Domain.mRID', where),
      toZoneEic: requireText(ts, 'in_Domain.mRID', where),
      start: new Date(start),
      end: new Date(end),
      planned,
      status,
      reasonCode: reasons[0]?.code ?? null,
      reasonText: texts.length ? texts.join('; ') : null,
      assets: childrenOf(ts, 'Asset_RegisteredResource').map((a) => ({
        mRID: requireText(a, 'mRID', where),
        name: textOf(a, 'name') || null,
        psrType: textOf(a, 'asset_PSRType.psrType') || null,
      })),
      minAvailableMw: available.length ? Math.min(...available) : null,
    };
  });
}

/**
 * Parses the reply of the A78 (transmission unavailability) endpoint: a zip of outage XML documents
 * (read under `zipLimits`, see {@link readZipXml}), or an acknowledgement when nothing matched.
 *
 * Several revisions of one outage (same mRID) keep only the highest revisionNumber. Cancelled and
 * withdrawn outages are dropped unless `includeInactive`. The result is sorted by start, then mRID.
 * @throws EntsoeFormatError (EntsoeZipError for a zip past its bounds, corrupt, or without XML),
 *   EntsoeUpstreamError, EntsoeAuthError.
 */
export function parseTransmissionOutages(
  body: string | Uint8Array,
  options?: OutageParseOptions,
): EntsoeResult<TransmissionOutage[]> {
  return readOutagePage(body, options).result;
}

/** {@link parseTransmissionOutages}, also counting the documents of the reply (for paging). */
export function readOutagePage(body: string | Uint8Array, options?: OutageParseOptions): OutagePage {
  if (options?.httpStatus === 401) throw new EntsoeAuthError();
  const documents: XmlDocument[] = [];
  let count = 1;
  if (isZip(body)) {
    const zip = readZipXml(body, options?.zipLimits ?? ZIP_LIMITS);
    count = zip.entries;
    for (const file of [...zip.files].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) {
      documents.push(parseXml(decodeBody(file.data)));
    }
  } else {
    const doc = readReply(body, A78);
    if ('kind' in doc) return { result: doc, documents: 0 };
    documents.push(doc);
  }
  return { result: { kind: 'data', data: latestActive(documents, options) }, documents: count };
}

function latestActive(documents: readonly XmlDocument[], options?: OutageParseOptions): TransmissionOutage[] {
  const latest = new Map<string, TransmissionOutage[]>();
  for (const outages of documents.map(readOutageDocument)) {
    const first = outages[0];
    if (!first) continue;
    const held = latest.get(first.mRID)?.[0];
    if (!held || held.revisionNumber < first.revisionNumber) latest.set(first.mRID, outages);
  }
  const all = [...latest.values()].flat();
  const kept = options?.includeInactive ? all : all.filter((o) => o.status === 'active');
  kept.sort((a, b) => a.start.getTime() - b.start.getTime() || a.mRID.localeCompare(b.mRID));
  return kept;
}
