import { describe, expect, it } from 'vitest';
import {
  EntsoeAuthError,
  EntsoeFormatError,
  EntsoeUpstreamError,
  parseDayAheadPrices,
  parseNetTransferCapacity,
  parsePhysicalFlows,
  parseScheduledExchanges,
  parseTransmissionOutages,
  readReply,
} from '../../src/ingest/entsoe/index.js';
import { fixture } from './entsoe-helpers.js';

const PARSERS = {
  parseDayAheadPrices,
  parsePhysicalFlows,
  parseScheduledExchanges,
  parseNetTransferCapacity,
  parseTransmissionOutages,
} as const;

function ack(code: string, text: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Acknowledgement_MarketDocument xmlns="urn:iec62325.351:tc57wg16:451-1:acknowledgementdocument:7:0">
  <mRID>x</mRID><Reason><code>${code}</code><text>${text}</text></Reason>
</Acknowledgement_MarketDocument>`;
}

describe('acknowledgements', () => {
  it.each(Object.entries(PARSERS))(
    '%s: reason 999 "No matching data found" is the typed empty answer',
    (_name, parse) => {
      expect(parse(fixture('ACK_no_matching_data_official_guide_example_2016.xml'))).toEqual({
        kind: 'empty',
        reason: 'No matching data found',
      });
    },
  );

  it('the longer modern "No matching data found for Data item ..." text is empty too', () => {
    const result = parseDayAheadPrices(fixture('HANDMADE_ACK_no_matching_data_modern_text.xml'));
    expect(result.kind).toBe('empty');
    expect(result.kind === 'empty' && result.reason).toMatch(
      /^No matching data found for Data item ENERGY_PRICES \[12\.1\.D\]/,
    );
  });

  it('any other reason is an EntsoeUpstreamError carrying code and text', () => {
    const parse = () => parsePhysicalFlows(fixture('ACK_bad_request_2023.xml'));
    expect(parse).toThrow(EntsoeUpstreamError);
    try {
      parse();
    } catch (e) {
      expect(e).toMatchObject({ reasonCode: '999', reasonText: 'Bad request message from API' });
      expect((e as Error).message).toBe('ENTSO-E refused the request (reason 999): Bad request message from API');
    }
  });

  it('a too-wide range is an upstream error, not "empty"', () => {
    const body = ack(
      '999',
      'The amount of requested data exceeds allowed limit. Max allowed: 1 year; requested: 2 years.',
    );
    expect(() => parseDayAheadPrices(body)).toThrow(/exceeds allowed limit/);
  });

  it('never repeats a security token found in a reason text', () => {
    const token = '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0';
    const body = ack(
      '999',
      `Invalid request https://web-api.tp.entsoe.eu/api?securityToken=${token}&amp;documentType=A44`,
    );
    try {
      parseDayAheadPrices(body);
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain(token);
      expect((e as EntsoeUpstreamError).reasonText).toContain('securityToken=[redacted]');
    }
  });
});

describe('HTTP 401 HTML page', () => {
  it.each(Object.entries(PARSERS))(
    '%s: the HTML body is an EntsoeAuthError saying the token is wrong',
    (_name, parse) => {
      const body = fixture('HTTP401_invalid_token_body.html');
      expect(() => parse(body)).toThrow(EntsoeAuthError);
      expect(() => parse(body)).toThrow(/token is missing or wrong/);
    },
  );

  it('any body with HTTP status 401 is an auth error; other HTML pages are upstream errors', () => {
    expect(() => readReply('', { rootName: 'x', namespaces: [], type: 'A44' }, 401)).toThrow(EntsoeAuthError);
    expect(() => parseDayAheadPrices(fixture('A44_BE_2024-10-08_PT60M.xml'), { httpStatus: 401 })).toThrow(
      EntsoeAuthError,
    );
    expect(() =>
      parseTransmissionOutages(fixture('A78_OUTAGES_A78_202011180000-202011190000.zip'), { httpStatus: 401 }),
    ).toThrow(EntsoeAuthError);
    expect(() =>
      parseDayAheadPrices('<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head></html>'),
    ).toThrow(new EntsoeUpstreamError(null, 'unexpected HTML reply (503 Service Unavailable)'));
  });
});

describe('documents that are not what the parser expects', () => {
  it('a price document given to the flow parser names both types', () => {
    expect(() => parsePhysicalFlows(fixture('A44_BE_2024-10-08_PT60M.xml'))).toThrow(
      new EntsoeFormatError('expected a document of type A11, got A44'),
    );
  });

  it('an unknown namespace is refused', () => {
    const body = new TextDecoder()
      .decode(fixture('A44_BE_2024-10-08_PT60M.xml'))
      .replace('publicationdocument:7:3', 'publicationdocument:9:9');
    expect(() => parseDayAheadPrices(body)).toThrow(
      /unsupported namespace urn:iec62325\.351:tc57wg16:451-3:publicationdocument:9:9/,
    );
  });

  it('a position beyond the period, a duplicated position, an unknown resolution are refused', () => {
    const be = new TextDecoder().decode(fixture('A44_BE_2024-10-08_PT60M.xml'));
    expect(() => parseDayAheadPrices(be.replace('<position>24</position>', '<position>25</position>'))).toThrow(
      /position 25 outside 1\.\.24/,
    );
    expect(() => parseDayAheadPrices(be.replace('<position>24</position>', '<position>23</position>'))).toThrow(
      /position 23 given twice/,
    );
    expect(() => parseDayAheadPrices(be.replace('PT60M', 'PT5M'))).toThrow(/unsupported resolution "PT5M"/);
  });

  it('prices in another currency are refused', () => {
    const be = new TextDecoder().decode(fixture('A44_BE_2024-10-08_PT60M.xml'));
    expect(() => parseDayAheadPrices(be.replace('<currency_Unit.name>EUR', '<currency_Unit.name>PLN'))).toThrow(
      /PLN\/MWH, expected EUR\/MWH/,
    );
  });

  it('an empty body and a non-XML body are format errors', () => {
    expect(() => parseDayAheadPrices('')).toThrow(EntsoeFormatError);
    expect(() => parseDayAheadPrices('Service temporarily unavailable')).toThrow(EntsoeFormatError);
  });
});
