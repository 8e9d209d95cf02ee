-- Trigram indexes behind `contains` (ILIKE '%…%') on patient names and email. pg_trgm ships with
-- Debian's postgresql package; creating the extension needs a role allowed to do so.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "patients_first_name_trgm" ON "patients" USING gin ("first_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "patients_last_name_trgm" ON "patients" USING gin ("last_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "patients_preferred_name_trgm" ON "patients" USING gin ("preferred_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "patients_email_trgm" ON "patients" USING gin ("email" gin_trgm_ops);
