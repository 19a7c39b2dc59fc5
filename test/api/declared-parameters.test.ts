import { describe, expect } from 'vitest';
import { blockApp } from '../support/app.js';
import { TEST_BACKENDS } from '../support/env.js';
import { dbTest as it } from '../support/fixtures.js';

const FLOWS = '/api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-10-21&limit=100';

describe.each(TEST_BACKENDS)('cached REST answers are built from declared parameters only (%s)', (kind) => {
  it.override({ backend: kind, seed: 'demo' });
  const t = blockApp(it, { config: { RESPONSE_CACHE: true } });

  it("never replays one requester's undeclared parameters in the Link of another's page", async () => {
    const first = await t.get(`${FLOWS}&utm_source=mail&callback=evil`);
    expect(first.status).toBe(200);
    expect(first.headers.get('link')).toBe(
      '</api/v1/flows?datetime_from=2025-10-20&datetime_to=2025-10-21&limit=100&offset=100>; rel="next"',
    );
    const second = await t.get(FLOWS);
    expect(second.headers.get('link')).toBe(first.headers.get('link'));
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    const third = await t.get(`${FLOWS}&session=abc`);
    expect(third.headers.get('link')).not.toContain('session');
  });

  it('keeps a declared `format` in the Link, apart from the same page negotiated by Accept', async () => {
    const byParam = await t.get(`${FLOWS}&format=json`);
    expect(byParam.headers.get('link')).toContain('&format=json');
    const byAccept = await t.get(FLOWS, { headers: { accept: 'application/json' } });
    expect(byAccept.headers.get('link')).not.toContain('format');
  });
});
