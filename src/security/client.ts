import { isIP } from 'node:net';
import type { LimitDecision } from './token-bucket.js';

/** Who a request is from: an API key, or (without a key) a client address. */
export interface ClientIdentity {
  /** Bucket key: `key:<id>` with an API key, `ip:<address>` without (IPv6 grouped by /64). */
  readonly id: string;
  /** Database id of the API key, null without a key. Logged; the key itself never is. */
  readonly keyId: number | null;
  /** The client address the request came from (socket, or X-Forwarded-For behind trusted proxies). */
  readonly address: string;
}

/** The field the access plugin adds to the GraphQL context (`GraphQLContext extends AccessContext`). */
export interface AccessContext {
  readonly client: ClientIdentity;
}

/** Node's http server context as Yoga passes it (`{ req, res }`); absent with `yoga.fetch`. */
export interface NodeServerContext {
  readonly req?: { readonly socket?: { readonly remoteAddress?: string | undefined } };
}

/** Address used when the socket address is unknown (in-process `yoga.fetch`). */
export const UNKNOWN_ADDRESS = 'unknown';

/**
 * The client address: the socket's peer address, or, behind `trustedHops` proxies, the address the
 * outermost trusted proxy saw: the `trustedHops`-th X-Forwarded-For entry counted from the right
 * (entries further left are written by the client and can be forged). 0 ignores the header.
 */
export function clientAddress(serverContext: unknown, forwardedFor: string | null, trustedHops: number): string {
  const socket = normalize((serverContext as NodeServerContext | undefined)?.req?.socket?.remoteAddress);
  if (trustedHops <= 0 || !forwardedFor) return socket ?? UNKNOWN_ADDRESS;
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const chain = [...hops, socket ?? UNKNOWN_ADDRESS];
  const candidate = normalize(chain[Math.max(0, chain.length - 1 - trustedHops)]);
  return candidate ?? socket ?? UNKNOWN_ADDRESS;
}

/** Strips an IPv4-mapped IPv6 prefix and a zone; undefined when not an IP address. */
function normalize(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  return isIP(plain) ? plain : undefined;
}

/** The bucket an address spends from: IPv4 as is, IPv6 by /64 (one subscriber's usual allocation). */
export function addressBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Identity of a request with a valid key. */
export function keyClient(keyId: number, address: string): ClientIdentity {
  return { id: `key:${keyId}`, keyId, address };
}

/** Identity of a request without a key. */
export function addressClient(address: string): ClientIdentity {
  return { id: `ip:${addressBucket(address)}`, keyId: null, address };
}

/** What the access layer learnt about one request. */
export interface RequestAccess {
  readonly client: ClientIdentity;
  /** The bucket decision that should be reported in the headers (lowest remaining wins). */
  decision?: LimitDecision;
}

const byRequest = new WeakMap<Request, RequestAccess>();
const byClient = new WeakMap<ClientIdentity, RequestAccess>();

/** Records the identity of a request (access plugin). */
export function attachAccess(request: Request, access: RequestAccess): void {
  byRequest.set(request, access);
  byClient.set(access.client, access);
}

/** The identity and bucket state of a request, when the access plugin saw it. */
export function accessOf(request: Request): RequestAccess | undefined {
  return byRequest.get(request);
}

/** Adds a bucket decision to the client's request: a refusal, else the lowest remaining, wins. */
export function recordDecision(client: ClientIdentity, decision: LimitDecision): void {
  const access = byClient.get(client);
  if (!access) return;
  const current = access.decision;
  if (!current || (current.allowed && (!decision.allowed || decision.remaining < current.remaining)))
    access.decision = decision;
}
