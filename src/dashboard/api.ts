import { keyHeaders } from './api-key.js';
import type { TypedDocumentString } from './gql/graphql.js';

/** A GraphQL answer with errors (or without data), carrying the messages and the HTTP status. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The persisted-document id of a typed operation (`sha256:<hex>`, from codegen's manifest, which the
 * dashboard build ships beside the bundle and the server loads): the bundle holds no query text.
 */
export function documentId<R, V>(doc: TypedDocumentString<R, V>): string {
  const hash: unknown = doc.__meta__?.['hash'];
  if (typeof hash !== 'string') throw new Error('GraphQL document without a persisted id: run npm run codegen');
  return hash;
}

/** Sends one typed operation by its persisted id to the server's GraphQL endpoint (same origin, with the stored API key) and returns its data. */
export async function request<R, V>(doc: TypedDocumentString<R, V>, variables: V, endpoint = '/graphql'): Promise<R> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...keyHeaders(),
    },
    body: JSON.stringify({ documentId: documentId(doc), variables }),
  });
  const body = (await res.json().catch(() => ({}))) as { data?: R | null; errors?: { message: string }[] };
  if (body.errors?.length || !body.data) {
    throw new ApiError(body.errors?.map((e) => e.message).join('; ') || `HTTP ${res.status}`, res.status);
  }
  return body.data;
}

/** A page of a forward-paginated connection. */
export interface Page<N> {
  readonly edges: readonly { readonly node: N }[];
  readonly pageInfo: { readonly hasNextPage: boolean; readonly endCursor?: string | null };
}

/**
 * Follows `endCursor` until the last page and returns every node, in order; `first` is a page
 * already fetched (the next one is asked for after its cursor).
 */
export async function allNodes<N>(
  fetchPage: (after: string | null) => Promise<Page<N>>,
  first?: Page<N>,
): Promise<N[]> {
  const nodes: N[] = [];
  let after: string | null = null;
  for (let page: Page<N> | undefined = first; ; page = undefined) {
    page ??= await fetchPage(after);
    for (const edge of page.edges) nodes.push(edge.node);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return nodes;
    after = page.pageInfo.endCursor;
  }
}
