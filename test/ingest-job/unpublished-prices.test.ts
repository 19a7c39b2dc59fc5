/**
 * A price window for which the upstream has no day-ahead series yet (only the EXAA auction's
 * sequence-2 prices, or an acknowledgement "no matching data") is not done: nothing is recorded
 * for it, what was ignored is reported with counts, and the next run fetches it again.
 */
import { describe, expect } from 'vitest';
import type { Database } from '../../src/db/client.js';
import type { ProgressReporter } from '../../src/ingest/progress.js';
import { TEST_BACKENDS } from '../support/db.js';
import { upstreamTest as it } from '../support/fixtures.js';
import { fixture } from './fake-upstream.js';
import { a44, EIC, fakeClient, ingest, key, rows } from './helpers.js';

const DAY = Array.from({ length: 24 }, (_, h) => 50 + h);
const SEQUENCE_2_ONLY = a44(EIC.DE_LU, '2024-10-05T22:00Z', DAY).replace(
  '<curveType>',
  '<classificationSequence_AttributeInstanceComponent.position>2</classificationSequence_AttributeInstanceComponent.position><curveType>',
);

function notes(): { progress: ProgressReporter; lines: string[] } {
  const lines: string[] = [];
  const progress: ProgressReporter = { start() {}, begin() {}, end() {}, note: (l) => void lines.push(l), finish() {} };
  return { progress, lines };
}

const doneWindows = (db: Database) => rows(db, `SELECT item FROM ingestion_window WHERE status = 'done'`);

describe.each(TEST_BACKENDS)('a price window without day-ahead series on %s', (backend) => {
  it.override({ backend });

  it('is not done when the reply holds only sequence-2 prices: reported with counts, fetched again and stored once SDAC is published', async ({
    db,
    upstream: fake,
  }) => {
    fake.serve(key('A44', EIC.DE_LU, EIC.DE_LU), { body: SEQUENCE_2_ONLY });
    const { client } = fakeClient(fake);
    const first = notes();
    const summary = await ingest(db, client, '2024-10-06', '2024-10-07', {
      zones: ['DE_LU'],
      progress: first.progress,
    });
    expect(summary).toMatchObject({ planned: 1, completed: 0, rows: 0, fatal: null });
    expect(summary.unpublished).toHaveLength(1);
    expect(first.lines.join('\n')).toMatch(/DE_LU.*no day-ahead prices.*ignored 1 series: 1 of sequence 2 \(24 h\)/);
    expect(await doneWindows(db)).toEqual([]);

    fake.serve(key('A44', EIC.DE_LU, EIC.DE_LU), { body: a44(EIC.DE_LU, '2024-10-05T22:00Z', DAY) });
    const again = await ingest(db, client, '2024-10-06', '2024-10-07', { zones: ['DE_LU'] });
    expect(again).toMatchObject({ planned: 1, completed: 1, rows: 24, unpublished: [] });
    expect(fake.requests).toHaveLength(2);
  });

  it('is not done when the upstream acknowledges that no data matches (a day not yet published)', async ({
    db,
    upstream: fake,
  }) => {
    fake.serve(key('A44', EIC.DE_LU, EIC.DE_LU), {
      body: fixture('ACK_no_matching_data_official_guide_example_2016.xml'),
    });
    const { client } = fakeClient(fake);
    const first = notes();
    const summary = await ingest(db, client, '2024-10-06', '2024-10-07', {
      zones: ['DE_LU'],
      progress: first.progress,
    });
    expect(summary).toMatchObject({ completed: 0, rows: 0, failed: [], fatal: null });
    expect(first.lines.join('\n')).toMatch(/DE_LU.*no day-ahead prices/);
    expect(await doneWindows(db)).toEqual([]);
    await ingest(db, client, '2024-10-06', '2024-10-07', { zones: ['DE_LU'] });
    expect(fake.requests).toHaveLength(2);
  });
});
