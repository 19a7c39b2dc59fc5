import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { flowsEndpoint } from '../../src/rest/endpoints/flows.js';
import { flowsExport } from '../../src/rest/export/endpoints.js';
import { parseQuery, readQuery } from '../../src/rest/query.js';

/** V8's own answer to whether `s` is an internalized string (the kind a source literal is). */
function isInternalized(s: string): boolean {
  setFlagsFromString('--allow-natives-syntax');
  return (new Function('s', 'return %IsInternalizedString(s)') as (s: string) => boolean)(s);
}

describe('query parameter values read from the URL', () => {
  it('are fresh strings as URLSearchParams gives them (what the rest of this file guards against)', () => {
    expect(isInternalized(new URLSearchParams('resolution=1H').get('resolution')!)).toBe(false);
  });

  it('are parsed into an enum parameter’s declared string, scalars and list elements alike', () => {
    const query = parseQuery(
      flowsExport.query,
      readQuery(
        flowsExport.query,
        new URLSearchParams('resolution=1H&format=ndjson&flow_type=congestion&flow_type=outage'),
      ),
    );
    expect(query).toMatchObject({
      resolution: '1H',
      format: 'ndjson',
      flow_type: ['congestion', 'outage'],
    });
    const strings = [query.resolution, query.format, ...(query.flow_type as string[])] as string[];
    expect(strings.filter((s) => !isInternalized(s))).toEqual([]);
  });

  it('reads a lower-case resolution as the declared one and leaves free text and unknown values as given', () => {
    const query = readQuery(
      flowsEndpoint.query,
      new URLSearchParams('resolution=1h&border=DE_LU->FR&tz=Europe/Berlin'),
    );
    expect(query).toMatchObject({ resolution: '1H', border: ['DE_LU->FR'], tz: 'Europe/Berlin' });
    expect(isInternalized(query.resolution as string)).toBe(true);
    expect(readQuery(flowsEndpoint.query, new URLSearchParams('resolution=2H')).resolution).toBe('2H');
  });
});
