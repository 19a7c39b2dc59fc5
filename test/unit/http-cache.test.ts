import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { cacheControl } from '../../src/http/cache-control.js';
import { mergedVary } from '../../src/http/vary.js';
import { canonicalQuery, isRelative, matchesIfNoneMatch } from '../../src/rest/cache.js';
import { representation } from '../../src/rest/formats.js';

const NOW = Date.parse('2025-11-05T12:00:00Z');
const range = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });

describe('cacheControl', () => {
  it('keeps ranges ending 48 h or more before now an hour, later ones and relative ones a minute', () => {
    const at = (to: string, relative = false, privateOnly = false) =>
      cacheControl({ range: range('2025-10-01T00:00:00Z', to), nowMs: NOW, relative, privateOnly });
    expect(at('2025-11-03T12:00:00Z')).toBe('public, max-age=3600');
    expect(at('2025-11-03T12:00:01Z')).toBe('public, max-age=60');
    expect(at('2026-01-01T00:00:00Z')).toBe('public, max-age=60');
    expect(at('2025-10-02T00:00:00Z', true)).toBe('public, max-age=60');
    expect(at('2025-10-02T00:00:00Z', false, true)).toBe('private, max-age=3600');
    expect(cacheControl({ range: null, nowMs: NOW, relative: false, privateOnly: false })).toBe('public, max-age=60');
  });
});

describe('REST cache keys', () => {
  const schema = z.object({
    datetime_from: z.string().optional(),
    datetime_to: z.string().optional(),
    zone: z.array(z.string()).optional(),
  });

  it('orders declared parameters by name, keeps repeated values in order and drops unknown ones', () => {
    const a = canonicalQuery(schema, new URLSearchParams('zone=FR&x=1&datetime_to=2025-10-02&zone=DE_LU'));
    expect(a).toBe('datetime_to=2025-10-02&zone=FR&zone=DE_LU');
    expect(canonicalQuery(schema, new URLSearchParams('datetime_to=2025-10-02&zone=FR&zone=DE_LU'))).toBe(a);
  });

  it('calls a range relative when a bound is missing or starts with now', () => {
    expect(isRelative(schema, new URLSearchParams('datetime_from=2025-10-01&datetime_to=2025-10-02'))).toBe(false);
    expect(isRelative(schema, new URLSearchParams('datetime_from=2025-10-01'))).toBe(true);
    expect(isRelative(schema, new URLSearchParams('datetime_from=NOW-2d&datetime_to=2025-10-02'))).toBe(true);
    expect(isRelative(z.object({ zone: z.string().optional() }), new URLSearchParams())).toBe(false);
  });

  it('reads the representation from format, then Accept', () => {
    const req = (accept?: string) => new Request('http://t/', { headers: accept ? { accept } : {} });
    expect(representation(req('text/csv'), new URL('http://t/?format=JSON'))).toBe('json');
    expect(representation(req('text/csv, application/json;q=0.5'), new URL('http://t/'))).toBe('csv');
    expect(representation(req(), new URL('http://t/'))).toBe('json');
    expect(representation(req('application/vnd.apache.arrow.stream'), new URL('http://t/'))).toBe('arrow');
    expect(representation(req('text/*;q=0.9, application/json;q=0.8'), new URL('http://t/'))).toBe('csv');
  });

  it('matches If-None-Match tags, lists, weak tags, coded tags and *', () => {
    const tag = '"abc"';
    expect(matchesIfNoneMatch('"abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc-gzip"', tag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc-br"', tag)).toBe(true);
    expect(matchesIfNoneMatch('*', tag)).toBe(true);
    expect(matchesIfNoneMatch('"abcd"', tag)).toBe(false);
    expect(matchesIfNoneMatch(null, tag)).toBe(false);
  });
});

describe('mergedVary', () => {
  it('adds names once, case-insensitively, keeping the first spelling and order, and splits lists', () => {
    expect(mergedVary('Origin', 'Accept, Accept-Encoding', 'accept', 'x-api-key')).toBe(
      'Origin, Accept, Accept-Encoding, x-api-key',
    );
    expect(mergedVary(null, ' Accept ,, Origin')).toBe('Accept, Origin');
    expect(mergedVary('Accept', 'ACCEPT')).toBe('Accept');
  });
});
