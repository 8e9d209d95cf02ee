import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deletedEntities } from '../../db/schema';
import { billingFixture, type Billing } from './billing-fixture';
import { eventTypes, expectError, useClinic } from './helpers';
import { calendarFixture, D } from './scheduling-fixture';

const t = useClinic();
const { api } = t;
let bill: Billing;

beforeAll(async () => {
  bill = await billingFixture(t.server, t.clinic);
});

const typesOf = (entity: string, id: number) => eventTypes(t.server, t.clinic, entity, id);

/** An invoice of one consultation (60.00, no tax) and two foam rollers (2 × 22.50 + 20% tax = 54.00). */
const newInvoice = async (patient_id: number, extra: Record<string, unknown> = {}) => {
  const res = await api.post('/invoices', {
    body: {
      patient_id,
      line_items: [
        { billable_item_id: bill.consultation, quantity: 1 },
        { billable_item_id: bill.roller, quantity: 2 },
      ],
      ...extra,
    },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.data;
};
const pay = (patient_id: number, amount: string, extra: Record<string, unknown> = {}) =>
  api.post('/payments', { body: { patient_id, payment_method_id: bill.cash, amount, ...extra } });

describe('invoices', () => {
  it('creates an invoice: priced lines, exact totals as decimal strings, the next number, one event', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p, { note: 'Knee', invoice_date: '2026-11-20' });
    expect(inv).toMatchObject({
      state: 'open',
      type: 'patient',
      patient_id: p,
      invoice_date: '2026-11-20',
      note: 'Knee',
      subtotal: '105.00',
      discount: '0.00',
      tax: '9.00',
      total: '114.00',
      amount_paid: '0.00',
      balance: '114.00',
      patient_balance: '114.00',
      third_party_balance: '0.00',
      third_party_amount: '0.00',
    });
    expect(inv.line_items).toEqual([
      {
        id: expect.any(Number),
        billable_item_id: bill.consultation,
        description: 'Consultation',
        quantity: 1,
        unit_price: '60.00',
        discount: '0.00',
        tax_rate: '0.00',
        subtotal: '60.00',
        tax: '0.00',
        total: '60.00',
      },
      {
        id: expect.any(Number),
        billable_item_id: bill.roller,
        description: 'Foam roller',
        quantity: 2,
        unit_price: '22.50',
        discount: '0.00',
        tax_rate: '20.00',
        subtotal: '45.00',
        tax: '9.00',
        total: '54.00',
      },
    ]);
    const next = await newInvoice(p);
    expect(next.number).toBe(inv.number + 1);
    expect(await typesOf('invoices', inv.id)).toEqual(['invoices.created']);
    expect((await api.get(`/invoices/${inv.id}`)).body.data).toEqual(inv);
  });

  it('zero lines is 422 billing_rule; bad lines are 422 naming the line; nothing is stored', async () => {
    const p = await bill.patient();
    expectError(await api.post('/invoices', { body: { patient_id: p, line_items: [] } }), 422, 'billing_rule');
    expectError(await api.post('/invoices', { body: { patient_id: p } }), 422, 'billing_rule');
    const retired = await api.post('/invoices', {
      body: {
        patient_id: p,
        line_items: [
          { billable_item_id: bill.consultation, quantity: 1 },
          { billable_item_id: bill.retired, quantity: 1 },
        ],
      },
    });
    expectError(retired, 422, 'invalid_input');
    expect(Object.keys(retired.body.errors)).toEqual(['line_items.1.billable_item_id']);
    const badQty = await api.post('/invoices', {
      body: { patient_id: p, line_items: [{ billable_item_id: bill.consultation, quantity: 0 }] },
    });
    expectError(badQty, 422, 'validation_failed');
    expect(Object.keys(badQty.body.errors)).toEqual(['line_items.0.quantity']);
    expectError(
      await api.post('/invoices', {
        body: { patient_id: 999999, line_items: [{ billable_item_id: bill.consultation, quantity: 1 }] },
      }),
      422,
      'patient_not_found',
    );
    expect((await api.get(`/invoices?patient_id=${p}`)).body.meta.total).toBe(0);
  });

  it('links to a practitioner, location or appointment must exist on the account (422)', async () => {
    const p = await bill.patient();
    const lines = [{ billable_item_id: bill.consultation, quantity: 1 }];
    for (const [attribute, code] of [
      ['practitioner_id', 'practitioner_not_found'],
      ['location_id', 'location_not_found'],
      ['appointment_id', 'invalid_input'],
    ] as const) {
      const res = await api.post('/invoices', { body: { patient_id: p, line_items: lines, [attribute]: 999999 } });
      expectError(res, 422, code);
      expect(Object.keys(res.body.errors)).toEqual([attribute]);
    }
    expect((await api.get(`/invoices?patient_id=${p}`)).body.meta.total).toBe(0);
  });

  it("an invoice for an appointment takes its practitioner and location unless it names them; another patient's appointment is 422", async () => {
    const cal = await calendarFixture(t.server, t.clinic);
    const p = await bill.patient();
    const booked = await api.post('/appointments', {
      body: {
        patient_id: p,
        practitioner_id: cal.p1,
        location_id: cal.siteA,
        appointment_type_id: cal.followUp,
        starts_at: `${D(21)}T09:00:00`,
      },
    });
    expect(booked.status, booked.text).toBe(201);
    const appointment_id = booked.body.data.id;
    const made = await newInvoice(p, { appointment_id });
    expect(made).toMatchObject({ appointment_id, practitioner_id: cal.p1, location_id: cal.siteA });
    expect((await api.get(`/invoices/${made.id}`)).body.data).toMatchObject({
      practitioner_id: cal.p1,
      location_id: cal.siteA,
    });
    // Named, even as null, the request's own value is kept.
    const named = await newInvoice(p, { appointment_id, practitioner_id: null, location_id: cal.siteB });
    expect(named).toMatchObject({ practitioner_id: null, location_id: cal.siteB });
    // Given later by PATCH, the appointment fills what the invoice lacks.
    const later = await newInvoice(p);
    expect(later).toMatchObject({ practitioner_id: null, location_id: null });
    const patched = await api.patch(`/invoices/${later.id}`, { body: { appointment_id } });
    expect(patched.body.data).toMatchObject({ appointment_id, practitioner_id: cal.p1, location_id: cal.siteA });

    const other = await bill.patient();
    const before = (await api.get(`/invoices?patient_id=${other}`)).body.meta.total;
    const refused = await api.post('/invoices', {
      body: { patient_id: other, appointment_id, line_items: [{ billable_item_id: bill.consultation, quantity: 1 }] },
    });
    expectError(refused, 422, 'invalid_input');
    expect(Object.keys(refused.body.errors)).toEqual(['appointment_id']);
    expect((await api.get(`/invoices?patient_id=${other}`)).body.meta.total).toBe(before);
    // Moving the invoice to another patient while it keeps the appointment: refused too, nothing changes.
    const moved = await api.patch(`/invoices/${made.id}`, { body: { patient_id: other } });
    expectError(moved, 422, 'invalid_input');
    expect(Object.keys(moved.body.errors)).toEqual(['patient_id']);
    expect((await api.get(`/invoices/${made.id}`)).body.data.patient_id).toBe(p);
  });

  it('PATCH without line_items changes the header; note: null clears, absent leaves', async () => {
    const inv = await newInvoice(await bill.patient(), { note: 'First' });
    const kept = await api.patch(`/invoices/${inv.id}`, { body: { invoice_date: '2026-11-01' } });
    expect(kept.body.data).toMatchObject({ note: 'First', invoice_date: '2026-11-01', total: '114.00' });
    const cleared = await api.patch(`/invoices/${inv.id}`, { body: { note: null } });
    expect(cleared.body.data.note).toBeNull();
  });

  it('PATCH with line_items reconciles by id and re-totals; an empty list is 409 billing_rule', async () => {
    const inv = await newInvoice(await bill.patient());
    const [consult, rollers] = inv.line_items;
    const res = await api.patch(`/invoices/${inv.id}`, {
      body: {
        line_items: [
          { id: rollers.id, billable_item_id: bill.roller, quantity: 1, discount: '2.50' },
          { billable_item_id: bill.consultation, quantity: 2, unit_price: '50.00' },
        ],
      },
    });
    expect(res.status).toBe(200);
    // Roller: 22.50 − 2.50 = 20.00 + 4.00 tax; two consultations at 50.00. The first consultation line is gone.
    expect(res.body.data.line_items.map((l: { id: number; total: string }) => [l.id === rollers.id, l.total])).toEqual([
      [true, '24.00'],
      [false, '100.00'],
    ]);
    expect(res.body.data.line_items.some((l: { id: number }) => l.id === consult.id)).toBe(false);
    expect(res.body.data).toMatchObject({
      subtotal: '120.00',
      discount: '2.50',
      tax: '4.00',
      total: '124.00',
      balance: '124.00',
    });
    expectError(await api.patch(`/invoices/${inv.id}`, { body: { line_items: [] } }), 409, 'billing_rule');
    const foreign = await api.patch(`/invoices/${inv.id}`, {
      body: { line_items: [{ id: 999999, billable_item_id: bill.roller, quantity: 1 }] },
    });
    expectError(foreign, 422, 'invalid_input');
    expect(Object.keys(foreign.body.errors)).toEqual(['line_items.0.id']);
    const twice = await api.patch(`/invoices/${inv.id}`, {
      body: {
        line_items: [
          { id: rollers.id, billable_item_id: bill.roller, quantity: 1 },
          { id: rollers.id, billable_item_id: bill.roller, quantity: 2 },
        ],
      },
    });
    expectError(twice, 422, 'invalid_input');
    expect(Object.keys(twice.body.errors)).toEqual(['line_items.1.id']);
  });

  it('lines removed by PATCH /invoices are listed in deleted_entities', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const [drop, keep] = inv.line_items;
    expect(
      (
        await api.patch(`/invoices/${inv.id}`, {
          body: { line_items: [{ id: keep.id, billable_item_id: bill.roller, quantity: 1 }] },
        })
      ).status,
    ).toBe(200);
    const gone = (await api.get(`/deleted_entities?entity=line_items&entity_id=${drop.id}`)).body.data;
    expect(gone).toHaveLength(1);
    expect((await api.get(`/deleted_entities?entity=line_items&entity_id=${keep.id}`)).body.data).toEqual([]);
  });

  it('a third-party split: allocations by an insurance method pay the third-party part', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p, { third_party_payer: 'Bupa', third_party_amount: '80.00' });
    expect(inv).toMatchObject({
      type: 'split',
      third_party_payer: 'Bupa',
      patient_balance: '34.00',
      third_party_balance: '80.00',
      balance: '114.00',
    });
    const insurer = await api.post('/payments', {
      body: {
        patient_id: p,
        payment_method_id: bill.insurance,
        amount: '100.00',
        allocations: [{ invoice_id: inv.id, amount: '80.00' }],
      },
    });
    expect(insurer.status).toBe(201);
    expect(insurer.body.data).toMatchObject({
      allocated: '80.00',
      unallocated: '20.00',
      status: 'partially_allocated',
    });
    expect(insurer.body.data.allocations).toEqual([
      { id: expect.any(Number), invoice_id: inv.id, amount: '80.00', payer: 'third_party' },
    ]);
    const after = (await api.get(`/invoices/${inv.id}`)).body.data;
    expect(after).toMatchObject({
      state: 'partially_paid',
      third_party_balance: '0.00',
      patient_balance: '34.00',
      balance: '34.00',
      amount_paid: '80.00',
    });
    // The insurer cannot pay the patient's part.
    expectError(
      await api.post('/payment_allocations', {
        body: { payment_id: insurer.body.data.id, invoice_id: inv.id, amount: '1.00' },
      }),
      409,
      'billing_rule',
    );
    const patientPays = await pay(p, '34.00', { allocations: [{ invoice_id: inv.id, amount: '34.00' }] });
    expect(patientPays.status).toBe(201);
    expect((await api.get(`/invoices/${inv.id}`)).body.data).toMatchObject({ state: 'paid', balance: '0.00' });
    // A paid invoice cannot shrink below what was paid.
    expectError(
      await api.patch(`/invoices/${inv.id}`, {
        body: { line_items: [{ billable_item_id: bill.roller, quantity: 1 }] },
      }),
      409,
      'billing_rule',
    );
    expectError(
      await api.patch(`/invoices/${inv.id}`, { body: { third_party_amount: '500.00' } }),
      409,
      'billing_rule',
    );
  });

  it('filters and sorts on number, state, balance and dates; money filters take decimal strings', async () => {
    const p = await bill.patient('Sorty');
    const a = await newInvoice(p, { invoice_date: '2026-10-01' });
    const b = await newInvoice(p, { invoice_date: '2026-10-02' });
    await pay(p, '14.00', { allocations: [{ invoice_id: b.id, amount: '14.00' }] });
    const bal = await api.get(`/invoices?patient_id=${p}&balance=lt:114.00&sort=number:desc`);
    expect(bal.body.data.map((i: { id: number; balance: string }) => [i.id, i.balance])).toEqual([[b.id, '100.00']]);
    const sorted = await api.get(`/invoices?patient_id=${p}&sort=balance:desc,invoice_date`);
    expect(sorted.body.data.map((i: { id: number }) => i.id)).toEqual([a.id, b.id]);
    expect(
      (await api.get(`/invoices?patient_id=${p}&state=partially_paid`)).body.data.map((i: { id: number }) => i.id),
    ).toEqual([b.id]);
    expectError(await api.get('/invoices?balance=gt:12.345'), 422, 'validation_failed');
    expectError(await api.get('/invoices?balance=gt:abc'), 422, 'validation_failed');
    const page = await api.get(`/invoices?patient_id=${p}&sort=balance&cursor=&page_size=1`);
    const next = await api.get(page.body.links.next.replace(/^.*\/v3\/api/, ''));
    expect([page.body.data[0].id, next.body.data[0].id]).toEqual([b.id, a.id]);
  });

  it('DELETE voids: 404 afterwards (a second DELETE is 409 billing_rule), allocations released, void_payments voids payments left with nothing', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const kept = (await pay(p, '50.00', { allocations: [{ invoice_id: inv.id, amount: '10.00' }] })).body.data;
    const voided = (await pay(p, '20.00', { allocations: [{ invoice_id: inv.id, amount: '20.00' }] })).body.data;
    const res = await api.delete(`/invoices/${inv.id}?void_payments=true`);
    expect(res.status).toBe(204);
    expectError(await api.get(`/invoices/${inv.id}`), 404, 'not_found');
    expectError(await api.delete(`/invoices/${inv.id}`), 409, 'billing_rule');
    expect((await api.get(`/payments/${kept.id}`)).body.data).toMatchObject({
      allocated: '0.00',
      unallocated: '50.00',
      status: 'unallocated',
      allocations: [],
    });
    expectError(await api.get(`/payments/${voided.id}`), 404, 'not_found');
    const gone = await t.server.app.db.db
      .select()
      .from(deletedEntities)
      .where(eq(deletedEntities.account_id, t.clinic.account.id));
    expect(gone.some((g) => g.entity === 'invoices' && g.entity_id === inv.id)).toBe(true);
    expect(gone.some((g) => g.entity === 'payments' && g.entity_id === voided.id)).toBe(true);
    // Each payment's allocation moved the invoice's balance; the void released them: every record that
    // changed is announced, once per operation.
    expect(await typesOf('invoices', inv.id)).toEqual([
      'invoices.created',
      'invoices.updated',
      'invoices.updated',
      'invoices.deleted',
    ]);
    expect(await typesOf('payments', kept.id)).toEqual(['payments.created', 'payments.updated']);
    expect(await typesOf('payments', voided.id)).toEqual(['payments.created', 'payments.deleted']);
    for (const a of [...kept.allocations, ...voided.allocations]) {
      expect(await typesOf('payment_allocations', a.id)).toEqual([
        'payment_allocations.created',
        'payment_allocations.deleted',
      ]);
      expect(gone.some((g) => g.entity === 'payment_allocations' && g.entity_id === a.id)).toBe(true);
    }
    // Its lines go with it: no longer returned, announced through invoices.deleted, listed in deleted_entities.
    const line = inv.line_items[0].id;
    expectError(await api.get(`/line_items/${line}`), 404, 'not_found');
    expect((await api.get(`/line_items?invoice_id=${inv.id}`)).body.data).toEqual([]);
    expect(gone.filter((g) => g.entity === 'line_items').map((g) => g.entity_id)).toContain(line);
    expectError(await api.patch(`/line_items/${line}`, { body: { quantity: 3 } }), 404, 'not_found');
    expectError(await api.delete(`/line_items/${line}`), 404, 'not_found');
    // Nothing can be added to it.
    expectError(
      await api.post('/line_items', { body: { invoice_id: inv.id, billable_item_id: bill.consultation, quantity: 1 } }),
      409,
      'billing_rule',
    );
  });

  it('numbers are unique and sequential under concurrent creates', async () => {
    const p = await bill.patient();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.post('/invoices', {
          body: { patient_id: p, line_items: [{ billable_item_id: bill.consultation, quantity: 1 }] },
        }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const numbers = results.map((r) => r.body.data.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 10 }, (_, i) => numbers[0] + i));
  });
});

describe('line_items', () => {
  it('adds one line or several atomically, re-totals, and the last line cannot be deleted', async () => {
    const p = await bill.patient();
    const inv = (
      await api.post('/invoices', {
        body: { patient_id: p, line_items: [{ billable_item_id: bill.consultation, quantity: 1 }] },
      })
    ).body.data;
    const one = await api.post('/line_items', {
      body: { invoice_id: inv.id, billable_item_id: bill.roller, quantity: 1, description: 'Blue roller' },
    });
    expect(one.status).toBe(201);
    expect(one.body.data).toMatchObject({
      invoice_id: inv.id,
      description: 'Blue roller',
      total: '27.00',
      tax: '4.50',
    });
    const several = await api.post('/line_items', {
      body: {
        invoice_id: inv.id,
        lines: [
          { billable_item_id: bill.roller, quantity: 1 },
          { billable_item_id: bill.consultation, quantity: 1, discount: '10.00' },
        ],
      },
    });
    expect(several.status).toBe(201);
    expect(several.body.data.map((l: { total: string }) => l.total)).toEqual(['27.00', '50.00']);
    expect((await api.get(`/invoices/${inv.id}`)).body.data.total).toBe('164.00');
    const bad = await api.post('/line_items', {
      body: {
        invoice_id: inv.id,
        lines: [
          { billable_item_id: bill.roller, quantity: 1 },
          { billable_item_id: bill.retired, quantity: 1 },
        ],
      },
    });
    expectError(bad, 422, 'invalid_input');
    expect(Object.keys(bad.body.errors)).toEqual(['lines.1.billable_item_id']);
    expect((await api.get(`/invoices/${inv.id}`)).body.data.line_items).toHaveLength(4);
    expectError(
      await api.post('/line_items', {
        body: { invoice_id: inv.id, lines: [{ billable_item_id: bill.roller, quantity: 1 }], quantity: 2 },
      }),
      422,
      'validation_failed',
    );
    expectError(await api.post('/line_items', { body: { invoice_id: inv.id } }), 422, 'validation_failed');
    expectError(
      await api.post('/line_items', { body: { invoice_id: 999999, billable_item_id: bill.roller, quantity: 1 } }),
      422,
      'invalid_input',
    );
    expectError(
      await api.post('/line_items', {
        body: { invoice_id: inv.id, billable_item_id: bill.roller, quantity: 1, discount: '50.00' },
      }),
      422,
      'invalid_input',
    );

    const patched = await api.patch(`/line_items/${one.body.data.id}`, { body: { quantity: 2 } });
    expect(patched.body.data).toMatchObject({ quantity: 2, description: 'Blue roller', total: '54.00' });
    expect((await api.get(`/invoices/${inv.id}`)).body.data.total).toBe('191.00');
    const ids = (await api.get(`/invoices/${inv.id}`)).body.data.line_items.map((l: { id: number }) => l.id);
    for (const id of ids.slice(1)) expect((await api.delete(`/line_items/${id}`)).status).toBe(204);
    expectError(await api.delete(`/line_items/${ids[0]}`), 409, 'billing_rule');
    expect((await api.get(`/invoices/${inv.id}`)).body.data).toMatchObject({ total: '60.00', balance: '60.00' });
    expect((await typesOf('invoices', inv.id)).filter((t) => t === 'invoices.updated')).toHaveLength(2 + 1 + 3);
  });
});

describe('payments, allocations and refunds', () => {
  it('payment methods: inactive or missing is 422 payment_method_unavailable, card is 422 card_payment_not_allowed', async () => {
    const p = await bill.patient();
    expectError(await pay(p, '10.00', { payment_method_id: bill.cheque }), 422, 'payment_method_unavailable');
    expectError(await pay(p, '10.00', { payment_method_id: 999999 }), 422, 'payment_method_unavailable');
    expectError(await pay(p, '10.00', { payment_method_id: bill.card }), 422, 'card_payment_not_allowed');
    expectError(await pay(p, '0.00'), 422, 'validation_failed');
    expectError(await pay(p, '-5.00'), 422, 'validation_failed');
    expectError(await pay(p, '10.001'), 422, 'validation_failed');
    expectError(await pay(p, 10 as unknown as string), 422, 'validation_failed');
    expect((await api.get(`/payments?patient_id=${p}`)).body.meta.total).toBe(0);
  });

  it('zero amounts are 422 validation_failed naming the attribute, for payments, their allocations and refunds', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const nested = await pay(p, '10.00', { allocations: [{ invoice_id: inv.id, amount: '0.00' }] });
    expectError(nested, 422, 'validation_failed');
    expect(Object.keys(nested.body.errors)).toEqual(['allocations.0.amount']);
    const payment = (await pay(p, '10.00')).body.data;
    for (const [path, body] of [
      ['/payment_allocations', { payment_id: payment.id, invoice_id: inv.id, amount: '0.00' }],
      ['/refunds', { payment_id: payment.id, amount: '0' }],
    ] as const) {
      const res = await api.post(path, { body });
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.errors)).toEqual(['amount']);
    }
    expect((await api.get(`/payments/${payment.id}`)).body.data).toMatchObject({ allocated: '0.00', refunded: '0.00' });
  });

  it('allocations never exceed the unallocated amount nor the balance, same patient only; removal restores both', async () => {
    const p = await bill.patient();
    const other = await bill.patient('Other');
    const inv = await newInvoice(p);
    const payment = (await pay(p, '100.00')).body.data;
    expect(payment).toMatchObject({
      amount: '100.00',
      allocated: '0.00',
      unallocated: '100.00',
      status: 'unallocated',
      payment_date: expect.any(String),
    });
    expectError(
      await api.post('/payment_allocations', {
        body: { payment_id: payment.id, invoice_id: inv.id, amount: '100.01' },
      }),
      409,
      'billing_rule',
    );
    const foreignInvoice = await newInvoice(other);
    expectError(
      await api.post('/payment_allocations', {
        body: { payment_id: payment.id, invoice_id: foreignInvoice.id, amount: '1.00' },
      }),
      409,
      'billing_rule',
    );
    const a = await api.post('/payment_allocations', {
      body: { payment_id: payment.id, invoice_id: inv.id, amount: '100.00' },
    });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({
      payment_id: payment.id,
      invoice_id: inv.id,
      amount: '100.00',
      payer: 'patient',
    });
    const second = (await pay(p, '50.00')).body.data;
    expectError(
      await api.post('/payment_allocations', { body: { payment_id: second.id, invoice_id: inv.id, amount: '14.01' } }),
      409,
      'billing_rule',
    );
    expect((await api.get(`/invoices/${inv.id}`)).body.data).toMatchObject({
      balance: '14.00',
      state: 'partially_paid',
    });
    expect((await api.delete(`/payment_allocations/${a.body.data.id}`)).status).toBe(204);
    expect((await api.get(`/invoices/${inv.id}`)).body.data).toMatchObject({ balance: '114.00', state: 'open' });
    expect((await api.get(`/payments/${payment.id}`)).body.data).toMatchObject({
      unallocated: '100.00',
      status: 'unallocated',
    });
    expectError(await api.get(`/payment_allocations/${a.body.data.id}`), 404, 'not_found');
    expect(await typesOf('payment_allocations', a.body.data.id)).toEqual([
      'payment_allocations.created',
      'payment_allocations.deleted',
    ]);
  });

  it('refunds: at most the unallocated amount; a refunded payment keeps its allocations and cannot be voided', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const payment = (await pay(p, '150.00', { allocations: [{ invoice_id: inv.id, amount: '114.00' }] })).body.data;
    expect(payment).toMatchObject({ allocated: '114.00', unallocated: '36.00', status: 'partially_allocated' });
    expectError(
      await api.post('/refunds', { body: { payment_id: payment.id, amount: '36.01', reason: 'Overpaid' } }),
      409,
      'billing_rule',
    );
    const refund = await api.post('/refunds', {
      body: { payment_id: payment.id, amount: '36.00', reason: 'Overpaid' },
    });
    expect(refund.status).toBe(201);
    expect(refund.body.data).toMatchObject({ payment_id: payment.id, amount: '36.00', reason: 'Overpaid' });
    expect((await api.get(`/refunds?payment_id=${payment.id}`)).body.data).toHaveLength(1);
    expect((await api.get(`/payments/${payment.id}`)).body.data).toMatchObject({
      refunded: '36.00',
      unallocated: '0.00',
      status: 'allocated',
    });
    expectError(await api.delete(`/payment_allocations/${payment.allocations[0].id}`), 409, 'allocation_remove_failed');
    expectError(await api.delete(`/payments/${payment.id}`), 409, 'billing_rule');
    expect(await typesOf('payments', payment.id)).toEqual(['payments.created', 'payments.updated']);

    const whole = (await pay(p, '5.00')).body.data;
    await api.post('/refunds', { body: { payment_id: whole.id, amount: '5.00' } });
    expect((await api.get(`/payments/${whole.id}`)).body.data.status).toBe('refunded');
  });

  it('DELETE /payments voids it and restores the invoice balances', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const payment = (await pay(p, '114.00', { allocations: [{ invoice_id: inv.id, amount: '114.00' }] })).body.data;
    expect((await api.get(`/invoices/${inv.id}`)).body.data.state).toBe('paid');
    expect((await api.delete(`/payments/${payment.id}`)).status).toBe(204);
    expectError(await api.get(`/payments/${payment.id}`), 404, 'not_found');
    expect((await api.get(`/invoices/${inv.id}`)).body.data).toMatchObject({ state: 'open', balance: '114.00' });
    expect(await typesOf('payments', payment.id)).toEqual(['payments.created', 'payments.deleted']);
  });

  it('concurrent voids of one payment: one 204, the others 409 billing_rule (already voided); its allocation is released once', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const payment = (await pay(p, '14.00', { allocations: [{ invoice_id: inv.id, amount: '14.00' }] })).body.data;
    const results = await Promise.all(Array.from({ length: 5 }, () => api.delete(`/payments/${payment.id}`)));
    expect(results.map((r) => `${r.status} ${r.body?.code ?? ''}`).sort()).toEqual([
      '204 ',
      '409 billing_rule',
      '409 billing_rule',
      '409 billing_rule',
      '409 billing_rule',
    ]);
    expect((await api.get(`/invoices/${inv.id}`)).body.data.balance).toBe('114.00');
    expect(await typesOf('payments', payment.id)).toEqual(['payments.created', 'payments.deleted']);
  });

  it('every record whose balance or status moves is announced: allocation made and removed, payment voided', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const payment = (await pay(p, '30.00')).body.data;
    const made = await api.post('/payment_allocations', {
      body: { payment_id: payment.id, invoice_id: inv.id, amount: '30.00' },
    });
    expect(made.status).toBe(201);
    expect(await typesOf('payment_allocations', made.body.data.id)).toEqual(['payment_allocations.created']);
    expect(await typesOf('invoices', inv.id)).toEqual(['invoices.created', 'invoices.updated']);
    expect(await typesOf('payments', payment.id)).toEqual(['payments.created', 'payments.updated']);
    expect((await api.delete(`/payment_allocations/${made.body.data.id}`)).status).toBe(204);
    expect(await typesOf('payment_allocations', made.body.data.id)).toEqual([
      'payment_allocations.created',
      'payment_allocations.deleted',
    ]);
    expect(await typesOf('invoices', inv.id)).toEqual(['invoices.created', 'invoices.updated', 'invoices.updated']);
    expect(await typesOf('payments', payment.id)).toEqual(['payments.created', 'payments.updated', 'payments.updated']);

    const paid = (await pay(p, '5.00', { allocations: [{ invoice_id: inv.id, amount: '5.00' }] })).body.data;
    expect((await api.delete(`/payments/${paid.id}`)).status).toBe(204);
    expect(await typesOf('payments', paid.id)).toEqual(['payments.created', 'payments.deleted']);
    expect(await typesOf('payment_allocations', paid.allocations[0].id)).toEqual([
      'payment_allocations.created',
      'payment_allocations.deleted',
    ]);
    expect((await typesOf('invoices', inv.id)).slice(3)).toEqual(['invoices.updated', 'invoices.updated']);
  });

  it('an already voided payment or invoice: DELETE and allocating to it are 409 billing_rule, nothing written', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const payment = (await pay(p, '10.00')).body.data;
    expect((await api.delete(`/invoices/${inv.id}`)).status).toBe(204);
    expect((await api.delete(`/payments/${(await pay(p, '1.00')).body.data.id}`)).status).toBe(204);
    const voidedPayment = (await api.get(`/deleted_entities?entity=payments&sort=id:desc&page_size=1`)).body.data[0]
      .entity_id;
    const before = await typesOf('payments', payment.id);
    const allocation = await api.post('/payment_allocations', {
      body: { payment_id: payment.id, invoice_id: inv.id, amount: '1.00' },
    });
    expectError(allocation, 409, 'billing_rule');
    const inPayment = await pay(p, '1.00', { allocations: [{ invoice_id: inv.id, amount: '1.00' }] });
    expectError(inPayment, 409, 'billing_rule');
    expectError(await api.delete(`/invoices/${inv.id}`), 409, 'billing_rule');
    expectError(await api.delete(`/payments/${voidedPayment}`), 409, 'billing_rule');
    expectError(await api.delete('/payments/999999999'), 404, 'not_found');
    expectError(
      await api.post('/payment_allocations', {
        body: { payment_id: payment.id, invoice_id: 999999999, amount: '1.00' },
      }),
      422,
      'invalid_input',
    );
    expect(await typesOf('payments', payment.id)).toEqual(before);
    expect((await api.get(`/payments/${payment.id}`)).body.data.unallocated).toBe('10.00');
  });

  it('concurrent allocations racing for the last balance never over-allocate', async () => {
    const p = await bill.patient();
    const inv = await newInvoice(p);
    const payments = await Promise.all(Array.from({ length: 6 }, () => pay(p, '50.00')));
    const results = await Promise.all(
      payments.map((r) =>
        api.post('/payment_allocations', { body: { payment_id: r.body.data.id, invoice_id: inv.id, amount: '40.00' } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'billing_rule');
    expect((await api.get(`/invoices/${inv.id}`)).body.data).toMatchObject({ amount_paid: '80.00', balance: '34.00' });
  });
});
