-- The clinic's deleted patients, what their children (numbers, notes, files, timeline…) are hidden by
-- (server/resources/live-patient.ts). Online: a partial index of few rows, but building it reads the whole
-- table under a lock that holds writes; on a large database build it first without blocking, then migrate:
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "patients_deleted_idx" ON "patients" USING btree ("account_id","id") WHERE deleted_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS "patients_deleted_idx" ON "patients" USING btree ("account_id","id") WHERE deleted_at IS NOT NULL;
