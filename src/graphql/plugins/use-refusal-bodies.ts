import type { Plugin } from 'graphql-yoga';
import { routePath } from '../../http/paths.js';

/** What the GraphQL endpoint says with the statuses Yoga sends without a body. */
const REFUSALS: Readonly<Record<number, { readonly code: string; readonly message: string }>> = {
  406: {
    code: 'NOT_ACCEPTABLE',
    message:
      'Not Acceptable: accept application/graphql-response+json or application/json (text/event-stream for subscriptions)',
  },
  415: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported Media Type: POST the operation as application/json, or GET it with the query string',
  },
};

/**
 * Gives Yoga's bodiless 406 and 415 on the GraphQL endpoint a GraphQL response naming what to send,
 * with the error's code, keeping the response's status and headers.
 */
export function useRefusalBodies(graphqlPath: string): Plugin {
  return {
    onResponse({ request, response, setResponse, fetchAPI }) {
      const refusal = REFUSALS[response.status];
      if (!refusal || response.body !== null || routePath(new URL(request.url).pathname) !== graphqlPath) return;
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('content-type', 'application/json; charset=utf-8');
      headers.delete('content-length');
      const body = JSON.stringify({ errors: [{ message: refusal.message, extensions: { code: refusal.code } }] });
      setResponse(new fetchAPI.Response(body, { status: response.status, headers }));
    },
  };
}
