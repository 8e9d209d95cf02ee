-- The clinic's voided invoices, what their lines are hidden by (server/resources/follows.ts). Online: a
-- partial index of few rows, but building it reads the whole table under a lock that holds writes; on a large
-- database build it first without blocking, then migrate:
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "invoices_voided_idx" ON "invoices" USING btree ("account_id","id") WHERE voided_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS "invoices_voided_idx" ON "invoices" USING btree ("account_id","id") WHERE voided_at IS NOT NULL;