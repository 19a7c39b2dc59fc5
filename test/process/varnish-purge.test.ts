/**
 * The app behind a real Varnish running deploy/varnish.vcl (its backend port substituted): answers
 * carry their cache tags, an ingestion that commits a zone's prices purges exactly that zone's
 * pages (the next request is a miss with the new data, another zone's page stays a hit), and a
 * hit never carries the rate limit headers of the client that filled it. Without varnishd the
 * tests skip, except under CI=true where they fail.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { cachePurger } from '../../src/events/cache-purge.js';
import { runIngest } from '../../src/ingest/job.js';
import { blockApp } from '../support/app.js';
import { blockSetup, upstreamTest as it } from '../support/fixtures.js';
import { CI } from '../support/env.js';
import { freePort } from '../support/ports.js';
import { ROOT } from '../support/processes.js';
import type { FakeUpstream } from '../ingest-job/fake-upstream.js';
import { a44Days, EIC, fakeClient, key } from '../ingest-job/helpers.js';

const VARNISHD = '/usr/sbin/varnishd';
const MISSING = `varnishd not found at ${VARNISHD} (apt-get install varnish): Varnish purge tests skipped`;
const RANGE = 'datetime_from=2025-09-10&datetime_to=2025-09-12';
const ES = `/api/v1/prices?zone=ES&${RANGE}`;
const DE = `/api/v1/prices?zone=DE_LU&${RANGE}`;

describe('the app behind Varnish (deploy/varnish.vcl)', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const available = existsSync(VARNISHD);
  const t = blockApp(it);
  let fake: FakeUpstream;
  let server: Server;
  let varnish: ChildProcess | undefined;
  let dir: string;
  let base: string;

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, headers: res.headers, body: await res.text(), cache: res.headers.get('x-cache') };
  };

  beforeAll(() => {
    if (!available && CI) throw new Error(`${MISSING.replace('skipped', 'cannot run')}; CI=true requires them`);
  });

  // Varnish in front of the block's app (built before this, closed after it); the fake upstream is the file's.
  const cached = blockSetup(async () => {
    if (varnish && varnish.exitCode === null) {
      const exited = new Promise((done) => varnish!.once('exit', done));
      varnish.kill('SIGTERM');
      await exited;
    }
    if (server) {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  it.beforeEach(
    ({ fileUpstream }) =>
      cached.run(async () => {
        fake = fileUpstream;
        server = createServer(t.app.yoga);
        await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
        dir = mkdtempSync(join(tmpdir(), 'varnish-'));
        chmodSync(dir, 0o755); // as root, varnishd reads the VCL as its unprivileged user
        const vcl = readFileSync(join(ROOT, 'deploy/varnish.vcl'), 'utf8').replace(
          '.port = "4000";',
          `.port = "${(server.address() as AddressInfo).port}";`,
        );
        writeFileSync(join(dir, 'varnish.vcl'), vcl);
        const port = await freePort();
        varnish = spawn(
          VARNISHD,
          [
            '-F',
            '-n',
            join(dir, 'work'),
            '-a',
            `127.0.0.1:${port}`,
            '-f',
            join(dir, 'varnish.vcl'),
            '-s',
            'malloc,32m',
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let said = '';
        varnish.stdout?.on('data', (d: Buffer) => (said += d.toString()));
        varnish.stderr?.on('data', (d: Buffer) => (said += d.toString()));
        base = `http://127.0.0.1:${port}`;
        for (let i = 0; i < 150; i++) {
          if (varnish.exitCode !== null) throw new Error(`varnishd exited ${varnish.exitCode}: ${said}`);
          if (
            await fetch(`${base}/healthz`).then(
              (r) => r.ok,
              () => false,
            )
          )
            return;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error('varnishd did not start serving');
      }),
    60_000,
  );

  it.runIf(available || CI)(
    'tags answers, and a hit does not carry the rate limit headers of the client that filled it',
    async () => {
      const path = `/api/v1/flows?border=FR-%3EES&${RANGE}`;
      const miss = await get(path);
      expect([miss.status, miss.cache, miss.headers.get('ratelimit-remaining')]).toEqual([
        200,
        'MISS',
        expect.stringMatching(/^\d+$/),
      ]);
      expect(miss.headers.get('surrogate-key')).toBe('flows flows:ES->FR');
      expect(miss.headers.get('cache-tag')).toBe('flows,flows:ES->FR');
      const hit = await get(path);
      expect(hit.cache).toBe('HIT');
      expect(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((h) => hit.headers.get(h))).toEqual([
        null,
        null,
        null,
      ]);
    },
  );

  it.runIf(available || CI)(
    "an ingestion committing a zone's prices purges that zone's pages only: the next request is a miss with the new data",
    async () => {
      const before = await get(ES);
      expect(before.headers.get('surrogate-key')).toBe('prices prices:ES');
      expect((await get(ES)).cache).toBe('HIT');
      await get(DE);
      expect((await get(DE)).cache).toBe('HIT');

      fake.serve(key('A44', EIC.ES, EIC.ES), { body: a44Days(EIC.ES, '2025-09-10T00:00Z', 2) });
      const bumped = new Promise<void>((resolve) => t.app.version.onChange(() => resolve()));
      const summary = await runIngest({
        db: t.db,
        client: fakeClient(fake).client,
        from: new Date('2025-09-10T00:00Z'),
        to: new Date('2025-09-12T00:00Z'),
        what: ['prices'],
        zones: ['ES'],
        onCommitted: cachePurger(`${base}/`, (line) => expect.fail(line), { repurgeAfterMs: 0 })!,
      });
      expect(summary).toMatchObject({ fatal: null, failed: [] });
      expect(summary.completed).toBeGreaterThan(0);
      await bumped;

      const after = await get(ES);
      expect(after.cache).toBe('MISS');
      expect(after.body).not.toBe(before.body);
      expect(JSON.parse(after.body).data[0]).toMatchObject({ price_mwh: 1 });
      expect((await get(DE)).cache).toBe('HIT');
    },
  );
});
