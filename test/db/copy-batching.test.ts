import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchCopyIn, copyFromStdinSql } from '../../src/db/copy-batching.js';

function message(type: string, body: Buffer): Uint8Array {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return new Uint8Array(Buffer.concat([Buffer.from(type), length, body]));
}
const query = (sql: string) => message('Q', Buffer.from(`${sql}\0`));

/** The message types of a backend reply, in order. */
function types(reply: Uint8Array): string {
  const buf = Buffer.from(reply);
  let out = '';
  for (let at = 0; at < buf.length; at += 1 + buf.readInt32BE(at + 1)) out += String.fromCharCode(buf[at] as number);
  return out;
}

describe('a COPY FROM STDIN sent to the embedded engine one message per call', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await PGlite.create();
    await pg.exec('CREATE TABLE t (id int4, s text)');
  });
  afterAll(() => pg.close());

  async function send(engine: PGlite, msg: Uint8Array): Promise<string> {
    const chunks: Uint8Array[] = [];
    await engine.execProtocolRawStream(msg, { onRawData: (data) => chunks.push(data.slice()) });
    return types(new Uint8Array(Buffer.concat(chunks)));
  }

  it('is answered with CopyInResponse at once and runs when its data is complete', async () => {
    const engine = batchCopyIn(pg);
    expect(await send(engine, query('COPY t FROM STDIN'))).toBe('G');
    expect(engine.isInTransaction()).toBe(true);
    expect(await send(engine, message('d', Buffer.from('1\ta\n')))).toBe('');
    expect(await send(engine, message('d', Buffer.from('2\tb\n')))).toBe('');
    expect(await send(engine, message('c', Buffer.alloc(0)))).toBe('CZ');
    expect(engine.isInTransaction()).toBe(false);
    expect((await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 2 }]);
  });

  it('reports the error of a failing COPY after its data, and the engine answers again', async () => {
    const engine = batchCopyIn(pg);
    expect(await send(engine, query('COPY t FROM STDIN'))).toBe('G');
    await send(engine, message('d', Buffer.from('not a number\tx\n')));
    expect(await send(engine, message('c', Buffer.alloc(0)))).toBe('EZ');
    expect(await send(engine, query('SELECT 1'))).toBe('TDCZ');
  });

  it('recognises only COPY ... FROM STDIN queries', () => {
    expect(copyFromStdinSql(query('copy t (id) from stdin (format binary)'))).toMatch(/binary/);
    expect(copyFromStdinSql(query('/* copyIn */ COPY t (id) FROM STDIN WITH (FORMAT binary)'))).toMatch(
      /^\/\* copyIn \*\/ COPY/,
    );
    expect(copyFromStdinSql(query('COPY t TO STDOUT'))).toBeNull();
    expect(copyFromStdinSql(query('/* copyIn */ SELECT 1 FROM stdin'))).toBeNull();
    expect(copyFromStdinSql(query("SELECT 'copy x from stdin'"))).toBeNull();
    expect(copyFromStdinSql(message('P', Buffer.from('\0COPY t FROM STDIN\0\0\0')))).toBeNull();
  });
});
