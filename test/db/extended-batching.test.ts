import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchExtendedQuery } from '../../src/db/extended-batching.js';

async function serve(db: PGlite): Promise<{ server: PGLiteSocketServer; clients: pg.Client[] }> {
  const server = new PGLiteSocketServer({ db: batchExtendedQuery(db), maxConnections: 8, host: '127.0.0.1', port: 0 });
  await server.start();
  const conn = server.getServerConn();
  const port = Number(conn.slice(conn.lastIndexOf(':') + 1));
  const clients = [0, 1, 2].map(
    () => new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' }),
  );
  await Promise.all(clients.map((c) => c.connect()));
  return { server, clients };
}

/** Runs `run` with three clients of a wire server over `db`, then ends them and stops the server. */
async function withClients(db: PGlite, run: (clients: pg.Client[]) => Promise<void>): Promise<void> {
  const { server, clients } = await serve(db);
  try {
    await run(clients);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
    await server.stop();
  }
}

/** Each client asks for its own number through a different statement text, `rounds` times at once; returns the wrong answers. */
async function crossedAnswers(clients: pg.Client[], rounds: number, named = false): Promise<number> {
  let wrong = 0;
  await Promise.all(
    clients.map(async (c, k) => {
      for (let i = 0; i < rounds; i++) {
        const text = `SELECT $1::int + ${k} AS n`;
        const result = await c
          .query(named ? { name: `s${k}`, text, values: [i] } : { text, values: [i] })
          .catch(() => null);
        if (result?.rows[0]?.n !== i + k) wrong++;
      }
    }),
  );
  return wrong;
}

describe('extended-protocol queries of several connections on the embedded engine wire server', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(() => db.close());

  it('each get their own answer when run at once', async () => {
    await withClients(db, async (clients) => {
      expect(await crossedAnswers(clients, 50)).toBe(0);
      expect(await crossedAnswers(clients, 50, true)).toBe(0);
    });
  });

  it('share a statement prepared by name in the engine session, prepared once', async () => {
    await withClients(db, async (clients) => {
      const query = { name: 'q_shared', text: 'SELECT $1::int * 2 AS n', values: [21] };
      for (const c of clients) expect((await c.query(query)).rows).toEqual([{ n: 42 }]);
      const [row] = (
        await clients[0]!.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'q_shared'",
        )
      ).rows;
      expect(row?.n).toBe(1);
    });
  });

  it('report the error of a failing statement and answer the next one', async () => {
    await withClients(db, async (clients) => {
      await expect(clients[0]!.query({ text: 'SELECT $1::int / 0', values: [1] })).rejects.toThrow(/division by zero/);
      expect((await clients[0]!.query({ text: 'SELECT $1::int AS n', values: [7] })).rows).toEqual([{ n: 7 }]);
    });
  });

  describe('a statement shared by name', () => {
    const query = (name: string) => ({ name, text: 'SELECT $1::int + 1 AS n', values: [41] });

    it('stays usable by a new connection after a query whose text mentions discard or deallocate', async () => {
      await withClients(db, async (clients) => {
        expect((await clients[0]!.query(query('q_words'))).rows).toEqual([{ n: 42 }]);
        await clients[0]!.query("SELECT 'discard' AS a, 'deallocate' AS b");
        expect((await clients[1]!.query(query('q_words'))).rows).toEqual([{ n: 42 }]);
      });
    });

    it('is prepared without error when the session already holds the name unbeknown to the wrapper', async () => {
      await db.exec('PREPARE q_outside AS SELECT 1');
      await withClients(db, async (clients) => {
        expect((await clients[0]!.query(query('q_outside'))).rows).toEqual([{ n: 42 }]);
        expect((await clients[1]!.query(query('q_outside'))).rows).toEqual([{ n: 42 }]);
      });
    });

    it('is prepared again by the next connection after DEALLOCATE ALL', async () => {
      await withClients(db, async (clients) => {
        expect((await clients[0]!.query(query('q_dealloc'))).rows).toEqual([{ n: 42 }]);
        await clients[0]!.query('DEALLOCATE ALL');
        expect((await clients[1]!.query(query('q_dealloc'))).rows).toEqual([{ n: 42 }]);
      });
    });

    it('survives a Close sent by one connection for the others that prepared it', async () => {
      await withClients(db, async (clients) => {
        for (const c of clients.slice(0, 2)) expect((await c.query(query('q_close'))).rows).toEqual([{ n: 42 }]);
        await closeStatement(clients[0]!, 'q_close');
        expect((await clients[1]!.query(query('q_close'))).rows).toEqual([{ n: 42 }]);
      });
    });
  });
});

/** Sends Close of statement `name` and Sync on `client`'s connection, as pg does after an encoding error; waits for ReadyForQuery. */
function closeStatement(client: pg.Client, name: string): Promise<void> {
  const { connection } = client;
  return new Promise((resolve) => {
    connection.once('readyForQuery', resolve);
    connection.close({ type: 'S', name }, false);
    connection.sync();
  });
}
