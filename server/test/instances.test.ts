/**
 * Two app processes on one database behave as one service: each shared piece proven through the other
 * instance. A key revoked through one is refused by the other within its cache bound; a booking through
 * one removes the slot from the other's availability; one idempotent POST sent to both at once has one
 * effect; a file uploaded through one downloads through the other (FILES_STORE=database).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { patients } from '../../db/schema';
import { multipart, newClinic, request, startServer, type Clinic, type Res, type TestServer } from './helpers';
import { addMember, portalClient } from './support/portal';
import { spawnServer, type Spawned } from './support/spawn';

let local: TestServer;
let clinic: Clinic;
let a: Spawned;
let b: Spawned;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-instances-'));

/** The instance as the test helpers address a server: only its port is used. */
const at = (s: Spawned) => ({ port: s.port }) as TestServer;
const call = (s: Spawned, method: string, p: string, opts: Parameters<typeof request>[3] = {}): Promise<Res> =>
  request(at(s), method, p, { host: clinic.host, key: clinic.key, ...opts });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  local = await startServer({ FILES_STORE: 'database' });
  clinic = await newClinic(local, { seed: true });
  const env = {
    DATABASE_URL: process.env.DATABASE_URL!,
    PORT: '0',
    WEB_CONCURRENCY: '1',
    WEBHOOK_WORKER: 'off',
    FILES_STORE: 'database',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_REST_PER_MINUTE: '100000',
    RATE_LIMIT_UNAUTH_PER_MINUTE: '100000',
    FILES_DIR: work,
  };
  [a, b] = await Promise.all([
    spawnServer('server/test/support/cluster-server.ts', env),
    spawnServer('server/test/support/cluster-server.ts', env),
  ]);
}, 120_000);
afterAll(async () => {
  a?.child.kill('SIGKILL');
  b?.child.kill('SIGKILL');
  await local?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('two instances on one database', () => {
  test('a key revoked through one instance is refused by the other within its cache bound (1 s)', async () => {
    const admin = await addMember(local, clinic, 'admin');
    const portal = portalClient(at(a), clinic);
    expect((await portal.signIn(admin.email, admin.password)).status).toBe(200);
    const made = await portal.mutate('keys.create', { name: 'Shared', access: 'read_write', expires: 'never' });
    const { id, secret } = made.body.result.data;
    expect((await call(b, 'GET', '/me', { key: secret })).status).toBe(200);
    expect((await portal.mutate('keys.revoke', { id })).status).toBe(200);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 3000) {
      status = (await call(b, 'GET', '/me', { key: secret })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1500);
  });

  test("a booking through one instance takes the slot out of the other's availability at once", async () => {
    const appt = (await call(a, 'GET', '/appointments?page_size=1&sort=id')).body.data[0];
    const query = `/availability?location_id=${appt.location_id}&appointment_type_id=${appt.appointment_type_id}&practitioner_id=${appt.practitioner_id}&from=${day(60)}&to=${day(66)}`;
    const before = (await call(b, 'GET', query)).body.data;
    expect(before.length).toBeGreaterThan(0);
    const slot = before[0];
    const booked = await call(a, 'POST', '/appointments', {
      body: {
        patient_id: appt.patient_id,
        practitioner_id: slot.practitioner_id,
        location_id: slot.location_id,
        appointment_type_id: slot.appointment_type_id,
        starts_at: slot.starts_at,
      },
    });
    expect(booked.status, booked.text).toBe(201);
    const after = (await call(b, 'GET', query)).body.data;
    expect(after.map((s: { starts_at: string }) => s.starts_at)).not.toContain(slot.starts_at);
  });

  test('one idempotent POST sent to both instances at once has one effect', async () => {
    const body = { first_name: 'Twice', last_name: `Sent ${Date.now()}` };
    const headers = { 'idempotency-key': `both-${Date.now()}` };
    const [one, two] = await Promise.all([
      call(a, 'POST', '/patients', { body, headers }),
      call(b, 'POST', '/patients', { body, headers }),
    ]);
    const statuses = [one.status, two.status].sort();
    // The second is either the replay (201, Idempotent-Replayed) or refused while the first runs (409).
    expect(statuses[0]).toBe(201);
    expect([201, 409]).toContain(statuses[1]);
    const saved = await local.app.db.db
      .select()
      .from(patients)
      .where(and(eq(patients.account_id, clinic.account.id), eq(patients.last_name, body.last_name)));
    expect(saved).toHaveLength(1);
    const again = await call(b, 'POST', '/patients', { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(saved[0].id);
  });

  test('a file uploaded through one instance downloads through the other', async () => {
    const patientId = (await call(a, 'GET', '/patients?page_size=1')).body.data[0].id;
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const upload = await call(
      a,
      'POST',
      '/files',
      multipart(
        { patient_id: String(patientId), file_type: 'generic' },
        { name: 'scan.bin', type: 'application/octet-stream', bytes },
      ),
    );
    expect(upload.status, upload.text).toBe(201);
    const downloaded = await new Promise<{ status: number; bytes: Buffer }>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: b.port,
            path: `/v3/api/files/${upload.body.data.id}/download`,
            headers: { host: clinic.host, authorization: `Bearer ${clinic.key}` },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
          },
        )
        .on('error', reject);
    });
    expect(downloaded.status).toBe(200);
    expect(Buffer.compare(downloaded.bytes, bytes)).toBe(0);
  });
});
