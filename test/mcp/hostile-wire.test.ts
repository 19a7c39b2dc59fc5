import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { toolName } from '../../src/mcp/tools.js';
import { blockApp } from '../support/app.js';
import { blockSetup, dbTest as it } from '../support/fixtures.js';
import { hostileJson, hostileText } from '../support/hostile.js';

/** A POST of `body` to /mcp over a raw socket; the socket is returned unread (paused). */
function rawPost(port: number, body: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(
        `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('/mcp on a listening server under hostile clients', () => {
  it.override({ backend: 'pglite', seed: 'demo' });
  const t = blockApp(it, { config: { LOG_LEVEL: 'silent', RATE_LIMIT_CAPACITY: 100_000 } });
  let server: Server;
  let port: number;
  let client: Client;
  const wire = blockSetup(async () => {
    await client?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  it.beforeEach(() =>
    wire.run(async () => {
      server = createServer(t.app.yoga);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
      client = new Client({ name: 'wire', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    }),
  );

  it('slow readers of large answers and a sender that stops mid-body do not hold up other clients', async () => {
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'flows', arguments: { datetime_from: '2025-11-01', datetime_to: '2025-11-03' } },
    });
    const slow = await Promise.all(Array.from({ length: 6 }, () => rawPost(port, call)));
    const stalled = await new Promise<Socket>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.write(
          'POST /mcp HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"jsonrpc":',
        );
        resolve(s);
      });
      s.on('error', () => undefined);
    });
    const r = await client.callTool({ name: 'zones', arguments: { zone: ['NL'] } });
    expect((r.structuredContent as { rows: { zone: string }[] }).rows.map((z) => z.zone)).toEqual(['NL']);
    for (const s of [...slow, stalled]) s.destroy();
    const again = await client.callTool({ name: 'zones', arguments: { zone: ['BE'] } });
    expect((again.structuredContent as { rows: { zone: string }[] }).rows.map((z) => z.zone)).toEqual(['BE']);
  });

  it('hostile argument values are answers or tool errors, never an internal error', async () => {
    const names = ENDPOINTS.map(toolName);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.dictionary(
          fc.constantFrom(
            'datetime_from',
            'datetime_to',
            'zone',
            'border',
            'resolution',
            'tz',
            'points',
            'lineage',
            'max_rows',
          ),
          fc.oneof(hostileJson, hostileText),
          { maxKeys: 4 },
        ),
        async (name, args) => {
          const r = await client.callTool({ name, arguments: args as Record<string, unknown> });
          if (r.isError) expect((r.content as { text: string }[])[0]!.text).not.toMatch(/Internal error/);
        },
      ),
      { numRuns: 60 },
    );
  });
});
