import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { MAX_GRAPHQL_BODY_BYTES } from '../../limits.js';

const DIGITS = /^\d+$/;

function refuse(status: number, code: string, message: string): never {
  throw createGraphQLError(message, { extensions: { code, http: { status } } });
}

/**
 * Bounds GraphQL POST bodies by their declared `Content-Length`: missing is 411 LENGTH_REQUIRED,
 * malformed 400 BAD_REQUEST, over `maxBytes` 413 REQUEST_ENTITY_TOO_LARGE, before the body is
 * read. Node's HTTP parser reads exactly the declared length (and refuses a request that also
 * says `Transfer-Encoding`), so the declaration bounds the body. This replaces Yoga's own limit
 * (`maxRequestBodySize: false`), which pipes every body through a counting stream.
 */
export function useBodyLimit(maxBytes: number = MAX_GRAPHQL_BODY_BYTES): Plugin {
  return {
    onRequestParse({ request }) {
      if (request.method !== 'POST') return;
      const length = request.headers.get('content-length');
      if (length === null) refuse(411, 'LENGTH_REQUIRED', 'Send the request body with a Content-Length header');
      if (!DIGITS.test(length)) refuse(400, 'BAD_REQUEST', 'Content-Length header is invalid');
      if (Number(length) > maxBytes)
        refuse(413, 'REQUEST_ENTITY_TOO_LARGE', `Request body larger than ${maxBytes} bytes`);
    },
  };
}
