/**
 * One HTTP POST to a webhook endpoint, safe against server-side request forgery: only https (http too
 * when private targets are allowed for development), the host resolved once, every address checked
 * (only public unicast addresses pass: blockedAddress), and the connection made to the address that was checked, so a
 * second DNS answer cannot point it elsewhere. Redirects are never followed; the body is read up to 1 KB.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export const RESPONSE_KEEP = 1024;

export interface Sent {
  status: number | null;
  body: string | null;
  /** timeout, dns, refused, tls, blocked, or another network error's code. */
  error: string | null;
  /** Seconds, from Retry-After, when the receiver gave one. */
  retryAfter: number | null;
  durationMs: number;
  /** The response's headers (when there was a response). */
  headers?: Record<string, string | string[] | undefined>;
}

export class BlockedTarget extends Error {}

/**
 * Why an address may not be called, or null when it is a public unicast address. Decided by
 * ipaddr.js's range classification, not by a list of spellings: only `unicast` passes. IPv6 forms
 * that carry an IPv4 address (IPv4-mapped ::ffff:0:0/96 and the deprecated IPv4-compatible ::/96)
 * are judged by the IPv4 address they carry; NAT64 (64:ff9b::/96 and 64:ff9b:1::/48: rfc6052), 6to4
 * and Teredo are not unicast to ipaddr.js and are refused (through a translator they reach whatever
 * IPv4 address they embed, private ones included). Zone ids (fe80::1%eth0) belong to link-local addresses, refused with them.
 */
export function blockedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.parts.slice(0, 6).every((p) => p === 0) && v6.range() === 'unicast') ip = embeddedIPv4(v6);
  }
  const range = ip.range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
const embeddedIPv4 = (v6: ipaddr.IPv6) =>
  new ipaddr.IPv4([v6.parts[6] >> 8, v6.parts[6] & 0xff, v6.parts[7] >> 8, v6.parts[7] & 0xff]);

/** The URL's protocol and host as allowed, and the address to connect to (throws BlockedTarget). */
export async function resolveTarget(
  raw: string,
  allowPrivate: boolean,
): Promise<{ url: URL; address: string; family: number }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedTarget('not a URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new BlockedTarget('only https URLs are accepted');
  if (url.username || url.password) throw new BlockedTarget('credentials in the URL are not accepted');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host)
    ? [{ address: host, family: net.isIP(host) }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (!addresses.length) throw new BlockedTarget(`${host} does not resolve`);
  if (!allowPrivate) {
    for (const a of addresses) {
      const why = blockedAddress(a.address);
      if (why) throw new BlockedTarget(`${host} resolves to a non-public address (${why})`);
    }
  }
  return { url, ...addresses[0] };
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** GET for documents fetched on a client's word (OAuth client metadata); POST by default. */
  method?: 'GET' | 'POST';
  /** How much of the response body to read and keep (default RESPONSE_KEEP). */
  keepBytes?: number;
}

export async function send(
  raw: string,
  body: string,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<Sent> {
  const method = opts.method ?? 'POST';
  const keep = opts.keepBytes ?? RESPONSE_KEEP;
  const started = Date.now();
  const done = (s: Omit<Sent, 'durationMs'>): Sent => ({ ...s, durationMs: Date.now() - started });
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(raw, opts.allowPrivate);
  } catch (err) {
    return done({
      status: null,
      body: null,
      error: err instanceof BlockedTarget ? `blocked: ${err.message}` : 'dns',
      retryAfter: null,
    });
  }
  const { url, address, family } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Sent>((resolve) => {
    const req = client.request(
      {
        method,
        host: address,
        family,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        // TLS checks the certificate against the URL's host, not the address connected to.
        servername: net.isIP(url.hostname) ? undefined : url.hostname,
        headers: {
          ...headers,
          host: url.host,
          ...(method === 'POST' ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          clearTimeout(timer);
          const retry = Number(res.headers['retry-after']);
          const text = Buffer.concat(chunks).subarray(0, keep).toString('utf8');
          resolve(
            done({
              status: res.statusCode ?? null,
              body: text,
              error: null,
              retryAfter: Number.isFinite(retry) && retry >= 0 ? retry : null,
              headers: res.headers,
            }),
          );
          res.destroy();
        };
        res.on('data', (c: Buffer) => {
          if (size < keep) chunks.push(c);
          size += c.length;
          if (size >= keep) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
      opts.timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const code = err.code ?? '';
      const error =
        code === 'TIMEOUT'
          ? 'timeout'
          : code === 'ECONNREFUSED'
            ? 'refused'
            : /CERT|SSL|TLS/.test(code)
              ? `tls: ${code}`
              : code || err.message;
      resolve(done({ status: null, body: null, error, retryAfter: null }));
    });
    req.end(method === 'POST' ? body : undefined);
  });
}
