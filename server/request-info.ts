/** Who sent a request and to which address, behind a trusted proxy (TRUST_PROXY) or not. */
import type { IncomingHttpHeaders } from 'node:http';

/** What is read of a request: a node:http request, or the headers Next hands a page. */
export interface RequestLike {
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string; encrypted?: boolean };
}

export interface RequestInfo {
  clientIp(req: RequestLike): string;
  host(req: RequestLike): string | undefined;
  proto(req: RequestLike): 'http' | 'https';
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim() || undefined;

export function requestInfo(trustProxy: boolean): RequestInfo {
  return {
    clientIp: (req) => (trustProxy && first(req.headers['x-forwarded-for'])) || req.socket?.remoteAddress || 'unknown',
    host: (req) => (trustProxy && first(req.headers['x-forwarded-host'])) || req.headers.host,
    proto: (req) => {
      const forwarded = trustProxy && first(req.headers['x-forwarded-proto']);
      if (forwarded) return forwarded === 'https' ? 'https' : 'http';
      return req.socket?.encrypted ? 'https' : 'http';
    },
  };
}
