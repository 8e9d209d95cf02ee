/**
 * Security headers on every response of the node:http server, so that no page can be framed (a
 * same-site clinic host framing the consent screen got one click on Allow), no response is
 * content-sniffed, and https stays https.
 *
 * Two policies: what is not a page (REST JSON, OAuth, MCP, the portal's tRPC transport, 404s and
 * 421s) loads nothing and may be framed by nobody; Next's pages get a real policy whose script nonce
 * is fresh per request (Next reads it from the request's own Content-Security-Policy header).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Two years, subdomains included: every clinic host is a subdomain of the service domain. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/** For every response that is not a page: nothing to load, no one may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const OVER_HTTP = {
  'X-Content-Type-Options': 'nosniff',
  // The old header and frame-ancestors both: X-Frame-Options for browsers without CSP level 2.
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': API_CSP,
};

/**
 * The headers every response that is not a page carries. HSTS only over https: over plain http it
 * means nothing (browsers ignore it) and would only mislead.
 */
const FOR_API: Record<'http' | 'https', Readonly<Record<string, string>>> = {
  http: OVER_HTTP,
  https: Object.assign({}, OVER_HTTP, { 'Strict-Transport-Security': HSTS }),
};

/**
 * The same headers as one record, for a handler that answers with one writeHead(status, headers) and
 * nothing set before it (the REST gateway): node then stores the head as given, instead of merging it
 * header by header into what setHeader left.
 */
export const securityHeaders = (proto: 'http' | 'https'): Readonly<Record<string, string>> => FOR_API[proto];

/**
 * At the top of the request callback, before dispatch: setHeader'd headers survive the handlers'
 * own `writeHead(status, headers)` (node merges the two), and the page handler replaces the CSP.
 */
export function setSecurityHeaders(res: ServerResponse, proto: 'http' | 'https'): void {
  for (const [name, value] of Object.entries(FOR_API[proto])) res.setHeader(name, value);
}

/**
 * The policy of a portal page. Scripts: only those carrying this request's nonce, and what they load
 * ('strict-dynamic': Next's chunks load one another); `next dev` evaluates code, so 'unsafe-eval'
 * there only. Styles: the portal's pages inline none (Tailwind is one stylesheet), but Next's
 * built-in error screens and the dev overlay do (a <style> element and style attributes, which no
 * nonce can cover and Next gives none), and a style cannot run code: 'unsafe-inline' for styles.
 */
export function pageCsp(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * Wraps Next's request handler: a fresh nonce per request, written into the request's
 * Content-Security-Policy header (where Next looks for it and puts it on every script it renders:
 * getScriptNonceFromHeaders in next/dist/server/app-render) and sent as the response's policy.
 * Pages must be rendered per request for this (app/layout.tsx: force-dynamic).
 */
export function withPageSecurity(handler: Handler, opts: { dev: boolean }): Handler {
  return (req, res) => {
    const policy = pageCsp(randomBytes(16).toString('base64'), opts.dev);
    // Overwrites whatever the client sent: the nonce is ours, never the client's.
    req.headers['content-security-policy'] = policy;
    delete req.headers['content-security-policy-report-only'];
    res.setHeader('Content-Security-Policy', policy);
    // The consent screen's address carries the authorization request (state, redirect_uri): no page sends it on.
    res.setHeader('Referrer-Policy', 'no-referrer');
    return handler(req, res);
  };
}
