-- Phone search compares numbers.search_key (server/values/phone.ts): E.164, or the digits of a number that does not parse.
ALTER TABLE "numbers" ADD COLUMN "search_key" text;--> statement-breakpoint
CREATE INDEX "numbers_search_key_idx" ON "numbers" USING btree ("account_id","search_key");--> statement-breakpoint
-- Backfill: every number the API stored has intl_number, its E.164 form from libphonenumber-js; a row without one
-- keeps its digits (0-9 only, as phoneSearchKey does). Only rows without a key: running it again changes nothing.
UPDATE "numbers" SET "search_key" = coalesce("intl_number", nullif(regexp_replace("number", '[^0-9]', '', 'g'), '')) WHERE "search_key" IS NULL;
