import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrors } from '../../src/http/client-errors.js';
import { rawExchange } from '../support/raw-http.js';

/** Status, content-type and JSON body of a raw HTTP/1.1 response. */
function parsed(raw: string): { status: number; type: string | undefined; body: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return {
    status: Number(head.split(' ')[1]),
    type: /content-type: ([^\r]+)/i.exec(head)?.[1],
    body: JSON.parse(body),
  };
}

describe('requests Node.js cannot read', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer({ headersTimeout: 300, requestTimeout: 400, connectionsCheckingInterval: 50 }, (_req, res) =>
      res.end('ok'),
    );
    answerClientErrors(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('answers headers over the limit with 431 and a JSON detail, then closes', async () => {
    const res = parsed(await rawExchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(res).toEqual({
      status: 431,
      type: 'application/json; charset=utf-8',
      body: { detail: expect.stringMatching(/16 KiB/) },
    });
  });

  it('answers a request that is not HTTP with 400 and a JSON detail', async () => {
    const res = parsed(await rawExchange(port, 'HELLO THERE\r\n\r\n'));
    expect(res).toEqual({
      status: 400,
      type: 'application/json; charset=utf-8',
      body: { detail: expect.stringMatching(/not valid HTTP/) },
    });
  });

  it('answers a request whose headers do not arrive in time with 408 and a JSON detail', async () => {
    const res = parsed(await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n'));
    expect(res).toEqual({
      status: 408,
      type: 'application/json; charset=utf-8',
      body: { detail: expect.stringMatching(/not received in time/) },
    });
  });

  it('closes the connection after the answer even when the client keeps its side open', async () => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write('HELLO THERE\r\n\r\n'));
    socket.resume();
    await new Promise((resolve) => socket.once('end', resolve));
    const open = () => new Promise<number>((resolve) => server.getConnections((_err, n) => resolve(n)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await open()).toBe(0);
    socket.destroy();
  });

  it('still serves a well-formed request on the same server', async () => {
    expect(await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 200 OK[\s\S]*ok$/,
    );
  });
});
