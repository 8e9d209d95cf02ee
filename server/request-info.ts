/** Who sent a request and to which address, behind a trusted proxy (TRUST_PROXY) or not. */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

export interface RequestInfo {
  clientIp(req: IncomingMessage): string;
  host(req: IncomingMessage): string | undefined;
  proto(req: IncomingMessage): 'http' | 'https';
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim() || undefined;

export function requestInfo(trustProxy: boolean): RequestInfo {
  return {
    clientIp: (req) => (trustProxy && first(req.headers['x-forwarded-for'])) || req.socket.remoteAddress || 'unknown',
    host: (req) => (trustProxy && first(req.headers['x-forwarded-host'])) || req.headers.host,
    proto: (req) => {
      const forwarded = trustProxy && first(req.headers['x-forwarded-proto']);
      if (forwarded) return forwarded === 'https' ? 'https' : 'http';
      return (req.socket as TLSSocket).encrypted ? 'https' : 'http';
    },
  };
}
