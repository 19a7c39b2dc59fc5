import { XMLParser } from 'fast-xml-parser';
import { EntsoeFormatError } from './errors.js';

/** An element parsed by fast-xml-parser: child elements by local name (namespace prefixes removed). */
export type XmlNode = { readonly [name: string]: unknown };

/** Elements that may repeat and are therefore always read as arrays. */
const REPEATING = new Set(['TimeSeries', 'Period', 'Point', 'Available_Period', 'Reason', 'Asset_RegisteredResource']);

/**
 * Elements kept as raw text by the document parser ("stop nodes"): periods hold nearly all the
 * volume of a reply (35,040 Points for a year of quarter-hours) and are read by a dedicated scanner
 * in series.ts, about 15 times faster than building an object per Point.
 */
export const RAW_ELEMENTS = ['Period', 'Available_Period'] as const;

const OPTIONS = {
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  // Also decodes numeric character references (&#49;), which fast-xml-parser leaves alone otherwise.
  htmlEntities: true,
  isArray: (name: string) => REPEATING.has(name),
};

/**
 * Document parser: attributes (codingScheme...) ignored, values kept as strings (mRIDs such as
 * `1e5...` must not become numbers), namespace prefixes removed, periods left raw.
 */
const parser = new XMLParser({ ...OPTIONS, stopNodes: RAW_ELEMENTS.map((name) => `*.${name}`) });

/** Parser of fragments (a raw period whose text the fast scanner does not handle). */
const fragmentParser = new XMLParser(OPTIONS);

/**
 * Parses an XML fragment with a single root element into that element.
 * @throws EntsoeFormatError when it holds no element.
 */
export function parseFragment(xml: string): XmlNode {
  const parsed = fragmentParser.parse(xml) as Record<string, unknown>;
  const value = Object.values(parsed)[0];
  const root = Array.isArray(value) ? value[0] : value;
  if (typeof root !== 'object' || root === null) throw new EntsoeFormatError('unreadable XML fragment');
  return root as XmlNode;
}

/** Raw inner XML of every child element of this name kept raw by the parser (see {@link RAW_ELEMENTS}). */
export function rawChildrenOf(node: XmlNode, name: (typeof RAW_ELEMENTS)[number]): string[] {
  const v = node[name];
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'string' ? x : ''));
}

/** A parsed XML reply: its root element's local name, its namespace and the root element. */
export interface XmlDocument {
  readonly rootName: string;
  readonly namespace: string | null;
  readonly root: XmlNode;
}

const ROOT_TAG = /<(?:([A-Za-z_][\w.-]*):)?[A-Za-z_][\w.-]*([^>]*)>/;

/** Namespace of the root element (default `xmlns="..."`, or the binding of its prefix), or null. */
function rootNamespace(xml: string): string | null {
  const m = ROOT_TAG.exec(xml);
  if (!m) return null;
  const attr = m[1] ? `xmlns:${m[1]}` : 'xmlns';
  const ns = new RegExp(`\\s${attr.replace(/\./g, '\\.')}\\s*=\\s*"([^"]*)"`).exec(m[2] ?? '');
  return ns?.[1] ?? null;
}

/**
 * Parses XML text into an {@link XmlDocument}.
 * @throws EntsoeFormatError when the text holds no root element.
 */
export function parseXml(xml: string): XmlDocument {
  let parsed: Record<string, unknown>;
  try {
    parsed = parser.parse(xml) as Record<string, unknown>;
  } catch (e) {
    throw new EntsoeFormatError(`unreadable XML: ${(e as Error).message}`);
  }
  const rootName = Object.keys(parsed).find((k) => !k.startsWith('?') && !k.startsWith('!'));
  const root = rootName === undefined ? undefined : parsed[rootName];
  if (rootName === undefined || typeof root !== 'object' || root === null) {
    throw new EntsoeFormatError('the reply holds no XML document');
  }
  return { rootName, namespace: rootNamespace(xml), root: root as XmlNode };
}

/** Text content of a child element (trimmed), or undefined when absent. */
export function textOf(node: XmlNode, name: string): string | undefined {
  const v = node[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return textOf({ v: v[0] }, 'v');
  const inner = (v as XmlNode)['#text'];
  return inner === undefined ? '' : String(inner);
}

/** Text content of a required child element. @throws EntsoeFormatError when it is missing or empty. */
export function requireText(node: XmlNode, name: string, where: string): string {
  const t = textOf(node, name);
  if (t === undefined || t === '') throw new EntsoeFormatError(`${where}: missing <${name}>`);
  return t;
}

/** A child element, or undefined when absent or not an element. */
export function childOf(node: XmlNode, name: string): XmlNode | undefined {
  const v = node[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'object' && first !== null ? (first as XmlNode) : undefined;
}

/** A required child element. @throws EntsoeFormatError when it is missing. */
export function requireChild(node: XmlNode, name: string, where: string): XmlNode {
  const c = childOf(node, name);
  if (!c) throw new EntsoeFormatError(`${where}: missing <${name}>`);
  return c;
}

/** All child elements of this name (an empty array when there are none). */
export function childrenOf(node: XmlNode, name: string): XmlNode[] {
  const v = node[name];
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is XmlNode => typeof x === 'object' && x !== null);
}
