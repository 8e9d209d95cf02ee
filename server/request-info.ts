/**
 * Who sent a request and to which address, behind trusted proxies (TRUST_PROXY) or not.
 *
 * Proxies append to X-Forwarded-For, so only its rightmost entries were written by proxies we trust;
 * whatever a client sent itself stands to their left. With `hops` trusted proxies the client is the
 * entry `hops` from the right (as Express's numeric `trust proxy`): the leftmost entry would let any
 * client pick its own address and escape every per-address limit. X-Forwarded-Host and -Proto are
 * read the same way.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { addressKey } from './values/address';

/** What is read of a request: a node:http request, or the headers Next hands a page. */
export interface RequestLike {
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string; encrypted?: boolean };
}

export interface RequestInfo {
  clientIp(req: RequestLike): string;
  /** What per-address limits count the client under: its IPv4 address, or its IPv6 /64 (values/address.ts). */
  clientKey(req: RequestLike): string;
  host(req: RequestLike): string | undefined;
  proto(req: RequestLike): 'http' | 'https';
}

/** The entry `hops` from the right of a forwarded header (the leftmost when there are fewer). */
export function forwarded(value: string | string[] | undefined, hops: number): string | undefined {
  if (!hops || value === undefined) return undefined;
  const entries = (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return entries[Math.max(0, entries.length - hops)];
}

export function requestInfo(trustedHops: number): RequestInfo {
  const clientIp = (req: RequestLike) =>
    forwarded(req.headers['x-forwarded-for'], trustedHops) || req.socket?.remoteAddress || 'unknown';
  return {
    clientIp,
    clientKey: (req) => addressKey(clientIp(req)),
    host: (req) => forwarded(req.headers['x-forwarded-host'], trustedHops) || req.headers.host,
    proto: (req) => {
      const proto = forwarded(req.headers['x-forwarded-proto'], trustedHops);
      if (proto) return proto === 'https' ? 'https' : 'http';
      return req.socket?.encrypted ? 'https' : 'http';
    },
  };
}
