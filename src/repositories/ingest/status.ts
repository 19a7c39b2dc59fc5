/** How current the ingested data is: the last successful window per upstream item. */
import type { Database } from '../../db/client.js';

/** The last window of an item that committed (`done`), and the newest instant any of its windows covered (UTC). */
export interface ItemFreshness {
  readonly item: string;
  readonly lastSuccess: Date;
  readonly coveredUntil: Date;
}

/** Last success per item, read on the health-check connection (never queued behind requests). */
export async function readIngestFreshness(db: Database): Promise<ItemFreshness[]> {
  const rows = await db.probeQuery<{ item: string; last_success: Date; covered_until: Date }>(
    `SELECT item, max(finished_at) AS last_success, max(window_end) AS covered_until
     FROM ingestion_window WHERE status = 'done' AND finished_at IS NOT NULL GROUP BY item ORDER BY item`,
  );
  return rows.map((r) => ({
    item: r.item,
    lastSuccess: new Date(r.last_success),
    coveredUntil: new Date(r.covered_until),
  }));
}
