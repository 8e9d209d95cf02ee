/**
 * The floor to compare against: node:http + better-sqlite3 doing the same work by hand with prepared
 * statements. Like the app without its key cache, it hashes the bearer key and looks it up on every
 * request. No framework, no validation, no ORM; the gap to the app is what those layers cost. It serves
 * only the two benchmark routes (the list always filters last_name=eq: and sorts by first_name).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from '../db/sqlite-driver';

const db = new Database(process.env.DATABASE_URL!.replace(/^file:/, ''));
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');

const keyByHash = db.prepare("SELECT account_id, access FROM api_keys WHERE hash = ? AND api = 'v3' AND revoked_at IS NULL");
const patientById = db.prepare('SELECT * FROM patients WHERE account_id = ? AND id = ? AND deleted_at IS NULL');
const byLastName = db.prepare(
  'SELECT * FROM patients WHERE account_id = ? AND last_name = ? AND deleted_at IS NULL ORDER BY first_name, id LIMIT ?',
);
const countByLastName = db.prepare('SELECT count(*) AS n FROM patients WHERE account_id = ? AND last_name = ? AND deleted_at IS NULL');

type PatientRow = Record<string, unknown> & { communication_preferences: string; metadata: string; blocked: number };
// The same decoding the app does for these columns: JSON text to objects, 0/1 to booleans.
const decode = (r: PatientRow) => ({ ...r, blocked: r.blocked === 1, metadata: JSON.parse(r.metadata), communication_preferences: JSON.parse(r.communication_preferences) });

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const token = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const key = token && (keyByHash.get(createHash('sha256').update(token).digest('hex')) as { account_id: number } | undefined);
  if (!key) return send(res, 401, { message: 'unauthenticated', code: 'unauthenticated' });
  const one = /^\/v3\/api\/patients\/(\d+)$/.exec(url.pathname);
  if (one) {
    const row = patientById.get(key.account_id, Number(one[1])) as PatientRow | undefined;
    return row ? send(res, 200, { data: decode(row) }) : send(res, 404, { message: 'not found', code: 'not_found' });
  }
  if (url.pathname === '/v3/api/patients') {
    const lastName = (url.searchParams.get('last_name') ?? '').replace(/^eq:/, '');
    const pageSize = Number(url.searchParams.get('page_size') ?? 25);
    const rows = byLastName.all(key.account_id, lastName, pageSize) as PatientRow[];
    const { n } = countByLastName.get(key.account_id, lastName) as { n: number };
    return send(res, 200, { data: rows.map(decode), meta: { current_page: 1, per_page: pageSize, total: n, last_page: Math.max(1, Math.ceil(n / pageSize)) } });
  }
  send(res, 404, { message: 'not found', code: 'not_found' });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
