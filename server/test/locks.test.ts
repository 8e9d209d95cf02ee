/**
 * The locks of the critical sections, shown to matter. A test-only pause hook (createApp's `pause`
 * option, never settable by a request) holds each request between its check and its write, waiting for
 * a second request to arrive there too. With the lock, the second request cannot get in while the first
 * is inside (it waits on the lock, or, on SQLite, on the one writer), so at most one request is ever
 * inside and exactly one wins. Without it both would be inside at once and both would pass the check.
 * The same holds for two server processes on one SQLite file (BEGIN IMMEDIATE plus busy_timeout).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CriticalSection } from '../context';
import { client, newClinic, request, startServer, type Clinic, type TestServer } from './helpers';
import { exited, spawnServer } from './support/spawn';
import { calendarFixture, D, type Calendar } from './scheduling-fixture';

const onPg = /^postgres/.test(process.env.DATABASE_URL ?? '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds requests inside `section` until two are there or `waitMs` passes; counts how many were inside at once. */
class Gate {
  section: CriticalSection | null = null;
  inside = 0;
  mostInside = 0;
  private arrived = 0;
  private open: () => void = () => undefined;
  private both = new Promise<void>((r) => (this.open = r));

  watch(section: CriticalSection) {
    Object.assign(this, { section, inside: 0, mostInside: 0, arrived: 0 });
    this.both = new Promise<void>((r) => (this.open = r));
  }

  readonly hook = async (section: CriticalSection) => {
    if (section !== this.section) return;
    this.inside++;
    this.mostInside = Math.max(this.mostInside, this.inside);
    if (++this.arrived === 2) this.open();
    await Promise.race([this.both, sleep(400)]);
    this.inside--;
  };
}

const gate = new Gate();
let server: TestServer;
let clinic: Clinic;
let api: ReturnType<typeof client>;
let combo: { patient_id: number; practitioner_id: number; location_id: number; appointment_type_id: number };

beforeAll(async () => {
  server = await startServer({}, { pause: gate.hook });
  clinic = await newClinic(server, { seed: true });
  api = client(server, clinic);
  const appt = (await api.get('/appointments?page_size=1&sort=id')).body.data[0];
  combo = {
    patient_id: appt.patient_id,
    practitioner_id: appt.practitioner_id,
    location_id: appt.location_id,
    appointment_type_id: appt.appointment_type_id,
  };
}, 60_000);
afterAll(() => server.close());

/** A wall time far ahead, for appointments booked with allow_clash (which skips the diary). */
let n = 0;
const freeTime = () => `2033-0${1 + (n % 9)}-1${n % 10}T0${(n++ % 8) + 1}:00:00`;

describe(`critical sections hold one request at a time (${onPg ? 'PostgreSQL row locks' : 'SQLite, one writer'})`, () => {
  it('booking: two requests for one slot, one books, the other is 409 slot_unavailable', async () => {
    // A free slot in working time, so the diary check (not allow_clash) decides.
    const free = (
      await api.get(
        `/availability?location_id=${combo.location_id}&appointment_type_id=${combo.appointment_type_id}&practitioner_id=${combo.practitioner_id}&limit=1`,
      )
    ).body.data[0];
    expect(free, 'the seeded diary has a free slot').toBeDefined();
    const slot = { ...combo, starts_at: free.starts_at };
    gate.watch('booking');
    const results = await Promise.all([
      api.post('/appointments', { body: slot }),
      api.post('/appointments', { body: slot }),
    ]);
    expect(results.map((r) => `${r.status} ${r.body?.code ?? ''}`).sort()).toEqual(['201 ', '409 slot_unavailable']);
    expect(gate.mostInside).toBe(1);
  });

  it('appointment change: two cancels of one appointment, one 200, the other 409 appointment_rule', async () => {
    const id = (await api.post('/appointments', { body: { ...combo, starts_at: freeTime(), allow_clash: true } })).body
      .data.id;
    gate.watch('appointment_change');
    const results = await Promise.all([
      api.post(`/appointments/${id}/cancel`, { body: {} }),
      api.post(`/appointments/${id}/cancel`, { body: {} }),
    ]);
    expect(results.map((r) => `${r.status} ${r.body?.code ?? ''}`).sort()).toEqual(['200 ', '409 appointment_rule']);
    expect(gate.mostInside).toBe(1);
  });

  it('allocation: two allocations racing for one payment, one 201, the other 409 billing_rule; never over-allocated', async () => {
    const billable = (await api.get('/billable_items?active=true')).body.data[0].id;
    const cash = (await api.get('/payment_methods?active=true&name=Cash')).body.data[0].id;
    const invoice = (
      await api.post('/invoices', {
        body: { patient_id: combo.patient_id, line_items: [{ billable_item_id: billable, quantity: 10 }] },
      })
    ).body.data;
    const payment = (
      await api.post('/payments', { body: { patient_id: combo.patient_id, payment_method_id: cash, amount: '1.00' } })
    ).body.data;
    gate.watch('allocation');
    const allocate = () =>
      api.post('/payment_allocations', { body: { payment_id: payment.id, invoice_id: invoice.id, amount: '0.60' } });
    const results = await Promise.all([allocate(), allocate()]);
    expect(results.map((r) => `${r.status} ${r.body?.code ?? ''}`).sort()).toEqual(['201 ', '409 billing_rule']);
    expect(gate.mostInside).toBe(1);
    expect((await api.get(`/payments/${payment.id}`)).body.data.allocated).toBe('0.60');
  });

  it('invoice number: two invoices at once get two consecutive numbers', async () => {
    const billable = (await api.get('/billable_items?active=true')).body.data[0].id;
    gate.watch('invoice_number');
    const make = () =>
      api.post('/invoices', {
        body: { patient_id: combo.patient_id, line_items: [{ billable_item_id: billable, quantity: 1 }] },
      });
    const results = await Promise.all([make(), make()]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    const numbers = results.map((r) => Number(String(r.body.data.number).replace(/\D/g, ''))).sort((a, b) => a - b);
    expect(numbers[1] - numbers[0]).toBe(1);
    expect(gate.mostInside).toBe(1);
  });
});

describe('booking locks are per diary: practitioner and resource, not the location', () => {
  let cal: Calendar;
  let other: ReturnType<typeof client>;
  let patientId: number;
  beforeAll(async () => {
    const clinic2 = await newClinic(server);
    cal = await calendarFixture(server, clinic2);
    other = client(server, clinic2);
    patientId = (await other.post('/patients', { body: { first_name: 'Lock', last_name: 'Test' } })).body.data.id;
  });
  const booking = (practitioner_id: number, extra: Record<string, unknown> = {}) =>
    other.post('/appointments', {
      body: {
        patient_id: patientId,
        location_id: cal.siteA,
        appointment_type_id: cal.followUp,
        practitioner_id,
        starts_at: `${D(14)}T09:00:00`,
        ...extra,
      },
    });

  it(`two practitioners at one location book at the same time ${onPg ? 'side by side' : '(one writer on SQLite)'}`, async () => {
    gate.watch('booking');
    const results = await Promise.all([booking(cal.p1), booking(cal.p2)]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    // On PostgreSQL neither waits for the other (the location's row was locked by both before); SQLite has one writer.
    expect(gate.mostInside).toBe(onPg ? 2 : 1);
  });

  it('two practitioners naming one resource at one time: one books, the other is 409 slot_unavailable', async () => {
    gate.watch('booking');
    const results = await Promise.all([
      booking(cal.p1, { starts_at: `${D(16)}T10:00:00`, resource_id: cal.tableA }),
      booking(cal.p2, { starts_at: `${D(16)}T10:00:00`, resource_id: cal.tableA }),
    ]);
    expect(results.map((r) => `${r.status} ${r.body?.code ?? ''}`).sort()).toEqual(['201 ', '409 slot_unavailable']);
    expect(gate.mostInside).toBe(1);
  });
});

describe.runIf(!onPg)('two server processes on one SQLite file (only on SQLite)', () => {
  it(
    'bookings of one slot through two processes: one books, the other is 409 slot_unavailable',
    { timeout: 120_000 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-locks-'));
      const env = { DATABASE_URL: path.join(dir, 'locks.db'), FILES_DIR: path.join(dir, 'files'), PAUSE_MS: '300' };
      const one = await spawnServer('server/test/support/paused-server.ts', env);
      const two = await spawnServer('server/test/support/paused-server.ts', env);
      try {
        const { openDb } = await import('../../db/client');
        const { createAccount } = await import('../domain/accounts');
        const { createKey } = await import('../domain/api_keys');
        const { seedAccount } = await import('../seed');
        const db = await openDb(env.DATABASE_URL);
        const account = await createAccount(db, {
          subdomain: `locks${process.pid}`,
          region: 'neptune',
          name: 'Locks',
          timezone: 'Europe/London',
          currency: 'GBP',
        });
        await seedAccount(db, account);
        const key = (
          await createKey(
            db,
            account,
            { actor_type: 'user', actor_id: null, actor_name: 'locks test' },
            { name: 'Locks', access: 'read_write' },
          )
        ).secret;
        await db.close();
        const host = `${account.subdomain}.neptune.localhost`;
        const via = (port: number, method: string, p: string, body?: unknown) =>
          request({ port } as TestServer, method, p, { host, key, body });
        const appt = (await via(one.port, 'GET', '/appointments?page_size=1&sort=id')).body.data[0];
        const q = `location_id=${appt.location_id}&appointment_type_id=${appt.appointment_type_id}&practitioner_id=${appt.practitioner_id}&limit=1`;
        const slot = (await via(one.port, 'GET', `/availability?${q}`)).body.data[0];
        const body = {
          patient_id: appt.patient_id,
          practitioner_id: appt.practitioner_id,
          location_id: appt.location_id,
          appointment_type_id: appt.appointment_type_id,
          starts_at: slot.starts_at,
        };
        const results = await Promise.all([
          via(one.port, 'POST', '/appointments', body),
          via(two.port, 'POST', '/appointments', body),
        ]);
        expect(results.map((r) => `${r.status} ${r.body?.code ?? ''}`).sort()).toEqual([
          '201 ',
          '409 slot_unavailable',
        ]);
      } finally {
        one.child.kill('SIGTERM');
        two.child.kill('SIGTERM');
        await Promise.all([exited(one), exited(two)]);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
