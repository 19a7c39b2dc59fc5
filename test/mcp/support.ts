import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { App } from '../../src/app.js';

/** An MCP client of the SDK over Streamable HTTP to an in-process app's `/mcp`, with these request headers. */
export async function mcpClient(app: App, headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('http://test/mcp'), {
    requestInit: { headers },
    fetch: (url, init) => Promise.resolve(app.yoga.fetch(new URL(String(url)), init ?? {})),
  });
  const client = new Client({ name: 'eumarket-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST to `/mcp` (the headers a Streamable HTTP client sends, plus `headers`). */
export function rpcPost(app: App, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    app.yoga.fetch(new URL('http://test/mcp'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
      body,
    }),
  );
}
