/**
 * Requests Node.js refuses before any handler sees them (malformed request lines, headers over
 * the limit, a request not received in time) answered with the service's JSON error body instead
 * of Node.js' bare status line.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node.js' error codes of a request it could not read, with the status and detail given for each. */
const REFUSALS: Readonly<Record<string, readonly [number, string, string]>> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'Request header fields too large: the request line and headers may hold 16 KiB',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    'Content Too Large',
    'Content too large: the chunk extensions of the request body are over the limit',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timeout: the request was not received in time'],
};
const BAD_REQUEST = [400, 'Bad Request', 'Bad request: the request is not valid HTTP/1.1'] as const;

/** The raw HTTP/1.1 response written for a client error of `code`; the connection is closed after it. */
export function clientErrorResponse(code: string | undefined): string {
  const [status, reason, detail] = (code && REFUSALS[code]) || BAD_REQUEST;
  const body = JSON.stringify({ detail });
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** The response Node.js attaches to a socket while it is being answered (what its own handler checks). */
type AnsweringSocket = Duplex & { readonly _httpMessage?: { readonly headersSent?: boolean } | null };

/**
 * Answers `server`'s client errors with {@link clientErrorResponse}, then closes the connection
 * both ways (the server's sockets allow half-open connections), as Node.js' own handler does with a
 * bare status line: a reset connection, or one whose current response has begun, is only closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: AnsweringSocket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err.code), () => socket.destroy());
  });
}
