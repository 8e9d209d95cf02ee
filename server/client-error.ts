/**
 * Requests node's HTTP parser refuses before any handler runs (a URL and headers over 16 KB, a
 * malformed request line or header): node would answer a bare 431/400 with no body. They get the API's
 * JSON error shape and the security headers like every other answer, and the connection is closed
 * (the parser cannot tell where the next request would start).
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { API_CSP } from './security-headers';

export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') return void socket.destroy();
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason, body] = tooLarge
    ? [
        431,
        'Request Header Fields Too Large',
        {
          message: 'The URL and headers together exceed 16 KB: send large input in a POST body',
          code: 'headers_too_large',
        },
      ]
    : [400, 'Bad Request', { message: 'Malformed HTTP request', code: 'bad_request' }];
  const text = JSON.stringify(body);
  socket.end(
    [
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(text)}`,
      'Cache-Control: no-store',
      `X-Request-Id: ${randomUUID()}`,
      'X-Content-Type-Options: nosniff',
      'X-Frame-Options: DENY',
      `Content-Security-Policy: ${API_CSP}`,
      'Connection: close',
      '',
      text,
    ].join('\r\n'),
  );
}
