import { describe, expect, it } from 'vitest';
import { type DataEvent, readDataEvent } from '../../src/domain/data-events.js';

/** The event a payload reads as for the listener of `schema`, or null when it is dropped. */
function parseDataEvent(payload: string | undefined, schema: string): DataEvent | null {
  const read = readDataEvent(payload, schema);
  return 'event' in read ? read.event : null;
}

const payload = (o: Record<string, unknown>) =>
  JSON.stringify({
    schema: 'public',
    kind: 'prices',
    item: 'prices',
    areas: ['ES'],
    from: '2025-10-01T00:00:00Z',
    to: '2025-10-02T00:00:00Z',
    ...o,
  });

describe('parseDataEvent', () => {
  it('reads prices events as zones and the other kinds as borders, with their range', () => {
    expect(parseDataEvent(payload({}), 'public')).toEqual({
      kind: 'prices',
      item: 'prices',
      zones: ['ES'],
      borders: [],
      from: new Date('2025-10-01T00:00:00Z'),
      to: new Date('2025-10-02T00:00:00Z'),
    });
    expect(parseDataEvent(payload({ kind: 'flows', item: 'ntc', areas: ['ES->FR'] }), 'public')).toMatchObject({
      kind: 'flows',
      item: 'ntc',
      zones: [],
      borders: ['ES->FR'],
    });
  });

  it('ignores events of another schema sharing the database', () => {
    expect(parseDataEvent(payload({ schema: 'tenant_b' }), 'public')).toBeNull();
  });

  it('ignores payloads that are not data events', () => {
    for (const bad of [
      '',
      'not json',
      '{}',
      payload({ kind: 'weather' }),
      payload({ areas: 'ES' }),
      payload({ from: 'yesterday' }),
    ]) {
      expect(parseDataEvent(bad, 'public')).toBeNull();
    }
  });
});

describe('parseDataEvent on whatever anyone with a connection sends on the channel', () => {
  const junk = [
    'null',
    'true',
    '42',
    '"text"',
    '[]',
    '[1,2]',
    '{"schema":null}',
    'x'.repeat(7_900),
    `{"a":"${'é'.repeat(3_900)}"}`,
    payload({ schema: 42 }),
    payload({ kind: null }),
    payload({ item: 7 }),
    payload({ areas: null }),
    payload({ areas: [1] }),
    payload({ from: 12 }),
    payload({ to: null }),
    payload({ from: '2025-10-02T00:00:00Z', to: '2025-10-01T00:00:00Z' }),
    JSON.stringify({ id: 1, type: 'invalidate', table: 'users' }),
  ];

  it('returns null for every payload that is not a data event, never throwing', () => {
    for (const bad of junk) expect(() => parseDataEvent(bad, 'public'), bad.slice(0, 40)).not.toThrow();
    for (const bad of junk) expect(parseDataEvent(bad, 'public'), bad.slice(0, 40)).toBeNull();
  });
});
