import { EntsoeAuthError, EntsoeFormatError, EntsoeUpstreamError, redactSecrets } from './errors.js';
import type { EntsoeEmpty } from './types.js';
import { childrenOf, parseXml, requireText, textOf, type XmlDocument } from './xml.js';

/** Namespaces of the publication documents (prices, flows, schedules, NTC) this layer reads. */
export const PUBLICATION_NAMESPACES = [
  'urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:0',
  'urn:iec62325.351:tc57wg16:451-3:publicationdocument:7:3',
] as const;

/** Namespace of the outage documents inside A78 zips. */
export const OUTAGE_NAMESPACES = ['urn:iec62325.351:tc57wg16:451-6:outagedocument:3:0'] as const;

/** What a caller expects: root element, accepted namespaces and document `type`. */
export interface Expectation {
  readonly rootName: string;
  readonly namespaces: readonly string[];
  readonly type: string;
}

/** Expectation for a Publication_MarketDocument of the given type (A44, A11, A09, A61). */
export function publication(type: string): Expectation {
  return { rootName: 'Publication_MarketDocument', namespaces: PUBLICATION_NAMESPACES, type };
}

const NO_DATA = /no matching data found/i;

/** Decodes a body given as bytes (UTF-8) or text, without a byte-order mark. */
export function decodeBody(body: string | Uint8Array): string {
  const text = typeof body === 'string' ? body : new TextDecoder('utf-8').decode(body);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Reads an Acknowledgement_MarketDocument: reason 999 "No matching data found..." is the typed
 * empty answer; any other reason is thrown.
 * @throws EntsoeUpstreamError carrying the reason code and text.
 */
export function readAcknowledgement(doc: XmlDocument): EntsoeEmpty {
  const reasons = childrenOf(doc.root, 'Reason').map((r) => ({
    code: textOf(r, 'code') ?? null,
    text: redactSecrets(textOf(r, 'text') ?? ''),
  }));
  const noData = reasons.find((r) => r.code === '999' && NO_DATA.test(r.text));
  if (noData) return { kind: 'empty', reason: noData.text };
  const first = reasons[0];
  const text =
    reasons
      .map((r) => r.text)
      .filter(Boolean)
      .join('; ') || 'acknowledgement without reason text';
  throw new EntsoeUpstreamError(first?.code ?? null, text);
}

/**
 * Classifies a reply body: an HTML page (the 401 reply to a bad token), an acknowledgement, or
 * the expected document.
 * @returns the parsed document, or the typed empty answer for "No matching data found".
 * @throws EntsoeAuthError for the 401 HTML page (or any body when `httpStatus` is 401).
 * @throws EntsoeUpstreamError for other acknowledgements and other HTML pages.
 * @throws EntsoeFormatError when the document is not the expected one.
 */
export function readReply(
  body: string | Uint8Array,
  expected: Expectation,
  httpStatus?: number,
): XmlDocument | EntsoeEmpty {
  const text = decodeBody(body);
  const head = text.trimStart().slice(0, 512);
  if (httpStatus === 401) throw new EntsoeAuthError();
  if (/^(<!doctype\s+html|<html[\s>])/i.test(head)) {
    if (/unauthori[sz]ed|security token/i.test(text)) throw new EntsoeAuthError();
    const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim() || 'no title';
    throw new EntsoeUpstreamError(null, `unexpected HTML reply (${redactSecrets(title)})`);
  }
  if (head.trim() === '') throw new EntsoeFormatError('empty reply body');
  const doc = parseXml(text);
  if (doc.rootName === 'Acknowledgement_MarketDocument') return readAcknowledgement(doc);
  checkDocument(doc, expected);
  return doc;
}

/**
 * Checks root element, namespace and document type.
 * @throws EntsoeFormatError naming what differs.
 */
export function checkDocument(doc: XmlDocument, expected: Expectation): void {
  if (doc.rootName !== expected.rootName) {
    throw new EntsoeFormatError(`expected <${expected.rootName}>, got <${doc.rootName}>`);
  }
  if (!doc.namespace || !expected.namespaces.includes(doc.namespace)) {
    throw new EntsoeFormatError(`unsupported namespace ${doc.namespace ?? '(none)'} for <${doc.rootName}>`);
  }
  const type = requireText(doc.root, 'type', doc.rootName);
  if (type !== expected.type) {
    throw new EntsoeFormatError(`expected a document of type ${expected.type}, got ${type}`);
  }
}
