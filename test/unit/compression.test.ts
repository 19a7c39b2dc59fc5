import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressionPlugin, compressStream, negotiateCoding } from '../../src/http/compression.js';

describe('negotiateCoding', () => {
  it('prefers br, then gzip, honouring q-values, * and refusals', () => {
    expect(negotiateCoding('gzip, deflate, br')).toBe('br');
    expect(negotiateCoding('gzip')).toBe('gzip');
    expect(negotiateCoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiateCoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateCoding('*')).toBe('br');
    expect(negotiateCoding('*;q=0.1, br;q=0')).toBe('gzip');
    expect(negotiateCoding('identity')).toBeNull();
    expect(negotiateCoding('deflate')).toBeNull();
    expect(negotiateCoding(null)).toBeNull();
  });
});

/** JSON rows produced 50 at a time as the reader pulls, counting how many it has pulled. */
function lazyRows(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number; text: () => string } {
  const encoder = new TextEncoder();
  let n = 0;
  let seed = 7;
  const parts: string[] = [];
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (n === total) return controller.close();
        const batch: string[] = [];
        for (const end = Math.min(total, n + 50); n < end; n++) {
          seed = (seed * 48271) % 2147483647;
          batch.push(
            `{"datetime":"2025-10-01T${String(n % 24).padStart(2, '0')}:00:00Z","net_flow_mw":${(seed % 100000) / 10},"row":${n}},`,
          );
        }
        parts.push(...batch);
        controller.enqueue(encoder.encode(batch.join('')));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => n, text: () => parts.join('') };
}

describe('compressStream', () => {
  it.each(['gzip', 'br'] as const)(
    'emits %s bytes long before a 20,000-row body ends, and the whole decompresses to the original',
    async (coding) => {
      const rows = lazyRows(20_000);
      const reader = compressStream(rows.stream, coding).getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      expect(rows.pulled()).toBeLessThan(20_000 / 2);
      const chunks: Uint8Array[] = [first.value!];
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
      const all = Buffer.concat(chunks);
      const plain = coding === 'gzip' ? gunzipSync(all) : brotliDecompressSync(all);
      expect(plain.toString('utf8')).toBe(rows.text());
    },
  );
});

describe('compressStream cancelled', () => {
  it.each(['gzip', 'br'] as const)('stops quietly when the client goes away mid-body (%s)', async (coding) => {
    const rows = lazyRows(20_000);
    const reader = compressStream(rows.stream, coding).getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 200));
    expect(rows.pulled()).toBeLessThan(20_000);
  });
});

describe('compressionPlugin', () => {
  const run = async (response: Response, acceptEncoding: string | null, method = 'GET'): Promise<Response> => {
    let out = response;
    const request = new Request('http://test/api/v1/flows', {
      method,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });
    const onResponse = compressionPlugin().onResponse as (p: {
      request: Request;
      response: Response;
      setResponse: (r: Response) => void;
    }) => unknown;
    await onResponse({ request, response, setResponse: (r) => (out = r) });
    return out;
  };
  const json = { 'content-type': 'application/json; charset=utf-8' };

  it('sends the first gzip bytes of a streamed 20,000-row page before the page is written', async () => {
    const rows = lazyRows(20_000);
    const res = await run(new Response(rows.stream, { headers: { ...json, etag: '"v1"' } }), 'gzip');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).toBe('"v1-gzip"');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    const reader = res.body!.getReader();
    await reader.read();
    expect(rows.pulled()).toBeLessThan(5_000);
    await reader.cancel();
  });

  it('compresses a body that ends within 256 KiB whole, at gzip 6 and brotli 5, with its length', async () => {
    const rows = lazyRows(2_000);
    const gz = await run(new Response(rows.stream, { headers: json }), 'gzip');
    const gzBytes = new Uint8Array(await gz.arrayBuffer());
    expect(Buffer.from(gzBytes).equals(gzipSync(rows.text(), { level: 6 }))).toBe(true);
    expect(gz.headers.get('content-length')).toBe(String(gzBytes.byteLength));
    const text = rows.text();
    const br = await run(new Response(text, { headers: json }), 'br');
    const brBytes = Buffer.from(await br.arrayBuffer());
    const best = brotliCompressSync(text, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text) },
    });
    expect(brBytes.equals(best)).toBe(true);
    expect(br.headers.get('content-length')).toBe(String(brBytes.byteLength));
  });

  it('streams a longer body at the bulk gzip level, without a length, to the same text', async () => {
    const rows = lazyRows(20_000);
    const res = await run(new Response(rows.stream, { headers: json }), 'gzip');
    expect(res.headers.get('content-length')).toBeNull();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(gunzipSync(bytes).toString('utf8')).toBe(rows.text());
    const level = (l: number) => gzipSync(rows.text(), { level: l }).byteLength;
    expect(bytes.byteLength / level(1)).toBeLessThan(1.02);
    expect(bytes.byteLength / level(6)).toBeGreaterThan(1.08);
  });

  it('leaves bodies under 1 KiB, HEAD, 304 and event streams alone', async () => {
    const small = await run(new Response('{"detail":"x"}', { headers: json }), 'gzip');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe('{"detail":"x"}');
    const big = 'x'.repeat(5_000);
    expect(
      (await run(new Response(big, { headers: json }), 'gzip', 'HEAD')).headers.get('content-encoding'),
    ).toBeNull();
    expect((await run(new Response(null, { status: 304, headers: json }), 'gzip')).status).toBe(304);
    const sse = await run(new Response(big, { headers: { 'content-type': 'text/event-stream' } }), 'gzip');
    expect(sse.headers.get('content-encoding')).toBeNull();
    expect((await run(new Response(big, { headers: json }), null)).headers.get('vary')).toBe('Accept-Encoding');
  });

  it('leaves the body of a response it does not compress unread (a text body stays a text, no stream made)', async () => {
    const response = new Response('x'.repeat(5_000), { headers: json });
    Object.defineProperty(response, 'body', { get: () => expect.fail('body read') });
    const out = await run(response, null);
    expect(out).toBe(response);
    expect(out.headers.get('vary')).toBe('Accept-Encoding');
  });
});
