/**
 * The ceiling for GET /ping: bare node:http answering a constant JSON record, nothing else. Prints
 * `LISTENING <port>`; exits when the parent's stdin pipe closes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ data: { status: 'ok', version: 'v3' } });
const server = http.createServer((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
