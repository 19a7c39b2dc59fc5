/**
 * Pure parsing layer of the ENTSO-E Transparency Platform ingestion: reply bodies in, typed values
 * out (prices EUR/MWh, power MW, all instants UTC). No network, no database. See README.md.
 */
export {
  EntsoeAuthError,
  EntsoeError,
  EntsoeFormatError,
  EntsoeNotDayAheadError,
  EntsoeUpstreamError,
  redactSecrets,
} from './errors.js';
export {
  DEFAULT_SCHEDULE_CONTRACTS,
  parsePhysicalFlows,
  parseScheduledExchanges,
  type ScheduleParseOptions,
} from './flows.js';
export { fillGaps, mergeSamples } from './gaps.js';
export { toHourly } from './hourly.js';
export { parseNetTransferCapacity } from './ntc.js';
export {
  parseTransmissionOutages,
  readOutageDocument,
  readOutagePage,
  type OutagePage,
  type OutageParseOptions,
} from './outages.js';
export { parseDayAheadPrices, SDAC_SEQUENCE, type PriceParseOptions } from './prices.js';
export { readReply, PUBLICATION_NAMESPACES, OUTAGE_NAMESPACES } from './reply.js';
export { expandPeriod, readSeries, type RawPeriod, type RawSeries, type Sample } from './series.js';
export { addEuCalendarDays, isEuSummerTime, parseResolution } from './time.js';
export * from './types.js';
export { EntsoeZipError, readZipXml, ZIP_LIMITS, type ZipLimits, type ZipXml } from './zip.js';
