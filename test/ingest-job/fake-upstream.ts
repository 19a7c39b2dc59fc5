/**
 * A fake ENTSO-E Transparency Platform on loopback: serves documents by documentType and
 * in/out domain (and offset), or from a function of the request's parameters (documents of the
 * requested period), answers "No matching data" otherwise, checks the token like the real
 * one (HTML 401), and plays scripted faults: 429 with Retry-After, 5xx, slow replies, replies held
 * until the test releases them, truncated bodies, connection resets, alternative bodies.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../fixtures/entsoe/', import.meta.url));
export const TOKEN = '0f3c2a9e-1111-4d2b-9c3e-5a6b7c8d9e0f';

/** Raw bytes of a fixture file. */
export function fixture(name: string): Buffer {
  return readFileSync(FIXTURES + name);
}

/** A document served for a key. */
export interface Doc {
  readonly body: Buffer | string;
  readonly status?: number;
  readonly contentType?: string;
}

/** A scripted misbehaviour, consumed by one request. */
export type Fault =
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: string;
    }
  | { readonly kind: 'slow'; readonly delayMs: number }
  /** Answers (with the served document) once `until` settles: the test decides when the upstream replies. */
  | { readonly kind: 'hold'; readonly until: Promise<void> }
  | { readonly kind: 'truncate' }
  | { readonly kind: 'reset' }
  | { readonly kind: 'serve'; readonly doc: Doc };

/** One request as the fake saw it (the token is checked, not recorded). */
export interface SeenRequest {
  readonly key: string;
  readonly params: Readonly<Record<string, string>>;
  readonly fault: Fault['kind'] | null;
}

/** The running fake. */
export interface FakeUpstream {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Serves `doc` for `documentType:in_Domain:out_Domain` (suffix `#offset` for a later page). */
  serve(key: string, doc: Doc): void;
  /** Queues faults for a key, or `*` for any request. */
  fail(key: string, ...faults: Fault[]): void;
  /** Plays `fault` on the request of that index in {@link requests} (0-based, counted since start). */
  failAt(index: number, fault: Fault): void;
  /** Answers requests with no document served for their key: `answer` sees the parameters (no token); undefined is "No matching data". */
  respond(answer: (params: URLSearchParams) => Doc | undefined): void;
  close(): Promise<void>;
}

/** The key of a request: `A44:10YES-REE------0:10YES-REE------0`, plus `#100` for offset 100. */
export function keyOf(params: URLSearchParams): string {
  const base = `${params.get('documentType')}:${params.get('in_Domain')}:${params.get('out_Domain')}`;
  const offset = params.get('offset');
  return offset && offset !== '0' ? `${base}#${offset}` : base;
}

const NO_DATA: Doc = {
  body: fixture('HANDMADE_ACK_no_matching_data_modern_text.xml'),
  status: 200,
  contentType: 'text/xml',
};

function send(res: ServerResponse, doc: Doc): void {
  const body = typeof doc.body === 'string' ? Buffer.from(doc.body) : doc.body;
  const zip = body[0] === 0x50 && body[1] === 0x4b;
  res.writeHead(doc.status ?? 200, {
    'content-type': doc.contentType ?? (zip ? 'application/zip' : 'text/xml'),
    'content-length': body.length,
  });
  res.end(body);
}

function truncate(res: ServerResponse, doc: Doc): void {
  const body = typeof doc.body === 'string' ? Buffer.from(doc.body) : doc.body;
  res.writeHead(200, { 'content-type': 'text/xml', 'content-length': body.length });
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
}

/** Starts the fake on 127.0.0.1 with an ephemeral port. */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const docs = new Map<string, Doc>();
  const faults = new Map<string, Fault[]>();
  const requests: SeenRequest[] = [];
  const atIndex = new Map<number, Fault>();
  let answer: ((params: URLSearchParams) => Doc | undefined) | undefined;
  const takeFault = (key: string): Fault | undefined => faults.get(key)?.shift() ?? faults.get('*')?.shift();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const params = new URL(req.url ?? '/', 'http://fake').searchParams;
    const { securityToken, ...rest } = Object.fromEntries(params);
    const key = keyOf(params);
    const fault = atIndex.get(requests.length) ?? takeFault(key);
    requests.push({ key, params: rest, fault: fault?.kind ?? null });
    if (securityToken !== TOKEN)
      return send(res, { body: fixture('HTTP401_invalid_token_body.html'), status: 401, contentType: 'text/html' });
    params.delete('securityToken');
    const doc = docs.get(key) ?? answer?.(params) ?? NO_DATA;
    switch (fault?.kind) {
      case 'status':
        res.writeHead(fault.status, { 'content-type': 'text/html', ...fault.headers });
        return res.end(fault.body ?? `<html><body>HTTP ${fault.status}</body></html>`);
      case 'slow':
        await new Promise((r) => setTimeout(r, fault.delayMs));
        if (res.socket?.destroyed) return;
        return send(res, doc);
      case 'hold':
        await fault.until;
        if (res.socket?.destroyed) return;
        return send(res, doc);
      case 'truncate':
        return truncate(res, doc);
      case 'reset':
        return req.socket.destroy();
      case 'serve':
        return send(res, fault.doc);
      default:
        return send(res, doc);
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    requests,
    serve: (key, doc) => void docs.set(key, doc),
    fail: (key, ...more) => void faults.set(key, [...(faults.get(key) ?? []), ...more]),
    failAt: (index, fault) => void atIndex.set(index, fault),
    respond: (fn) => void (answer = fn),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
