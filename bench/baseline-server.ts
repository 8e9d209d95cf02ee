/**
 * The floor to compare against: node:http + better-sqlite3 doing the same work by hand with prepared
 * statements, as a careful hand-written server would. Like the app without its key cache, it hashes the
 * bearer key and looks it up on every request; like the app, a patient comes with its numbers, address
 * and tags (one indexed statement each; for a page, one statement each for all the page's patients).
 * No framework, no validation, no ORM; the gap to the app is what those layers cost. It serves only the
 * two benchmark routes (the list always filters last_name=eq: and sorts by first_name).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from '../db/sqlite-driver';

const db = new Database(process.env.DATABASE_URL!.replace(/^file:/, ''));
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');

// The clinic named by the host, then its key (api_keys' hash is unique within a clinic).
const keyByHash = db.prepare(
  "SELECT k.account_id, k.access FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE a.subdomain = ? AND k.hash = ? AND k.api = 'v3' AND k.revoked_at IS NULL",
);
const patientById = db.prepare('SELECT * FROM patients WHERE account_id = ? AND id = ? AND deleted_at IS NULL');
const byLastName = db.prepare(
  'SELECT * FROM patients WHERE account_id = ? AND last_name = ? AND deleted_at IS NULL ORDER BY first_name, id LIMIT ?',
);
const countByLastName = db.prepare(
  'SELECT count(*) AS n FROM patients WHERE account_id = ? AND last_name = ? AND deleted_at IS NULL',
);

const ids = 'SELECT value FROM json_each(?)';
const numbersOf = db.prepare(
  `SELECT patient_id, id, number, country_code, iso2, type, intl_number FROM numbers WHERE account_id = ? AND patient_id IN (${ids}) ORDER BY id`,
);
const addressOf = db.prepare(
  `SELECT entity_id, line_1, line_2, city, state, postal_code, country FROM addresses WHERE account_id = ? AND entity_type = 'Patient' AND entity_id IN (${ids})`,
);
const tagsOf = db.prepare(
  `SELECT pt.patient_id, t.id, t.name, t.color, pt.id AS patient_tag_id, pt.editable, pt.created_at AS added_at FROM patient_tags pt JOIN tags t ON t.account_id = pt.account_id AND t.id = pt.tag_id WHERE pt.account_id = ? AND pt.patient_id IN (${ids}) ORDER BY pt.id`,
);

type PatientRow = Record<string, unknown> & {
  id: number;
  communication_preferences: string;
  metadata: string;
  blocked: number;
};
type Child = Record<string, unknown> & { patient_id?: number; entity_id?: number };

/** The patients with their embeds: three statements for however many patients. */
function withEmbeds(accountId: number, rows: PatientRow[]) {
  const list = JSON.stringify(rows.map((r) => r.id));
  const group = (children: Child[], key: 'patient_id' | 'entity_id') => {
    const by = new Map<number, Child[]>();
    for (const { [key]: owner, ...rest } of children) {
      const bucket = by.get(owner as number);
      if (bucket) bucket.push(rest);
      else by.set(owner as number, [rest]);
    }
    return by;
  };
  const numbers = group(numbersOf.all(accountId, list) as Child[], 'patient_id');
  const addresses = group(addressOf.all(accountId, list) as Child[], 'entity_id');
  const tags = group(
    (tagsOf.all(accountId, list) as Child[]).map((t) => ({ ...t, editable: t.editable === 1 })),
    'patient_id',
  );
  // The same decoding the app does for these columns: JSON text to objects, 0/1 to booleans.
  return rows.map((r) => ({
    ...r,
    blocked: r.blocked === 1,
    metadata: JSON.parse(r.metadata),
    communication_preferences: JSON.parse(r.communication_preferences),
    numbers: numbers.get(r.id) ?? [],
    address: addresses.get(r.id)?.[0] ?? null,
    tags: tags.get(r.id) ?? [],
  }));
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const token = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const key =
    token &&
    (keyByHash.get((req.headers.host ?? '').split('.')[0], createHash('sha256').update(token).digest('hex')) as
      { account_id: number } | undefined);
  if (!key) return send(res, 401, { message: 'unauthenticated', code: 'unauthenticated' });
  const one = /^\/v3\/api\/patients\/(\d+)$/.exec(url.pathname);
  if (one) {
    const row = patientById.get(key.account_id, Number(one[1])) as PatientRow | undefined;
    return row
      ? send(res, 200, { data: withEmbeds(key.account_id, [row])[0] })
      : send(res, 404, { message: 'not found', code: 'not_found' });
  }
  if (url.pathname === '/v3/api/patients') {
    const lastName = (url.searchParams.get('last_name') ?? '').replace(/^eq:/, '');
    const pageSize = Number(url.searchParams.get('page_size') ?? 25);
    const rows = byLastName.all(key.account_id, lastName, pageSize) as PatientRow[];
    const { n } = countByLastName.get(key.account_id, lastName) as { n: number };
    return send(res, 200, {
      data: withEmbeds(key.account_id, rows),
      meta: { current_page: 1, per_page: pageSize, total: n, last_page: Math.max(1, Math.ceil(n / pageSize)) },
    });
  }
  send(res, 404, { message: 'not found', code: 'not_found' });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
