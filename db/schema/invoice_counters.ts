import { int, table, ref } from '../dialect';

/**
 * A clinic's last invoice number, a row of its own beside its other rows: numbering an invoice writes
 * where the invoice goes (on Citus, the clinic's shard: one node commits). On `accounts`, a reference
 * table there, every invoice was a commit on every node. No row: no invoice yet.
 */
export const invoiceCounters = table('invoice_counters', {
  account_id: ref().primaryKey(),
  last_number: int().notNull(),
});
