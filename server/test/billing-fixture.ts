/** Billable items and payment methods for the billing tests (read-only through the API, so inserted here). */
import { billableItems, paymentMethods } from '../../db/schema';
import type { Clinic, TestServer } from './helpers';
import { client } from './helpers';

export async function billingFixture(server: TestServer, clinic: Clinic) {
  const now = new Date().toISOString();
  const base = { account_id: clinic.account.id, metadata: {}, created_at: now, updated_at: now };
  // In a transaction: on SQLite the only way to write (db/client.ts).
  const { items, methods } = await server.app.db.transaction(async (db) => ({
    items: await db
      .insert(billableItems)
      .values([
        {
          ...base,
          name: 'Consultation',
          item_type: 'service' as const,
          price_minor: 6000,
          tax_rate_bp: 0,
          active: true,
        },
        {
          ...base,
          name: 'Foam roller',
          item_type: 'product' as const,
          price_minor: 2250,
          tax_rate_bp: 2000,
          active: true,
        },
        {
          ...base,
          name: 'Retired service',
          item_type: 'service' as const,
          price_minor: 1000,
          tax_rate_bp: 0,
          active: false,
        },
      ])
      .returning({ id: billableItems.id }),
    methods: await db
      .insert(paymentMethods)
      .values([
        { ...base, name: 'Cash', type: 'cash' as const, active: true, sort_order: 1 },
        { ...base, name: 'Card', type: 'card' as const, active: true, sort_order: 2 },
        { ...base, name: 'Insurance', type: 'insurance' as const, active: true, sort_order: 3 },
        { ...base, name: 'Cheque', type: 'cheque' as const, active: false, sort_order: 4 },
      ])
      .returning({ id: paymentMethods.id }),
  }));
  const [consultation, roller, retired] = items.map((r) => r.id).sort((a, b) => a - b);
  const [cash, card, insurance, cheque] = methods.map((r) => r.id).sort((a, b) => a - b);
  const api = client(server, clinic);
  const patient = async (first_name = 'Bill') =>
    (await api.post('/patients', { body: { first_name, last_name: 'Payer' } })).body.data.id as number;
  return { consultation, roller, retired, cash, card, insurance, cheque, patient };
}

export type Billing = Awaited<ReturnType<typeof billingFixture>>;
