/**
 * Random sequences of billing operations through the HTTP API (fast-check), with the invariants
 * checked after every step: balances add up and never go negative, payments are never allocated or
 * refunded beyond their amount, voided records hold no allocations, numbers are unique, and the audit
 * trail and outbox gain exactly one entry per successful write and none for a refused one.
 */
import { and, asc, count, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, events, invoices, paymentAllocations, payments } from '../../db/schema';
import { formatMoney, parseMoney } from '../values/money';
import { billingFixture, type Billing } from './billing-fixture';
import { type Res, useClinic } from './helpers';

const t = useClinic();
const { api } = t;
let bill: Billing;

beforeAll(async () => {
  bill = await billingFixture(t.server, t.clinic);
});

const money = fc.integer({ min: 1, max: 15_000 }).map(formatMoney);
const line = () =>
  fc.record({
    billable_item_id: fc.constantFrom('consultation', 'roller'),
    quantity: fc.integer({ min: 1, max: 3 }),
    discount: fc.option(fc.integer({ min: 0, max: 1_000 }).map(formatMoney), { nil: undefined }),
  });
const pick = fc.nat();

const op = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('invoice' as const),
      patient: fc.nat(1),
      lines: fc.array(line(), { minLength: 1, maxLength: 3 }),
      thirdParty: fc.option(money, { nil: undefined }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      patient: fc.nat(1),
      amount: money,
      insurer: fc.boolean(),
      allocateTo: fc.option(pick, { nil: undefined }),
      share: fc.integer({ min: 1, max: 100 }),
    }),
  },
  fc.record({
    kind: fc.constant('invoice' as const),
    patient: fc.nat(1),
    lines: fc.array(line(), { minLength: 1, maxLength: 3 }),
    thirdParty: fc.option(money, { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('relines' as const),
    invoice: pick,
    lines: fc.array(line(), { minLength: 0, maxLength: 3 }),
    keepFirst: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('addLine' as const), invoice: pick, line: line() }),
  fc.record({ kind: fc.constant('removeLine' as const), invoice: pick }),
  fc.record({
    kind: fc.constant('pay' as const),
    patient: fc.nat(1),
    amount: money,
    insurer: fc.boolean(),
    allocateTo: fc.option(pick, { nil: undefined }),
    share: fc.integer({ min: 1, max: 100 }),
  }),
  // Amounts as a share of what is available (or, past 100%, a little more), so both outcomes are common.
  fc.record({
    kind: fc.constant('allocate' as const),
    payment: pick,
    invoice: pick,
    share: fc.integer({ min: 1, max: 120 }),
  }),
  fc.record({ kind: fc.constant('deallocate' as const), allocation: pick }),
  fc.record({ kind: fc.constant('refund' as const), payment: pick, share: fc.integer({ min: 1, max: 120 }) }),
  fc.record({ kind: fc.constant('voidInvoice' as const), invoice: pick, voidPayments: fc.boolean() }),
  fc.record({ kind: fc.constant('voidPayment' as const), payment: pick }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

interface Run {
  patients: number[];
  invoices: number[];
  payments: number[];
}

const minor = (s: string) => (s.startsWith('-') ? -parseMoney(s.slice(1)) : parseMoney(s));
const at = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);
/** `percent` of an amount in minor units, at least 0.01. */
const share = (available: number, percent: number) => Math.max(1, Math.floor((available * percent) / 100));

/** Set by apply() when the operation is within what is available, so it must succeed. */
let mustSucceed = false;

async function apply(run: Run, o: Op): Promise<Res | null> {
  mustSucceed = false;
  const item = (l: { billable_item_id: 'consultation' | 'roller'; quantity: number; discount?: string }) => ({
    ...l,
    billable_item_id: bill[l.billable_item_id],
  });
  switch (o.kind) {
    case 'invoice': {
      const res = await api.post('/invoices', {
        body: { patient_id: run.patients[o.patient], line_items: o.lines.map(item), third_party_amount: o.thirdParty },
      });
      if (res.status === 201) run.invoices.push(res.body.data.id);
      return res;
    }
    case 'relines': {
      const id = at(run.invoices, o.invoice);
      if (!id) return null;
      const current = (await api.get(`/invoices/${id}`)).body.data;
      const kept =
        o.keepFirst && current
          ? [
              {
                id: current.line_items[0].id,
                billable_item_id: current.line_items[0].billable_item_id,
                quantity: current.line_items[0].quantity,
              },
            ]
          : [];
      return api.patch(`/invoices/${id}`, { body: { line_items: [...kept, ...o.lines.map(item)] } });
    }
    case 'addLine': {
      const id = at(run.invoices, o.invoice);
      return id ? api.post('/line_items', { body: { invoice_id: id, ...item(o.line) } }) : null;
    }
    case 'removeLine': {
      const id = at(run.invoices, o.invoice);
      const inv = id && (await api.get(`/invoices/${id}`)).body.data;
      return inv ? api.delete(`/line_items/${inv.line_items[inv.line_items.length - 1].id}`) : null;
    }
    case 'pay': {
      const patient_id = run.patients[o.patient];
      const target = o.allocateTo === undefined ? undefined : at(run.invoices, o.allocateTo);
      const share = formatMoney(Math.max(1, Math.floor((parseMoney(o.amount) * o.share) / 100)));
      const res = await api.post('/payments', {
        body: {
          patient_id,
          payment_method_id: o.insurer ? bill.insurance : bill.cash,
          amount: o.amount,
          allocations: target ? [{ invoice_id: target, amount: share }] : undefined,
        },
      });
      if (res.status === 201) run.payments.push(res.body.data.id);
      return res;
    }
    case 'allocate': {
      const payment_id = at(run.payments, o.payment);
      // Prefer an invoice of the payment's patient: another patient's is refused anyway.
      const payment = payment_id && (await api.get(`/payments/${payment_id}`)).body.data;
      const own = payment ? (await api.get(`/invoices?patient_id=${payment.patient_id}&page_size=100`)).body.data : [];
      const invoice = at(own, o.invoice) as
        { id: number; patient_balance: string; third_party_balance: string } | undefined;
      const invoice_id = invoice?.id ?? at(run.invoices, o.invoice);
      if (!payment_id || !invoice_id) return null;
      // An insurance payment pays the invoice's third-party part, any other its patient part.
      const part =
        invoice &&
        (payment.payment_method_id === bill.insurance
          ? minor(invoice.third_party_balance)
          : minor(invoice.patient_balance));
      const available = Math.min(payment ? minor(payment.unallocated) : 0, part ?? 0);
      mustSucceed = Boolean(invoice) && available >= 1 && o.share <= 100;
      return api.post('/payment_allocations', {
        body: { payment_id, invoice_id, amount: formatMoney(share(available, o.share)) },
      });
    }
    case 'deallocate': {
      const rows = await t.server.app.db.db
        .select({ id: paymentAllocations.id })
        .from(paymentAllocations)
        .where(inArray(paymentAllocations.payment_id, run.payments.length ? run.payments : [0]));
      const target = at(
        rows.map((r) => r.id).sort((a, b) => a - b),
        o.allocation,
      );
      return target ? api.delete(`/payment_allocations/${target}`) : null;
    }
    case 'refund': {
      const payment_id = at(run.payments, o.payment);
      const payment = payment_id && (await api.get(`/payments/${payment_id}`)).body.data;
      const available = payment ? minor(payment.unallocated) : 0;
      mustSucceed = Boolean(payment) && available >= 1 && o.share <= 100;
      return payment_id
        ? api.post('/refunds', { body: { payment_id, amount: formatMoney(share(available, o.share)) } })
        : null;
    }
    case 'voidInvoice': {
      const id = at(run.invoices, o.invoice);
      return id ? api.delete(`/invoices/${id}${o.voidPayments ? '?void_payments=true' : ''}`) : null;
    }
    case 'voidPayment': {
      const id = at(run.payments, o.payment);
      return id ? api.delete(`/payments/${id}`) : null;
    }
  }
}

/** The account's audit entries, and the events announced after event `since`, as `type entity:id`. */
async function journal(since = 0): Promise<{ audits: number; lastEvent: number; announced: string[] }> {
  const db = t.server.app.db.db;
  const [a] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.account_id, t.clinic.account.id));
  const rows = await db
    .select({ id: events.id, type: events.type, entity: events.entity, entity_id: events.entity_id })
    .from(events)
    .where(and(eq(events.account_id, t.clinic.account.id), gt(events.id, since)))
    .orderBy(asc(events.id));
  return {
    audits: Number(a.n),
    lastEvent: rows.at(-1)?.id ?? since,
    announced: rows.map((e) => `${e.type} ${e.entity}:${e.entity_id}`),
  };
}

async function checkInvariants(run: Run) {
  const db = t.server.app.db.db;
  const allocations = await db
    .select()
    .from(paymentAllocations)
    .where(eq(paymentAllocations.account_id, t.clinic.account.id));
  for (const patient of run.patients) {
    for (const inv of (await api.get(`/invoices?patient_id=${patient}&page_size=100`)).body.data) {
      const paid = allocations.filter((a) => a.invoice_id === inv.id).reduce((s, a) => s + a.amount_minor, 0);
      // Each line recomputed from the fixture's price list, not read back: quantity × price − discount,
      // plus tax per line rounded half up (consultation untaxed, roller 20%).
      for (const l of inv.line_items as {
        billable_item_id: number;
        quantity: number;
        discount: string;
        total: string;
      }[]) {
        const [price, taxBp] = l.billable_item_id === bill.roller ? [2250, 2000] : [6000, 0];
        expect(l.billable_item_id === bill.roller || l.billable_item_id === bill.consultation).toBe(true);
        const net = l.quantity * price - minor(l.discount);
        expect(minor(l.total), `line ${JSON.stringify(l)}`).toBe(net + Math.floor((net * taxBp + 5000) / 10000));
      }
      const lineTotal = inv.line_items.reduce((s: number, l: { total: string }) => s + minor(l.total), 0);
      expect(inv.line_items.length).toBeGreaterThan(0);
      expect(minor(inv.total)).toBe(lineTotal);
      expect(minor(inv.amount_paid)).toBe(paid);
      expect(minor(inv.balance)).toBe(minor(inv.total) - paid);
      expect(minor(inv.balance)).toBeGreaterThanOrEqual(0);
      expect(minor(inv.patient_balance)).toBeGreaterThanOrEqual(0);
      expect(minor(inv.third_party_balance)).toBeGreaterThanOrEqual(0);
      expect(minor(inv.patient_balance) + minor(inv.third_party_balance)).toBe(minor(inv.balance));
    }
    for (const p of (await api.get(`/payments?patient_id=${patient}&page_size=100`)).body.data) {
      const allocated = allocations.filter((a) => a.payment_id === p.id).reduce((s, a) => s + a.amount_minor, 0);
      expect(minor(p.allocated)).toBe(allocated);
      expect(minor(p.allocated) + minor(p.refunded)).toBeLessThanOrEqual(minor(p.amount));
      expect(minor(p.unallocated)).toBe(minor(p.amount) - minor(p.allocated) - minor(p.refunded));
    }
  }
  const voidedInvoices = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.account_id, t.clinic.account.id), isNotNull(invoices.voided_at)));
  const voidedPayments = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.account_id, t.clinic.account.id), isNotNull(payments.voided_at)));
  const vi = new Set(voidedInvoices.map((v) => v.id));
  const vp = new Set(voidedPayments.map((v) => v.id));
  expect(allocations.filter((a) => vi.has(a.invoice_id) || vp.has(a.payment_id))).toEqual([]);
  const numbers = await db
    .select({ number: invoices.number })
    .from(invoices)
    .where(eq(invoices.account_id, t.clinic.account.id));
  expect(new Set(numbers.map((n) => n.number)).size).toBe(numbers.length);
}

/** The least share of successes per operation kind (refusals are expected: voided targets, over-asks). */
const MIN_SUCCESS: Record<string, number> = {
  invoice: 0.6,
  relines: 0.5,
  addLine: 0.6,
  removeLine: 0.4,
  pay: 0.4,
  allocate: 0.15,
  deallocate: 0.4,
  refund: 0.4,
  voidInvoice: 0.5,
  voidPayment: 0.3,
};

it('billing invariants hold after every step of random operation sequences', { timeout: 600_000 }, async () => {
  // Successes and refusals per operation: the sequences must exercise both, or they prove little.
  const tally = new Map<string, { ok: number; refused: number }>();
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30 }), async (ops) => {
      const run: Run = {
        patients: [await bill.patient('Prop'), await bill.patient('Prop')],
        invoices: [],
        payments: [],
      };
      for (const o of ops) {
        const before = await journal((await journal()).lastEvent);
        const res = await apply(run, o);
        const after = await journal(before.lastEvent);
        if (res) {
          expect(res.status, `${o.kind}: ${res.text}`).toBeLessThan(500);
          const ok = res.status < 300;
          const t = tally.get(o.kind) ?? { ok: 0, refused: 0 };
          t[ok ? 'ok' : 'refused']++;
          tally.set(o.kind, t);
          if (!ok) expect([404, 409, 422], `${o.kind}: ${res.text}`).toContain(res.status);
          if (mustSucceed) expect(res.status, `${o.kind} within what is available must succeed: ${res.text}`).toBe(201);
          // One audit entry per successful write; its events name each record it changed once (the
          // written record, plus invoices and payments whose balances moved); a refusal leaves nothing.
          expect(
            after.audits,
            `${o.kind} ${res.status}: one audit entry per successful write, none for a refusal`,
          ).toBe(before.audits + (ok ? 1 : 0));
          const records = after.announced.map((e) => e.split(' ')[1]);
          expect(
            new Set(records).size,
            `${o.kind}: one event per record per operation: ${after.announced.join(', ')}`,
          ).toBe(records.length);
          expect(after.announced.length > 0, `${o.kind} ${res.status}: events ${after.announced.join(', ')}`).toBe(ok);
        }
        await checkInvariants(run);
      }
    }),
    // A fixed seed keeps CI repeatable; BILLING_PROPERTY_SEED=random (or a number) explores other sequences.
    {
      numRuns: Number(process.env.BILLING_PROPERTY_RUNS ?? 40),
      seed:
        process.env.BILLING_PROPERTY_SEED === 'random'
          ? undefined
          : Number(process.env.BILLING_PROPERTY_SEED ?? 20261126),
    },
  );
  // Every kind of operation succeeds often enough to prove something (the rates seen with the fixed seed
  // are well above these floors), and refusals happen too.
  for (const kind of [
    'invoice',
    'relines',
    'addLine',
    'removeLine',
    'pay',
    'allocate',
    'deallocate',
    'refund',
    'voidInvoice',
    'voidPayment',
  ]) {
    const t = tally.get(kind) ?? { ok: 0, refused: 0 };
    expect(
      t.ok / Math.max(1, t.ok + t.refused),
      `${kind} succeeded too rarely: ${JSON.stringify([...tally])}`,
    ).toBeGreaterThanOrEqual(MIN_SUCCESS[kind]);
  }
  console.log(`billing property: ${JSON.stringify(Object.fromEntries(tally))}`);
  expect([...tally.values()].reduce((s, t) => s + t.refused, 0)).toBeGreaterThan(0);
});
