-- The trigram indexes behind `contains` and `like` on patients' names and email, rebuilt on the text with
-- its apostrophes swapped for modifier letters (server/list/apostrophes.ts): pg_trgm splits words at an
-- apostrophe, and `contains:o'n` read every name with a word "o" and a word "n…".
DROP INDEX IF EXISTS "patients_first_name_trgm";
--> statement-breakpoint
CREATE INDEX "patients_first_name_trgm" ON "patients" USING gin ((translate("first_name", '''’ʼʻ', 'ʼʻ''’')) gin_trgm_ops);
--> statement-breakpoint
DROP INDEX IF EXISTS "patients_last_name_trgm";
--> statement-breakpoint
CREATE INDEX "patients_last_name_trgm" ON "patients" USING gin ((translate("last_name", '''’ʼʻ', 'ʼʻ''’')) gin_trgm_ops);
--> statement-breakpoint
DROP INDEX IF EXISTS "patients_preferred_name_trgm";
--> statement-breakpoint
CREATE INDEX "patients_preferred_name_trgm" ON "patients" USING gin ((translate("preferred_name", '''’ʼʻ', 'ʼʻ''’')) gin_trgm_ops);
--> statement-breakpoint
DROP INDEX IF EXISTS "patients_email_trgm";
--> statement-breakpoint
CREATE INDEX "patients_email_trgm" ON "patients" USING gin ((translate("email", '''’ʼʻ', 'ʼʻ''’')) gin_trgm_ops);
