/**
 * The PostgreSQL floor: node:http + node-postgres doing the same work by hand with named prepared
 * statements, a pool of DATABASE_POOL_SIZE (default 10, as the app): the key hashed and looked up,
 * then the patient row with its numbers, address and tags built by the database in the same statement
 * (one round trip, as a careful hand-written server would; the page's count runs beside it). Serves
 * only the benchmark routes, like bench/baseline-server.ts.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

// Ids are bigint (int8): read as numbers, as the app does (db/client.ts).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const q = (name: string, text: string, values: unknown[]) => pool.query({ name, text, values });

const EMBEDS = `
  (SELECT coalesce(json_agg(json_build_object('id', n.id, 'number', n.number, 'country_code', n.country_code, 'iso2', n.iso2, 'type', n.type, 'intl_number', n.intl_number) ORDER BY n.id), '[]')
     FROM numbers n WHERE n.account_id = p.account_id AND n.patient_id = p.id) AS numbers,
  (SELECT json_build_object('line_1', a.line_1, 'line_2', a.line_2, 'city', a.city, 'state', a.state, 'postal_code', a.postal_code, 'country', a.country)
     FROM addresses a WHERE a.account_id = p.account_id AND a.entity_type = 'Patient' AND a.entity_id = p.id LIMIT 1) AS address,
  (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color, 'patient_tag_id', pt.id, 'editable', pt.editable, 'added_at', pt.created_at) ORDER BY pt.id), '[]')
     FROM patient_tags pt JOIN tags t ON t.account_id = pt.account_id AND t.id = pt.tag_id WHERE pt.account_id = p.account_id AND pt.patient_id = p.id) AS tags`;

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://x');
    const token = /^Bearer\s+(\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    // The clinic named by the host, then its key (api_keys' hash is unique within a clinic).
    const subdomain = (req.headers.host ?? '').split('.')[0];
    const key =
      token &&
      (
        await q(
          'key',
          "SELECT k.account_id FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE a.subdomain = $1 AND k.hash = $2 AND k.api = 'v3' AND k.revoked_at IS NULL",
          [subdomain, createHash('sha256').update(token).digest('hex')],
        )
      ).rows[0];
    if (!key) return send(res, 401, { message: 'unauthenticated', code: 'unauthenticated' });
    const one = /^\/v3\/api\/patients\/(\d+)$/.exec(url.pathname);
    if (one) {
      const { rows } = await q(
        'patient',
        `SELECT p.*, ${EMBEDS} FROM patients p WHERE p.account_id = $1 AND p.id = $2 AND p.deleted_at IS NULL`,
        [key.account_id, Number(one[1])],
      );
      return rows[0] ? send(res, 200, { data: rows[0] }) : send(res, 404, { message: 'not found', code: 'not_found' });
    }
    if (url.pathname === '/v3/api/patients') {
      const lastName = (url.searchParams.get('last_name') ?? '').replace(/^eq:/, '');
      const pageSize = Number(url.searchParams.get('page_size') ?? 25);
      const [page, count] = await Promise.all([
        q(
          'list',
          `SELECT p.*, ${EMBEDS} FROM patients p WHERE p.account_id = $1 AND p.last_name = $2 AND p.deleted_at IS NULL ORDER BY p.first_name, p.id LIMIT $3`,
          [key.account_id, lastName, pageSize],
        ),
        q(
          'count',
          'SELECT count(*)::int AS n FROM patients WHERE account_id = $1 AND last_name = $2 AND deleted_at IS NULL',
          [key.account_id, lastName],
        ),
      ]);
      const n = count.rows[0].n as number;
      return send(res, 200, {
        data: page.rows,
        meta: { current_page: 1, per_page: pageSize, total: n, last_page: Math.max(1, Math.ceil(n / pageSize)) },
      });
    }
    send(res, 404, { message: 'not found', code: 'not_found' });
  } catch (err) {
    send(res, 500, { message: String(err), code: 'internal_error' });
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
process.stdin.on('close', () => process.exit(0)).resume();
process.on('SIGTERM', () => process.exit(0));
