import type {
  BorderCatalogueRow,
  BorderCoverage,
  Coverage,
  ZoneCatalogueRow,
  ZoneCoverage,
} from '../../services/catalogue.js';
import { defineRow, fieldsOf } from '../fields.js';

const span = fieldsOf<Coverage>();

/** What is stored of one data kind (REST `Coverage`, GraphQL `Coverage`). */
export const COVERAGE_ROW = defineRow<Coverage>({
  rest: 'Coverage',
  graphql: 'Coverage',
  description:
    'The stored span of one data kind: pass datetime_from and datetime_to as the range of a query to get all of it.',
  fields: [
    span.datetime((c) => c.datetimeFrom, {
      rest: 'datetime_from',
      graphql: 'datetimeFrom',
      description: 'Start of the first stored period, UTC.',
      example: '2025-01-01T00:00:00Z',
    }),
    span.datetime((c) => c.datetimeTo, {
      rest: 'datetime_to',
      graphql: 'datetimeTo',
      description: 'End of the last stored period (exclusive), UTC.',
      example: '2026-11-23T00:00:00Z',
    }),
    span.string((c) => c.nativeResolution, {
      rest: 'native_resolution',
      graphql: 'nativeResolution',
      nullable: true,
      example: 'PT15M',
      description:
        'ISO 8601 length of the latest stored period (PT15M, PT30M or PT60M; earlier periods may be longer); null for intervals such as outages.',
    }),
    span.strings((c) => c.sources, {
      rest: 'sources',
      graphql: 'sources',
      description: 'Where the stored values came from, named as in meta.upstream_sources.',
    }),
  ],
});

const zoneKinds = fieldsOf<ZoneCoverage>();

/** Coverage of a zone per data kind. */
export const ZONE_COVERAGE_ROW = defineRow<ZoneCoverage>({
  rest: 'ZoneCoverage',
  graphql: 'ZoneCoverage',
  description:
    'What is stored for a zone, per data kind; a kind is null when nothing is stored. Flow coverage is per border (/api/v1/borders).',
  fields: [
    zoneKinds.object((c) => c.prices, {
      contract: COVERAGE_ROW,
      rest: 'prices',
      graphql: 'prices',
      nullable: true,
      description: 'Day-ahead prices.',
    }),
  ],
});

const borderKinds = fieldsOf<BorderCoverage>();

/** Coverage of a border per data kind. */
export const BORDER_COVERAGE_ROW = defineRow<BorderCoverage>({
  rest: 'BorderCoverage',
  graphql: 'BorderCoverage',
  description:
    'What is stored for a border, per data kind; a kind is null when nothing is stored. Hourly kinds count hours with a value in either direction.',
  fields: [
    borderKinds.object((c) => c.physicalFlows, {
      contract: COVERAGE_ROW,
      rest: 'physical_flows',
      graphql: 'physicalFlows',
      nullable: true,
      description: 'Physical cross-border flows (hourly).',
    }),
    borderKinds.object((c) => c.scheduledFlows, {
      contract: COVERAGE_ROW,
      rest: 'scheduled_flows',
      graphql: 'scheduledFlows',
      nullable: true,
      description: 'Scheduled commercial exchanges (hourly).',
    }),
    borderKinds.object((c) => c.ntc, {
      contract: COVERAGE_ROW,
      rest: 'ntc',
      graphql: 'ntc',
      nullable: true,
      description: 'Net transfer capacities (hourly).',
    }),
    borderKinds.object((c) => c.outages, {
      contract: COVERAGE_ROW,
      rest: 'outages',
      graphql: 'outages',
      nullable: true,
      description: 'Transmission outages: earliest start to latest end.',
    }),
  ],
});

const zone = fieldsOf<ZoneCatalogueRow>();

/** A zone of /api/v1/zones. */
export const ZONE_ROW = defineRow<ZoneCatalogueRow>({
  rest: 'ZoneRow',
  graphql: 'Zone',
  description: 'A bidding zone with what the database holds for it.',
  fields: [
    zone.string((z) => z.code, {
      rest: 'zone',
      description: 'ENTSO-E short code (the code every zone parameter accepts).',
      example: 'DE_LU',
    }),
    zone.string((z) => z.eic, { rest: 'eic', description: 'Energy Identification Code.', example: '10Y1001A1001A82H' }),
    zone.string((z) => z.name, { rest: 'name', description: 'English name.' }),
    zone.string((z) => z.timeZone, {
      rest: 'time_zone',
      description: 'IANA time zone (peak hours are local).',
      example: 'Europe/Berlin',
    }),
    zone.strings((z) => z.neighbours, {
      rest: 'neighbours',
      description: 'Short codes of the zones sharing a border with this one, sorted.',
    }),
    zone.object((z) => z.coverage, {
      contract: ZONE_COVERAGE_ROW,
      rest: 'coverage',
      description: 'Stored data per kind.',
    }),
    zone.datetime((z) => z.validFrom, {
      rest: 'valid_from',
      graphql: 'validFrom',
      nullable: true,
      description:
        'First instant of the zone, UTC; null when it existed from the platform’s first data (2015). Data of a range before it is a 422 when the zone is named.',
      example: '2018-09-30T22:00:00Z',
    }),
    zone.datetime((z) => z.validTo, {
      rest: 'valid_to',
      graphql: 'validTo',
      nullable: true,
      description: 'End of the zone (exclusive), UTC; null for a current zone.',
    }),
    zone.strings((z) => z.predecessors, {
      rest: 'predecessors',
      description:
        'Codes of the zones this one replaced (all or part of their area): DE_LU and AT list DE_AT_LU. With lineage=true a zone with one predecessor answers with its prices before it existed.',
    }),
    zone.strings((z) => z.successors, {
      rest: 'successors',
      description: 'Codes of the zones that replaced this one (DE_AT_LU: DE_LU, AT).',
    }),
  ],
});

const border = fieldsOf<BorderCatalogueRow>();

/** A border of /api/v1/borders. */
export const BORDER_ROW = defineRow<BorderCatalogueRow>({
  rest: 'BorderRow',
  graphql: 'Border',
  description:
    'A border between two neighbouring zones, in stored orientation (zone_a sorts first), with what the database holds for it.',
  fields: [
    border.string((b) => b.key, {
      rest: 'border',
      description: 'zone_a->zone_b, the form every border parameter accepts (either orientation).',
      example: 'DE_LU->FR',
    }),
    border.string((b) => b.a, { rest: 'zone_a', description: 'The zone whose code sorts first.' }),
    border.string((b) => b.b, { rest: 'zone_b', description: 'The other zone.' }),
    border.object((b) => b.coverage, {
      contract: BORDER_COVERAGE_ROW,
      rest: 'coverage',
      description: 'Stored data per kind.',
    }),
    border.datetime((b) => b.validFrom, {
      rest: 'valid_from',
      graphql: 'validFrom',
      nullable: true,
      description: 'First instant in which both zones exist, UTC; null: from the platform’s first data.',
      example: '2018-09-30T22:00:00Z',
    }),
    border.datetime((b) => b.validTo, {
      rest: 'valid_to',
      graphql: 'validTo',
      nullable: true,
      description: 'End of the border (exclusive), UTC: when one of its zones ended; null for a current border.',
    }),
  ],
});
