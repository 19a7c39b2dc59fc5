import type { Database } from '../db/client.js';
import type { ZoneRecord } from './catalogue.js';

/** Zones by short code, one query for a batch (the GraphQL dataloader's batch function). */
export async function findZonesByCodes(db: Database, codes: readonly string[]): Promise<ZoneRecord[]> {
  return db.prisma.zone.findMany({ where: { code: { in: [...codes] } } });
}
