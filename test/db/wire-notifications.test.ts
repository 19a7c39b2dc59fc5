import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import { openServerDatabase } from '../../src/db/server-database.js';
import { notificationScanner, type WireNotification } from '../../src/db/wire-notifications.js';
import type { DataEvent } from '../../src/domain/data-events.js';
import { listenForDataEvents } from '../../src/db/listener.js';
import { notifyWindowCommitted } from '../../src/repositories/ingest/events.js';
import { inTransaction } from '../../src/db/executor.js';

/** One protocol message: type byte, int32 length (itself included), body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function notification(channel: string, payload: string): Buffer {
  const pid = Buffer.alloc(4);
  pid.writeInt32BE(42);
  return message('A', Buffer.concat([pid, Buffer.from(`${channel}\0${payload}\0`)]));
}

describe('notifications picked out of the wire protocol output', () => {
  it('finds every NotificationResponse between other messages, however the output is chunked', () => {
    const output = Buffer.concat([
      message('D', Buffer.from('\0\u0001\0\0\0\u0003abc')),
      notification('emk_data', '{"a":1}'),
      message('C', Buffer.from('SELECT 1\0')),
      notification('other', 'é'),
      message('Z', Buffer.from('I')),
    ]);
    for (const size of [1, 2, 3, 7, output.length]) {
      const found: WireNotification[] = [];
      const scan = notificationScanner((n) => found.push(n));
      for (let at = 0; at < output.length; at += size) scan(output.subarray(at, at + size));
      expect(found).toEqual([
        { channel: 'emk_data', payload: '{"a":1}' },
        { channel: 'other', payload: 'é' },
      ]);
    }
  });
});

describe('data events of the embedded engine served over the wire by this process', () => {
  it('reach the server when another connection (a CLI) commits a window, and not before it commits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wire-notify-'));
    const config = testConfig({ PGLITE_DIR: join(dir, 'pglite') });
    const server = await openServerDatabase(config);
    const events: DataEvent[] = [];
    const listener = await listenForDataEvents(server.db, (e) => events.push(e));
    const cli = await openPostgres(config, server.url!, { embedded: true });
    try {
      await inTransaction(cli, async (sql) => {
        await notifyWindowCommitted(sql, {
          item: 'prices',
          areaKey: 'FR',
          start: new Date('2025-11-01T00:00Z'),
          end: new Date('2025-11-02T00:00Z'),
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(events).toEqual([]);
      });
      const committed = Date.now();
      while (events.length === 0 && Date.now() - committed < 1_000) await new Promise((r) => setTimeout(r, 20));
      expect(events.map((e) => [e.kind, e.zones])).toEqual([['prices', ['FR']]]);
    } finally {
      await cli.close();
      await listener.close();
      await server.db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
