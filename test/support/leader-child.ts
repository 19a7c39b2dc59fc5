/**
 * Child process of the frozen-leader test: competes for the follower's leadership on the PostgreSQL
 * schema argv[3] of the database argv[2] with lease argv[4] ms and retry argv[5] ms. Prints `leading`
 * when it wins, `cycle` for each cycle it runs after passing the fence, `fenced` when the fence
 * stops a cycle, and `lost` when leadership ends.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { testConfig } from '../../src/config.js';
import { openPostgres } from '../../src/db/client.js';
import { elect } from '../../src/db/leader.js';

const [url, schema, leaseMs, retryMs] = process.argv.slice(2);
const db = await openPostgres(testConfig({ DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: 1 }), url as string);
const say = (line: string) => process.stdout.write(`${line}\n`);

elect(db, {
  leaseMs: Number(leaseMs),
  retryMs: Number(retryMs),
  async lead(signal, fence) {
    say('leading');
    while (!signal.aborted) {
      try {
        await fence();
        say('cycle');
      } catch {
        say('fenced');
      }
      await delay(100, undefined, { signal }).catch(() => undefined);
    }
    say('lost');
  },
});
